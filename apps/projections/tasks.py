import logging
import time
from datetime import timedelta

from celery import shared_task
from django.core.cache import cache

from .dispatch import reaches_sockets
from .schedule import OUTBOX_SWEEP_SECONDS
from .services import outbox_dispatch_pending, outbox_prune

logger = logging.getLogger(__name__)

SWEEP_TIME_LIMIT = 60
# A pass starts no row past this, nor a notice for a row it gave up: the batch then being sent
# ends within PUBLISH_TIMEOUT, its notices included, leaving the prune and the lock's release well
# inside the hard limit, which would kill the worker process. Rows not reached wait for the next
# sweep.
SWEEP_BUDGET = 30.0
# Beat queues a sweep at this cadence: one still queued when the next is due adds nothing, and a
# backlog run back to back after a worker outage would spend a failing row's attempts in a
# moment instead of spacing them.
SWEEP_EXPIRES = OUTBOX_SWEEP_SECONDS
# Held while a sweep runs; it lapses with the time limit if the worker is killed meanwhile.
SWEEP_LOCK = "projections:outbox-sweep"


@shared_task(
    name="projections.outbox_sweep", ignore_result=True, time_limit=SWEEP_TIME_LIMIT,
    expires=SWEEP_EXPIRES,
)  # fmt: skip
def outbox_sweep() -> int:
    """Publish rows whose after-commit publication never happened (crash, broker blip)."""
    deadline = time.monotonic() + SWEEP_BUDGET
    # One sweep at a time: a second one, started while the first waits on a slow layer, would
    # send the same rows again and charge their failures twice.
    if not cache.add(SWEEP_LOCK, True, timeout=SWEEP_TIME_LIMIT):
        return 0
    try:
        sent = 0
        # Embedded mode: only the web process's poller reaches the sockets; rows published
        # from here would be marked dispatched unseen.
        if reaches_sockets():
            # Rows younger than a second are still being published by their own process.
            sent = outbox_dispatch_pending(older_than=timedelta(seconds=1), deadline=deadline)
            if sent:
                # Each process publishes its rows right after commit: these missed that.
                logger.warning(
                    "Outbox sweep published %d row(s) left pending after their commit", sent
                )
        outbox_prune()
    finally:
        cache.delete(SWEEP_LOCK)
    return sent
