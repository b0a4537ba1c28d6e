import shutil

import pytest

from tests.conftest import (
    hosted_channel_layers,
    redis_url_or_skip,
    reset_realtime_state,
    service_missing,
)
from tests.projections.relay import PrivateRedis, RedisRelay, vacant_redis_url
from tests.rooms.conftest import _short_lived_connections  # noqa: F401 (autouse)


@pytest.fixture
def redis_relay(settings):
    """Start a `RedisRelay` to REDIS_URL (its options as keywords) and point the channel layer
    at it; closed after the test."""
    relays: list[RedisRelay] = []

    def start(**options) -> RedisRelay:
        relay = RedisRelay(redis_url_or_skip(), **options)
        relays.append(relay)
        settings.CHANNEL_LAYERS = hosted_channel_layers(relay.url)
        reset_realtime_state()
        return relay

    yield start
    reset_realtime_state()
    for relay in relays:
        relay.close()


@pytest.fixture
def refusing_redis(settings):
    """A channel layer on a port nobody listens on: a Redis being restarted."""
    settings.CHANNEL_LAYERS = hosted_channel_layers(vacant_redis_url(11))
    reset_realtime_state()
    yield
    reset_realtime_state()


@pytest.fixture
def private_redis(settings):
    """A `PrivateRedis` the channel layer is pointed at; stopped after the test."""
    executable = shutil.which("redis-server")
    if executable is None:
        service_missing("redis-server is not installed")
    server = PrivateRedis(executable)
    settings.CHANNEL_LAYERS = hosted_channel_layers(server.url)
    reset_realtime_state()
    yield server
    reset_realtime_state()
    server.close()
