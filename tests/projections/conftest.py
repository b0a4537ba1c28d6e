import pytest
from channels.layers import channel_layers

from tests.conftest import redis_url_or_skip
from tests.rooms.conftest import _short_lived_connections  # noqa: F401 (autouse)


@pytest.fixture
def memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture
def redis_layer(settings):
    url = redis_url_or_skip()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": "sagasmith-test-projections"},
        }
    }
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}
