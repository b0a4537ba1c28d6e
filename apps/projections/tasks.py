from datetime import timedelta

from celery import shared_task

from .dispatch import reaches_sockets
from .services import outbox_dispatch_pending, outbox_prune


@shared_task(name="projections.outbox_sweep", ignore_result=True, time_limit=60)
def outbox_sweep() -> int:
    """Publish rows whose after-commit publication never happened (crash, broker blip)."""
    sent = 0
    # Embedded mode: only the web process's poller reaches the sockets; rows published from
    # here would be marked dispatched unseen.
    if reaches_sockets():
        # Rows younger than a second are still being published by their own process.
        sent = outbox_dispatch_pending(older_than=timedelta(seconds=1))
    outbox_prune()
    return sent
