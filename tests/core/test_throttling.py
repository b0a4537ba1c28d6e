"""Rate limits kept in Redis: a sliding window in one sorted set per key, one script call per
check, with DRF's limits and Retry-After."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import redis
from django.core.cache import caches

from apps.core.throttling import UserRateThrottle
from tests.conftest import redis_url_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(settings):
    url = redis_url_or_skip()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "sagasmith-test-throttle",
        }
    }
    caches["default"].clear()
    yield redis.Redis.from_url(url)
    caches["default"].clear()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def throttle(clock: Clock) -> UserRateThrottle:
    return type("TwoPerMinute", (UserRateThrottle,), {"rate": "2/min", "timer": clock})()


def test_the_window_slides_and_retry_after_counts_from_the_oldest_request(redis_cache, make_user):
    clock, request = Clock(), SimpleNamespace(user=make_user())
    assert throttle(clock).allow_request(request, None) is True
    clock.now += 20
    assert throttle(clock).allow_request(request, None) is True
    clock.now += 10
    refused = throttle(clock)
    assert refused.allow_request(request, None) is False
    # The oldest request leaves the window 30 s from now; one slot is needed.
    assert refused.wait() == pytest.approx(30.0)
    clock.now += 31  # the first request has left the window; the second is still in it
    assert throttle(clock).allow_request(request, None) is True
    assert throttle(clock).allow_request(request, None) is False
    # Kept as a sorted set under its own key, not as DRF's pickled list.
    keys = [k.decode() for k in redis_cache.keys("sagasmith-test-throttle:*")]
    assert keys == [f"sagasmith-test-throttle:1:throttle_user_{request.user.pk}:window"]
    assert redis_cache.type(keys[0]) == b"zset"
    assert redis_cache.zcard(keys[0]) == 2
    assert 0 < redis_cache.ttl(keys[0]) <= 60


def test_a_refused_request_is_not_counted(redis_cache, make_user):
    clock, request = Clock(), SimpleNamespace(user=make_user())
    for _ in range(2):
        assert throttle(clock).allow_request(request, None) is True
    for _ in range(5):
        assert throttle(clock).allow_request(request, None) is False
    clock.now += 61
    assert throttle(clock).allow_request(request, None) is True


def test_a_limit_of_zero_refuses_with_a_whole_window_to_wait(redis_cache, make_user):
    request = SimpleNamespace(user=make_user())
    closed = type("Closed", (UserRateThrottle,), {"rate": "0/min", "timer": Clock()})()
    assert closed.allow_request(request, None) is False
    assert closed.wait() == pytest.approx(60.0)


def test_a_refusal_s_wait_is_rounded_up_so_waiting_it_out_is_enough():
    from apps.core.errors import throttled_envelope

    body, seconds = throttled_envelope(59.3)
    assert (seconds, body["error"]["details"], body["error"]["recovery"]) == (
        60, {"retry_after": 60}, "Wait 60 seconds and try again."
    )  # fmt: skip
    assert throttled_envelope(None)[1] == 1
