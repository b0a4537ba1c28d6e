"""Production settings refuse to start without their secrets and services."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEYS = '[{"kid": "k1", "private": "' + "A" * 43 + '="}]'


# Everything production requires, with a PostgreSQL URL that is never connected to.
COMPLETE_ENV = {
    "DJANGO_SECRET_KEY": "x" * 50,
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/none",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_ALLOWED_HOSTS": "play.example.com",
    "SAGASMITH_DELEGATION_PRIVATE_KEYS": GOOD_KEYS,
}


def run_check(extra_env, code="import django; django.setup(); print('started')"):
    """Run `code` in a fresh interpreter on production settings with only `extra_env` set."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_URL", "SAGASMITH_DELEGATION"))
    }
    env.update({"DJANGO_SETTINGS_MODULE": "sagasmith_web.settings.production", **extra_env})
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_production_refuses_without_secrets():
    result = run_check({})
    assert result.returncode != 0
    for problem in (
        "DJANGO_SECRET_KEY must be set to at least 32 characters",
        "DATABASE_URL must point at PostgreSQL",
        "REDIS_URL must be set",
        "DJANGO_ALLOWED_HOSTS must list the public host names",
        "SAGASMITH_DELEGATION_PRIVATE_KEYS must list the delegation signing keys",
    ):
        assert problem in result.stderr


def test_production_refuses_sqlite_even_with_everything_else():
    result = run_check({**COMPLETE_ENV, "DATABASE_URL": "sqlite:////tmp/nope.sqlite3"})
    assert result.returncode != 0
    assert "DATABASE_URL must point at PostgreSQL" in result.stderr
    assert "REDIS_URL must be set" not in result.stderr


def test_production_refuses_malformed_delegation_keys():
    for keys, problem in (
        ('[{"kid": "a", "private": "x"}]', "key 'a' is neither a PEM nor 32 base64 bytes"),
        ("not json", "SAGASMITH_DELEGATION_PRIVATE_KEYS is not JSON"),
        ("[]", "SAGASMITH_DELEGATION_PRIVATE_KEYS must be a non-empty JSON list"),
    ):
        result = run_check({**COMPLETE_ENV, "SAGASMITH_DELEGATION_PRIVATE_KEYS": keys})
        assert result.returncode != 0
        assert problem in result.stderr


def test_production_starts_with_everything_and_is_secure():
    result = run_check(
        COMPLETE_ENV,
        code="import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS > 0, s.DEBUG)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True True True True False"


POOLS_PROBE = """
import threading
import django
django.setup()
from django.conf import settings
from django.core.cache import caches

db = settings.DATABASES["default"]
handles, pools = [], []

def grab():
    cache = caches["default"]  # one handle per thread, as under ASGI
    handles.append(cache)
    pools.append(cache._cache._get_connection_pool(True))

threads = [threading.Thread(target=grab) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
options = db["OPTIONS"]
print(db["CONN_MAX_AGE"], sorted(options["pool"].items()), options["server_side_binding"],
      options.get("prepare_threshold"), settings.CELERY_BROKER_TRANSPORT_OPTIONS)
print(len({id(h) for h in handles}), len({id(p) for p in pools}))
"""


def test_production_pools_database_and_cache_connections_per_process():
    small = {"DATABASE_POOL_MAX": "7", "WEB_HTTP_THREADS": "6", "CELERY_WORKER_CONCURRENCY": "3"}
    result = run_check({**COMPLETE_ENV, **small}, code=POOLS_PROBE)
    assert result.returncode == 0, result.stderr
    # Three threads, three cache handles, one Redis pool; no per-thread database connections.
    # Repeated statements are prepared; the broker keeps no unacked copies (the job rows do).
    assert result.stdout.splitlines() == [
        "0 [('max_size', 7), ('min_size', 2), ('timeout', 10.0)] True 5 {'ack_emulation': False}",
        "3 1",
    ]


def test_a_web_process_refuses_http_threads_its_pool_cannot_serve():
    code = "import django; django.setup(); import sagasmith_web.asgi; print('started')"
    refused = run_check({**COMPLETE_ENV, "DATABASE_POOL_MAX": "16"}, code=code)
    assert refused.returncode != 0
    assert (
        "WEB_HTTP_THREADS (16) must be below DATABASE_POOL_MAX (16): the room sockets' queries "
        "share the web process's pool"
    ) in refused.stderr
    # A web process does not answer for worker threads it never runs.
    started = run_check(
        {**COMPLETE_ENV, "DATABASE_POOL_MAX": "17", "CELERY_WORKER_CONCURRENCY": "9"}, code=code
    )
    assert (started.returncode, started.stdout.strip()) == (0, "started"), started.stderr


def test_a_worker_refuses_threads_its_pool_cannot_serve(monkeypatch, settings):
    from celery.concurrency.prefork import TaskPool as PreforkPool
    from celery.concurrency.thread import TaskPool as ThreadPool

    from sagasmith_web.celery import _pool_fits_worker

    monkeypatch.setitem(settings.DATABASES["default"], "OPTIONS", {"pool": {"max_size": 10}})

    def worker(pool, concurrency):
        return type("Worker", (), {"pool_cls": pool, "concurrency": concurrency})()

    with pytest.raises(SystemExit) as refused:
        _pool_fits_worker(sender=worker(ThreadPool, 6))  # as the command line hands it over
    assert str(refused.value) == (
        "Worker refused to start: a worker of 6 threads needs 12 pooled connections (a turn "
        "and its heartbeat each), more than DATABASE_POOL_MAX (10)"
    )
    _pool_fits_worker(sender=worker(ThreadPool, 5))
    _pool_fits_worker(sender=worker("threads", 5))
    _pool_fits_worker(sender=worker(PreforkPool, 12))  # a process per task: a connection each
    with pytest.raises(SystemExit):
        _pool_fits_worker(sender=worker("threads", 6))


def test_the_pool_check_warns_of_each_shortfall(monkeypatch):
    from django.conf import settings
    from django.core.checks import run_checks
    from django.test import override_settings

    default = settings.DATABASES["default"]
    monkeypatch.setitem(default, "OPTIONS", {})
    with override_settings(WEB_HTTP_THREADS=50, CELERY_WORKER_CONCURRENCY=50):
        assert [e.id for e in run_checks(tags=["pools"])] == []  # no pool, nothing shared
    monkeypatch.setitem(default, "OPTIONS", {"pool": {"max_size": 10}})
    with override_settings(WEB_HTTP_THREADS=9, CELERY_WORKER_CONCURRENCY=5):
        assert [e.id for e in run_checks(tags=["pools"])] == []
    with override_settings(WEB_HTTP_THREADS=10, CELERY_WORKER_CONCURRENCY=6):
        assert [e.id for e in run_checks(tags=["pools"])] == [
            "sagasmith.W001",
            "sagasmith.W002",
        ]
    with override_settings(
        CELERY_WORKER_POOL="prefork", WEB_HTTP_THREADS=2, CELERY_WORKER_CONCURRENCY=6
    ):
        assert [e.id for e in run_checks(tags=["pools"])] == []


@pytest.mark.django_db
def test_the_site_is_named_after_the_product(settings):
    """allauth signs its emails with the Site; Django's own default is example.com."""
    from django.contrib.sites.models import Site

    from apps.core.services import site_sync

    assert (Site.objects.get_current().name, Site.objects.get_current().domain) == (
        "SagaSmith",
        "localhost",
    )
    settings.ALLOWED_HOSTS = [".example.com", "play.example.com"]
    site_sync()
    Site.objects.clear_cache()
    assert Site.objects.get_current().domain == "play.example.com"
