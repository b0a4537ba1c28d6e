"""Beat entries for the lead to merge into CELERY_BEAT_SCHEDULE."""

TURNS_BEAT_SCHEDULE = {
    # Leases are 60 s by default; a 10 s sweep notices a dead worker within a fraction of that.
    "turns-recovery-sweep": {"task": "turns.recovery_sweep", "schedule": 10.0},
}
