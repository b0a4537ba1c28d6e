"""The outbox sweep's cadence is said once: beat queues it at that interval, and a queued sweep
expires after the same time (one still waiting when the next is due adds nothing)."""

from django.conf import settings

from apps.projections.schedule import OUTBOX_SWEEP_SECONDS, PROJECTIONS_BEAT_SCHEDULE
from apps.projections.tasks import outbox_sweep


def test_the_beat_schedule_and_a_queued_sweeps_expiry_share_one_cadence(monkeypatch):
    sent = []
    monkeypatch.setattr(
        outbox_sweep.app, "send_task", lambda name, *args, **options: sent.append((name, options))
    )
    outbox_sweep.apply_async()
    entry = {"task": "projections.outbox_sweep", "schedule": OUTBOX_SWEEP_SECONDS}
    assert PROJECTIONS_BEAT_SCHEDULE == {"projections-outbox-sweep": entry}
    assert settings.CELERY_BEAT_SCHEDULE["projections-outbox-sweep"] == entry
    assert [(name, options["expires"]) for name, options in sent] == [
        ("projections.outbox_sweep", OUTBOX_SWEEP_SECONDS)
    ]
