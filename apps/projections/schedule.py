"""Beat entries for the lead to merge into CELERY_BEAT_SCHEDULE."""

# Hosted mode publishes right after commit; this sweep covers anything that was missed.
OUTBOX_SWEEP_SECONDS = 5.0

PROJECTIONS_BEAT_SCHEDULE = {
    "projections-outbox-sweep": {
        "task": "projections.outbox_sweep",
        "schedule": OUTBOX_SWEEP_SECONDS,
    },
}
