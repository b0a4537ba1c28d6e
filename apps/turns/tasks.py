"""Thin Celery tasks: ids in, one service call, explicit time limits."""

from __future__ import annotations

from celery import shared_task

# A turn is at most 8 tool calls plus the agent's own time. The thread pool (the default) does
# not enforce these limits: the turn stops itself before a tool call past conf.run_seconds().
RUN_TIME_LIMIT = 300
BUSY_RETRY_SECONDS = 1.0


@shared_task(name="turns.run_turn", time_limit=RUN_TIME_LIMIT, soft_time_limit=RUN_TIME_LIMIT - 30,
             acks_late=True, reject_on_worker_lost=True, ignore_result=True)  # fmt: skip
def run_turn(job_id: str) -> str:
    from apps.turns.services import turn_run
    from apps.turns.services.jobs import enqueue_run

    # Celery's Django fixup closes stale connections around each task in a worker.
    outcome = turn_run(job_id=job_id)
    if outcome == "busy":
        # The room is at its concurrency limit: try again shortly (claiming is conditional).
        enqueue_run(job_id, countdown=BUSY_RETRY_SECONDS)
    return outcome


@shared_task(name="turns.recovery_sweep", time_limit=120, soft_time_limit=100, ignore_result=True)
def recovery_sweep() -> dict[str, int]:
    from apps.turns.services import turn_recovery_sweep

    return turn_recovery_sweep()
