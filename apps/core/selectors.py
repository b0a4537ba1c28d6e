"""Reads owned by core: readiness of every component the product depends on."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from urllib.parse import urlparse

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.cache import cache
from django.db import connection

CHECK_TIMEOUT = 2.0


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _check_cache() -> None:
    key = f"ready:{uuid.uuid4().hex}"
    cache.set(key, "1", 5)
    if cache.get(key) != "1":
        raise RuntimeError("cache did not return the value it stored")
    cache.delete(key)


def _check_broker() -> None:
    from kombu import Connection

    with Connection(
        settings.CELERY_BROKER_URL,
        transport_options=dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS),
        connect_timeout=CHECK_TIMEOUT,
    ) as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT)


def _check_channel_layer() -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def roundtrip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ready.ping"})
        message = await layer.receive(channel)
        if message.get("type") != "ready.ping":
            raise RuntimeError("channel layer returned an unexpected message")

    async def bounded():
        # One deadline for the whole trip: the pub/sub layer connects in new_channel(), and a
        # host that accepts but never answers would otherwise hold it for redis-py's 5 s.
        try:
            await asyncio.wait_for(roundtrip(), CHECK_TIMEOUT)
        except TimeoutError:
            raise TimeoutError(
                f"no round trip through the channel layer within {CHECK_TIMEOUT:g} s"
            ) from None

    # A loop of its own, closed afterwards: the pub/sub layer keeps each channel subscribed on
    # the loop that made it until that loop closes, so on a server's loop every probe would
    # leave a subscription behind.
    async_to_sync(bounded, force_new_loop=True)()


def _probe_url(url: str) -> None:
    parsed = urlparse(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    with socket.create_connection((parsed.hostname, port), timeout=CHECK_TIMEOUT):
        pass


def readiness_report() -> tuple[bool, dict[str, dict]]:
    """Check every component; returns (all ok, component map with status and latency)."""
    checks = {
        "database": _check_database,
        "cache": _check_cache,
        "broker": _check_broker,
        "channel_layer": _check_channel_layer,
    }
    for system_id, spec in sorted(settings.SAGASMITH_DOMAINS.items()):
        target = spec.get("url") if isinstance(spec, dict) else None
        if target:
            checks[f"domain:{system_id}"] = lambda target=target: _probe_url(target)
    components: dict[str, dict] = {}
    for name, check in checks.items():
        started = time.perf_counter()
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
            components[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        else:
            components[name] = {"ok": True}
        components[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return all(c["ok"] for c in components.values()), components
