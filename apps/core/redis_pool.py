"""A Redis connection pool shared by every cache handle of a process.

Django keeps one cache handle per thread, and each handle builds its own pool; under ASGI every
request runs on a fresh thread, so without sharing each request would open a new connection."""

from __future__ import annotations

import threading

import redis

_pools: dict[tuple, redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **kwargs) -> redis.ConnectionPool:
        key = (url, tuple(sorted((k, repr(v)) for k, v in kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = redis.ConnectionPool.from_url(url, **kwargs)
            return pool
