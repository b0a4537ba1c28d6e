"""Turn settings, read with defaults so the lead's settings only name what differs."""

from __future__ import annotations

import os

from django.conf import settings

FAULT_ENV = "SAGASMITH_TURN_FAULT"


def _int(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def lease_seconds() -> int:
    return _int(
        "SAGASMITH_TURN_LEASE_SECONDS", int(os.environ.get("SAGASMITH_TURN_LEASE_SECONDS", 60))
    )


def run_seconds() -> float:
    """How long one attempt's agent may run before it stops calling tools: the thread pool does
    not enforce the task's time limits, so the turn keeps its own (the task's soft limit)."""
    return float(getattr(settings, "SAGASMITH_TURN_RUN_SECONDS", 270))


def max_attempts() -> int:
    return _int("SAGASMITH_TURN_MAX_ATTEMPTS", 3)


def retry_seconds() -> float:
    return float(getattr(settings, "SAGASMITH_TURN_RETRY_SECONDS", 2.0))


def room_concurrency() -> int:
    # The reference kept 1..64; outside that range is a configuration mistake.
    return max(1, min(64, _int("SAGASMITH_TURN_ROOM_CONCURRENCY", 4)))


def publish_attempts() -> int:
    """Publication tries for a turn that wrote nothing on the domain, before it ends failed."""
    return max(1, _int("SAGASMITH_TURN_PUBLISH_ATTEMPTS", 8))


def retry_max_seconds() -> float:
    """The longest wait between publication tries."""
    return float(getattr(settings, "SAGASMITH_TURN_RETRY_MAX_SECONDS", 300.0))


def reserve_credits() -> int:
    return _int("SAGASMITH_TURN_RESERVE_CREDITS", 5)


def reservation_ttl() -> int:
    # A reservation must outlive the lease it is renewed with (a reference pitfall).
    return max(_int("SAGASMITH_TURN_RESERVATION_TTL", 300), 2 * lease_seconds())


def fault() -> tuple[str, float]:
    """The test-only fault hook: `pause_after_dispatch:<seconds>` or `fail_publish:<n>`."""
    raw = os.environ.get(FAULT_ENV, "")
    if not raw:
        return "", 0.0
    name, _sep, value = raw.partition(":")
    return name, float(value or 0)
