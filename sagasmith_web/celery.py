"""The Celery app: configured from Django settings (CELERY_*), tasks found in each app."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sagasmith_web.settings.local")

app = Celery("sagasmith_web")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _pool_fits_worker(sender=None, **kwargs) -> None:
    """Refuse to start a worker whose threads (its -P and -c included) would starve its
    database pool."""
    from django.core.exceptions import ImproperlyConfigured

    from apps.core.checks import require_worker_pool

    pool = getattr(sender, "pool_cls", "")
    name = pool if isinstance(pool, str) else f"{pool.__module__}.{pool.__name__}"
    try:
        require_worker_pool(pool=name, concurrency=int(getattr(sender, "concurrency", 0) or 0))
    except ImproperlyConfigured as exc:
        # Celery logs and swallows exceptions from signal handlers: leave outright.
        raise SystemExit(f"Worker refused to start: {exc}") from exc
