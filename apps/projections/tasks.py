from datetime import timedelta

from celery import shared_task

from .services import outbox_dispatch, outbox_prune


@shared_task(name="projections.outbox_sweep", ignore_result=True, time_limit=60)
def outbox_sweep() -> int:
    """Publish rows whose after-commit publication never happened (crash, broker blip)."""
    sent = 0
    # Rows younger than a second are still being published by their own process.
    while batch := outbox_dispatch(older_than=timedelta(seconds=1)):
        sent += batch
    outbox_prune()
    return sent
