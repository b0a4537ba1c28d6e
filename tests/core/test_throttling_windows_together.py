"""A write-limited view applies the per-user limit and its write scope together: a request one
of them refuses takes no room in the other."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from apps.core.throttling import (
    WRITE_LIMITED,
    SlidingWindowRateThrottle,
    UserRateThrottle,
    WriteScopedRateThrottle,
)
from tests.conftest import redis_url_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["redis", "locmem"])
def cache_kind(request, settings):
    if request.param == "redis":
        location = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url_or_skip(),
        }
    else:
        location = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    settings.CACHES = {"default": {**location, "KEY_PREFIX": "sagasmith-test-windows"}}
    caches["default"].clear()
    yield request.param
    caches["default"].clear()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class WriteApi(APIView):
    throttle_classes = WRITE_LIMITED
    throttle_scope = "messages"

    def get(self, request):
        return Response({})

    def post(self, request):
        return Response({}, status=201)


@pytest.fixture
def call(cache_kind, make_user, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(SlidingWindowRateThrottle, "timer", clock)
    user, factory, view = make_user(), APIRequestFactory(), WriteApi.as_view()

    def call(method: str) -> int:
        request = getattr(factory, method)("/api/test/write", {}, format="json")
        force_authenticate(request, user)
        return view(request).status_code

    call.clock = clock
    return call


def test_a_write_its_scope_refuses_takes_no_room_in_the_user_limit(call, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min"})
    monkeypatch.setattr(WriteScopedRateThrottle, "THROTTLE_RATES", {"messages": "2/min"})
    assert [call("post") for _ in range(3)] == [201, 201, 429]
    # Two requests counted against the user's three: one read still fits, then no more.
    assert [call("get"), call("get")] == [200, 429]


def test_a_write_the_user_limit_refuses_takes_no_room_in_its_scope(call, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "2/min"})
    monkeypatch.setattr(WriteScopedRateThrottle, "THROTTLE_RATES", {"messages": "2/hour"})
    assert [call("get"), call("get"), call("post")] == [200, 200, 429]
    call.clock.now += 61  # the reads leave the user's window; the scope's hour is not over
    # The refused write left both of the scope's two writes this hour free.
    assert [call("post"), call("post"), call("post")] == [201, 201, 429]
