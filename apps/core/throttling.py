"""API rate limits: DRF's throttles, kept in Redis as one sorted set per key when the cache is
Redis (one round trip per check), else in the cache as DRF keeps them."""

from __future__ import annotations

import uuid
import weakref

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling

# A sliding window of request times (the scores): drop those older than the window, refuse at
# the limit (answering with the oldest time, for Retry-After; now when a limit of 0 leaves the
# window empty), else record this one. Atomic, so concurrent requests cannot both take the last
# slot.
_WINDOW_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {0, count, oldest[2] or ARGV[1]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return {1, count + 1, '0'}
"""


# The script bound to a client, per cache backend's client: the cache makes a new client object
# (over the same pool) on every get_client, and hashes the script again on every register.
_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _window_script(backend: RedisCache, key: str):
    script = _scripts.get(backend._cache)
    if script is None:
        script = backend._cache.get_client(key, write=True).register_script(_WINDOW_SCRIPT)
        _scripts[backend._cache] = script
    return script


class SlidingWindowRateThrottle(throttling.SimpleRateThrottle):
    """DRF's rate throttle with the same limit and Retry-After, but one script call in Redis
    instead of reading and rewriting the pickled history list in the cache. Listed after DRF's
    own subclass in the bases, so that one sets the rate (a scope's) before this checks it."""

    def allow_request(self, request, view):
        backend = caches[DEFAULT_CACHE_ALIAS] if self.cache is default_cache else self.cache
        if not isinstance(backend, RedisCache):
            return super().allow_request(request, view)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        # Its own key: DRF's pickled list may sit under the plain one.
        key = backend.make_and_validate_key(f"{self.key}:window")
        allowed, count, oldest = _window_script(backend, key)(
            keys=[key], args=[self.now, self.duration, self.num_requests, uuid.uuid4().hex]
        )
        if allowed:
            return True
        # What wait() reads: as many entries as the window holds, the oldest last.
        self.history = [float(oldest)] * int(count)
        return False


class UserRateThrottle(throttling.UserRateThrottle, SlidingWindowRateThrottle):
    """Per-user limit for signed-in callers."""

    def allow_request(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


class AnonRateThrottle(throttling.AnonRateThrottle, SlidingWindowRateThrottle):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, SlidingWindowRateThrottle):
    pass


class WriteScopedRateThrottle(ScopedRateThrottle):
    """A view's `throttle_scope` rate for a signed-in user's writes (reads are not counted),
    on top of the general per-user limit: e.g. posting to a room."""

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        if not request.user or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


# The general limits plus a view's write scope.
WRITE_LIMITED = [UserRateThrottle, AnonRateThrottle, WriteScopedRateThrottle]
