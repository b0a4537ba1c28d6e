import socket

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import override_settings

from apps.core import selectors
from tests.conftest import hosted_channel_layers, redis_url_or_skip, reset_realtime_state

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def fresh_channel_layers():
    reset_realtime_state()
    yield
    reset_realtime_state()


def test_health_is_public(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_ready_reports_every_component(client, settings, fresh_channel_layers):
    settings.SAGASMITH_DOMAINS = {}  # a session fixture may have pointed it at live servers
    response = client.get("/api/ready")
    assert response.status_code == 200, response.content
    components = response.json()["components"]
    assert sorted(components) == ["broker", "cache", "channel_layer", "database"]
    assert all(c["ok"] for c in components.values())


def test_ready_on_real_redis(client, redis_layer):
    url = redis_url_or_skip()
    with override_settings(
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        },
        CELERY_BROKER_URL=url,
        CELERY_BROKER_TRANSPORT_OPTIONS={},
    ):
        response = client.get("/api/ready")
    assert response.status_code == 200, response.content


def test_ready_503_when_redis_is_down(client, fresh_channel_layers):
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": DEAD_REDIS,
            }
        },
        CELERY_BROKER_URL=DEAD_REDIS,
        CELERY_BROKER_TRANSPORT_OPTIONS={},
        CHANNEL_LAYERS=hosted_channel_layers(DEAD_REDIS),
    ):
        response = client.get("/api/ready")
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "not_ready"
    assert error["retryable"] is True
    components = error["details"]["components"]
    assert components["database"]["ok"] is True
    for name in ("cache", "broker", "channel_layer"):
        assert components[name]["ok"] is False, name
        assert components[name]["error"]
    # The refused connection is reported as such, well inside the check's own deadline.
    layer = components["channel_layer"]
    assert layer["error"] == (
        "ConnectionError: Error 111 connecting to 127.0.0.1:1. "
        "Connect call failed ('127.0.0.1', 1)."
    )
    assert layer["ms"] < selectors.CHECK_TIMEOUT * 1000


def test_ready_503_when_redis_accepts_but_never_answers(
    client, settings, fresh_channel_layers, monkeypatch
):
    monkeypatch.setattr(selectors, "CHECK_TIMEOUT", 0.5)
    # Listening but never accepting: the kernel completes the handshake, nobody replies.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        settings.CHANNEL_LAYERS = hosted_channel_layers(f"redis://127.0.0.1:{port}/0")
        reset_realtime_state()
        response = client.get("/api/ready")
    assert response.status_code == 503
    layer = response.json()["error"]["details"]["components"]["channel_layer"]
    assert (layer["ok"], layer["error"]) == (
        False,
        "TimeoutError: no round trip through the channel layer within 0.5 s",
    )
    assert layer["ms"] < 5000  # the check's deadline, not redis-py's 5 s read timeout


def test_ready_503_when_a_domain_server_is_down(client, fresh_channel_layers):
    with override_settings(SAGASMITH_DOMAINS={"dnd5e": {"url": "http://127.0.0.1:1/mcp"}}):
        response = client.get("/api/ready")
    assert response.status_code == 503
    components = response.json()["error"]["details"]["components"]
    assert components["domain:dnd5e"]["ok"] is False
    assert components["database"]["ok"] is True


@pytest.mark.django_db(transaction=True)
async def test_ready_check_leaves_no_channel_on_the_callers_loop(redis_layer):
    # Under an ASGI server the sync view runs beside the server's loop. The pub/sub layer keeps
    # every channel subscribed on the loop that made it until that loop closes, so the check
    # runs on a loop of its own: one probe after another must not pile subscriptions up there.
    layer = get_channel_layer()
    await sync_to_async(selectors._check_channel_layer)()
    await sync_to_async(selectors._check_channel_layer)()
    assert layer._layers == {}
