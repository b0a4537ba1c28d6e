"""Thread counts that a process's database connection pool must serve: with too few
connections, queries wait out DATABASE_POOL_TIMEOUT and fail under load. Each process checks
its own count as it starts (the web server its HTTP threads, a worker its actual pool), and
`manage.py check` warns about the configured ones."""

from __future__ import annotations

from typing import Any

from django.core.checks import Warning, register
from django.core.exceptions import ImproperlyConfigured


def pool_max(databases: dict[str, Any]) -> int | None:
    pool = (databases["default"].get("OPTIONS") or {}).get("pool")
    return int(pool.get("max_size", 0)) if isinstance(pool, dict) else None


def web_shortfall(*, databases: dict[str, Any], web_threads: int) -> str | None:
    limit = pool_max(databases)
    if limit is None or web_threads < limit:
        return None
    return (
        f"WEB_HTTP_THREADS ({web_threads}) must be below DATABASE_POOL_MAX ({limit}): the "
        "room sockets' queries share the web process's pool"
    )


def worker_shortfall(
    *, databases: dict[str, Any], worker_pool: str, worker_concurrency: int
) -> str | None:
    limit = pool_max(databases)
    if limit is None or "thread" not in worker_pool or worker_concurrency * 2 <= limit:
        return None
    return (
        f"a worker of {worker_concurrency} threads needs {worker_concurrency * 2} pooled "
        f"connections (a turn and its heartbeat each), more than DATABASE_POOL_MAX ({limit})"
    )


def require_web_pool() -> None:
    """Raises ImproperlyConfigured when this web process's HTTP threads would starve its
    pool."""
    from django.conf import settings

    problem = web_shortfall(databases=settings.DATABASES, web_threads=settings.WEB_HTTP_THREADS)
    if problem:
        raise ImproperlyConfigured(problem)


def require_worker_pool(*, pool: str, concurrency: int) -> None:
    """Raises ImproperlyConfigured when a worker's actual pool would starve its database pool
    (its -P and -c included)."""
    from django.conf import settings

    problem = worker_shortfall(
        databases=settings.DATABASES, worker_pool=pool, worker_concurrency=concurrency
    )
    if problem:
        raise ImproperlyConfigured(problem)


@register("pools")
def pool_fits_threads(app_configs=None, **kwargs) -> list[Warning]:
    from django.conf import settings

    found = [
        ("sagasmith.W001", web_shortfall(
            databases=settings.DATABASES, web_threads=settings.WEB_HTTP_THREADS)),
        ("sagasmith.W002", worker_shortfall(
            databases=settings.DATABASES, worker_pool=settings.CELERY_WORKER_POOL,
            worker_concurrency=settings.CELERY_WORKER_CONCURRENCY)),
    ]  # fmt: skip
    return [
        Warning(
            message,
            hint="Raise DATABASE_POOL_MAX or lower the thread count; the process refuses to "
            "start this way.",
            id=check_id,
        )
        for check_id, message in found
        if message
    ]
