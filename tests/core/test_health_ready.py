import pytest
from channels.layers import channel_layers
from django.test import override_settings

from tests.conftest import redis_url_or_skip

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def fresh_channel_layers():
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


def test_health_is_public(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_ready_reports_every_component(client, fresh_channel_layers):
    response = client.get("/api/ready")
    assert response.status_code == 200, response.content
    components = response.json()["components"]
    assert sorted(components) == ["broker", "cache", "channel_layer", "database"]
    assert all(c["ok"] for c in components.values())


def test_ready_on_real_redis(client, fresh_channel_layers):
    url = redis_url_or_skip()
    with override_settings(
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        },
        CELERY_BROKER_URL=url,
        CELERY_BROKER_TRANSPORT_OPTIONS={},
        CHANNEL_LAYERS={
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [url]},
            }
        },
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
        CHANNEL_LAYERS={
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [DEAD_REDIS]},
            }
        },
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


def test_ready_503_when_a_domain_server_is_down(client, fresh_channel_layers):
    with override_settings(SAGASMITH_DOMAINS={"dnd5e": {"url": "http://127.0.0.1:1/mcp"}}):
        response = client.get("/api/ready")
    assert response.status_code == 503
    components = response.json()["error"]["details"]["components"]
    assert components["domain:dnd5e"]["ok"] is False
    assert components["database"]["ok"] is True
