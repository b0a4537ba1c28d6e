"""Settings that only fail under load: threads that share a process's connection pool must leave
it room, or their queries wait out DATABASE_POOL_TIMEOUT and fail. Production settings refuse to
start on these; elsewhere they are system checks (manage.py check, migrate)."""

from __future__ import annotations

from typing import Any

from django.core.checks import Error, register


def pool_shortfalls(
    *, databases: dict[str, Any], web_threads: int, worker_pool: str, worker_concurrency: int
) -> list[tuple[str, str]]:
    """(check id, message) for each thread count the default database's pool cannot serve."""
    pool = (databases["default"].get("OPTIONS") or {}).get("pool")
    if not isinstance(pool, dict):
        return []
    pool_max = int(pool.get("max_size", 0))
    found = []
    if web_threads >= pool_max:
        found.append((
            "sagasmith.E001",
            f"WEB_HTTP_THREADS ({web_threads}) must be below DATABASE_POOL_MAX ({pool_max}): "
            "the room sockets' queries share the web process's pool",
        ))  # fmt: skip
    if worker_pool == "threads" and worker_concurrency * 2 > pool_max:
        found.append((
            "sagasmith.E002",
            f"CELERY_WORKER_CONCURRENCY ({worker_concurrency}) needs {worker_concurrency * 2} "
            f"pooled connections (a turn and its heartbeat each), more than DATABASE_POOL_MAX "
            f"({pool_max})",
        ))  # fmt: skip
    return found


@register("pools")
def pool_fits_threads(app_configs=None, **kwargs) -> list[Error]:
    from django.conf import settings

    return [
        Error(message, hint="Raise DATABASE_POOL_MAX or lower the thread count.", id=check_id)
        for check_id, message in pool_shortfalls(
            databases=settings.DATABASES,
            web_threads=settings.WEB_HTTP_THREADS,
            worker_pool=settings.CELERY_WORKER_POOL,
            worker_concurrency=settings.CELERY_WORKER_CONCURRENCY,
        )
    ]
