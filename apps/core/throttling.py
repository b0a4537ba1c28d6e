"""API rate limits: DRF's throttles, kept in Redis as one sorted set per key when the cache is
Redis (one round trip per check), else in the cache as DRF keeps them."""

from __future__ import annotations

import uuid
import weakref

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling

# Sliding windows of request times (the scores), one per key, each with its duration and limit
# in ARGV: drop the times older than each window; refuse if any is at its limit (answering, per
# window, its count and its oldest time, for Retry-After; now when a limit of 0 leaves the window
# empty), else record this request in every one. Atomic, so concurrent requests cannot both take
# the last slot, and a refused request takes room in none.
_WINDOW_SCRIPT = """
local now, member = ARGV[1], ARGV[2]
local answer, refused = {1}, false
for i, key in ipairs(KEYS) do
    local duration, limit = ARGV[1 + 2 * i], tonumber(ARGV[2 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - duration)
    local count = redis.call('ZCARD', key)
    local oldest = '0'
    if count >= limit then
        refused = true
        oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2] or now
    end
    table.insert(answer, count)
    table.insert(answer, oldest)
end
if refused then
    answer[1] = 0
    return answer
end
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, now, member)
    redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[1 + 2 * i])))
end
return answer
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


def _admit(throttles: list[SlidingWindowRateThrottle]) -> list[SlidingWindowRateThrottle]:
    """Counts the request in each throttle's window if every one has room; returns those that
    are full (each then set up for its wait())."""
    first = throttles[0]
    backend = caches[DEFAULT_CACHE_ALIAS] if first.cache is default_cache else first.cache
    now = first.timer()
    for throttle in throttles:
        throttle.now = now
    if not isinstance(backend, RedisCache):
        # DRF's history lists in the cache, read and written back (as DRF does, not atomic).
        for throttle in throttles:
            throttle.history = throttle.cache.get(throttle.key, [])
            while throttle.history and throttle.history[-1] <= now - throttle.duration:
                throttle.history.pop()
        full = [t for t in throttles if len(t.history) >= t.num_requests]
        if not full:
            for throttle in throttles:
                throttle.throttle_success()
        return full
    # Their own keys: DRF's pickled lists may sit under the plain ones.
    keys = [backend.make_and_validate_key(f"{t.key}:window") for t in throttles]
    args: list = [now, uuid.uuid4().hex]
    for throttle in throttles:
        args += [throttle.duration, throttle.num_requests]
    allowed, *answers = _window_script(backend, keys[0])(keys=keys, args=args)
    if allowed:
        return []
    full = []
    for throttle, count, oldest in zip(throttles, answers[::2], answers[1::2], strict=True):
        if int(count) >= throttle.num_requests:
            # What wait() reads: as many entries as the window holds, the oldest last.
            throttle.history = [float(oldest)] * int(count)
            full.append(throttle)
    return full


class SlidingWindowRateThrottle(throttling.SimpleRateThrottle):
    """DRF's rate throttle with the same limit and Retry-After, but one script call in Redis
    instead of reading and rewriting the pickled history list in the cache. Listed after DRF's
    own subclass in the bases, so that one sets the rate (a scope's) before this checks it."""

    # Set on an instance that CombinedRateThrottle asks: its window is then handed over to be
    # counted together with the others, not counted here.
    windows: list[SlidingWindowRateThrottle] | None = None

    def allow_request(self, request, view):
        if self.windows is None:
            backend = caches[DEFAULT_CACHE_ALIAS] if self.cache is default_cache else self.cache
            if not isinstance(backend, RedisCache):
                return super().allow_request(request, view)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        if self.windows is not None:
            self.windows.append(self)
            return True
        return not _admit([self])


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


class CombinedRateThrottle(throttling.BaseThrottle):
    """Several throttles' limits counted as one: a request any of them refuses takes room in
    none. (DRF asks each throttle of a view in turn, and each would count what it lets through.)"""

    parts: tuple[type[SlidingWindowRateThrottle], ...] = ()

    def allow_request(self, request, view):
        windows: list[SlidingWindowRateThrottle] = []
        for part in self.parts:
            throttle = part()
            throttle.windows = windows
            throttle.allow_request(request, view)
        self.full = _admit(windows) if windows else []
        return not self.full

    def wait(self):
        waits = [w for w in (throttle.wait() for throttle in self.full) if w is not None]
        return max(waits, default=None)


class WriteLimitedRateThrottle(CombinedRateThrottle):
    """The general limits plus a view's write scope."""

    parts = (UserRateThrottle, AnonRateThrottle, WriteScopedRateThrottle)


WRITE_LIMITED = [WriteLimitedRateThrottle]
