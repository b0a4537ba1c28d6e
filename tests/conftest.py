"""Shared fixtures. Services (PostgreSQL, Redis, Chromium) are real; when one is missing the
test skips, unless SAGASMITH_REQUIRE_SERVICES=1, where it fails."""

from __future__ import annotations

import os
import socket
import threading
from urllib.parse import urlparse

import pytest
from django.conf import settings

REQUIRE_SERVICES = os.environ.get("SAGASMITH_REQUIRE_SERVICES") == "1"


def service_missing(reason: str):
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


def redis_url_or_skip() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        service_missing("REDIS_URL is not set")
    parsed = urlparse(url)
    try:
        socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=1).close()
    except OSError:
        service_missing(f"Redis at {url} is not reachable")
    return url


# Pub/sub channel names are global to a Redis server (the database number does not separate
# them), so tests publish under their own prefix, apart from any server sharing that Redis.
TEST_LAYER_PREFIX = "-".join(
    filter(None, ("sagasmith-test", os.environ.get("PYTEST_XDIST_WORKER")))
)
HOSTED_LAYER_BACKEND = "channels_redis.pubsub.RedisPubSubChannelLayer"


def _hosted_layers(url: str, prefix: str) -> dict:
    return {
        "default": {
            "BACKEND": HOSTED_LAYER_BACKEND,
            "CONFIG": {"hosts": [{"address": url}], "prefix": prefix},
        }
    }


def hosted_channel_layers(url: str, *, prefix: str = TEST_LAYER_PREFIX) -> dict:
    """CHANNEL_LAYERS as sagasmith_web/settings/base.py builds them for REDIS_URL=url, under
    `prefix`: the tests exercise the production backend and options, not a stand-in."""
    from sagasmith_web.settings import base

    if base.REDIS_URL:
        # The settings were built from a REDIS_URL too: fail loudly when their shape changes
        # rather than keep testing a layer production no longer uses.
        production = base.CHANNEL_LAYERS
        expected = _hosted_layers(base.REDIS_URL, production["default"]["CONFIG"]["prefix"])
        assert production == expected, "hosted CHANNEL_LAYERS changed: update tests/conftest.py"
    return _hosted_layers(url, prefix)


def reset_realtime_state() -> None:
    """Forget process-level realtime state so no test inherits another's: the outbox
    publisher's loops, queues and thread, the embedded poller's handle, and the cached channel
    layers (each built from one test's settings)."""
    from channels.layers import channel_layers

    from apps.projections import dispatch

    dispatch.publisher.reset()
    # A poller is stopped by the lifespan that started it; a handle left behind by a failed
    # test belongs to a closed loop and would stop the next server from starting one.
    dispatch._poller = dispatch._poller_stop = None
    channel_layers.backends = {}


@pytest.fixture
def memory_layer(settings):
    """The embedded (in-memory) channel layer, with fresh process-level realtime state."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    reset_realtime_state()
    yield
    reset_realtime_state()


@pytest.fixture
def redis_layer(settings):
    """The hosted channel layer on REDIS_URL, with fresh process-level realtime state."""
    settings.CHANNEL_LAYERS = hosted_channel_layers(redis_url_or_skip())
    reset_realtime_state()
    yield
    reset_realtime_state()


def require_postgres() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        service_missing("DATABASE_URL does not point at PostgreSQL")


# Rows every migrate makes and no test changes: kept through the empty-out after each
# transactional test, whose post_migrate would otherwise write them all again.
KEPT_THROUGH_FLUSH = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete():
    """A transactional test's database is emptied after it with DELETE, not TRUNCATE: the
    tables hold a test's few rows, and PostgreSQL's TRUNCATE makes new files for each of them
    (about 0.3 s a test here, 0.05 s by DELETE). Django's foreign keys are deferred to commit,
    so the order does not matter."""
    from django.core.management.commands import flush

    truncate = flush.sql_flush

    def sql_flush(style, connection, reset_sequences=True, allow_cascade=False):
        if connection.vendor != "postgresql" or reset_sequences:
            return truncate(style, connection, reset_sequences, allow_cascade)
        tables = connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        quote = connection.ops.quote_name
        return [f"DELETE FROM {quote(t)};" for t in tables if t not in KEPT_THROUGH_FLUSH]

    flush.sql_flush = sql_flush
    yield
    flush.sql_flush = truncate


@pytest.fixture(autouse=True)
def _no_domain_storage_left_open():
    """A test closes the domain storages it opens: each SQLite one keeps a thread waking twice
    a second, and hundreds left open in one test worker starved the rest of the machine."""
    from domain_servers.common.storage import CHECKPOINT_THREAD

    yield
    left = sum(thread.name == CHECKPOINT_THREAD for thread in threading.enumerate())
    assert left == 0, f"{left} domain storage(s) left open: close each (Game.close, Storage.close)"


@pytest.fixture(autouse=True)
def _clear_cache():
    # Domain-server tests also run without Django (`-p no:django`); only clear when configured.
    if settings.configured:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture
def make_user(db):
    from apps.accounts.models import User
    from apps.accounts.services import legal_accept

    counter = {"n": 0}

    def make(
        email: str | None = None, *, accepted: bool = True, password="s3cret-passw0rd!", **extra
    ):
        counter["n"] += 1
        user = User.objects.create_user(
            email=email or f"user{counter['n']}@example.test", password=password, **extra
        )
        if accepted:
            legal_accept(user=user)
        return user

    return make


@pytest.fixture
def user(make_user):
    return make_user("alice@example.test")


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    yield
    # Background threads (the outbox publisher, client pools) can still hold connections to the
    # test database; end them so pytest-django can drop it.
    with django_db_blocker.unblock():
        from django.db import connection

        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
