"""A turn that changed the phase, published while the domain could not be read: the campaign's
phase is read again after commit instead of staying what it was until the next phase change."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.domains.errors import DomainUnavailable
from apps.projections.models import OutboxEvent
from apps.turns.services import turn_action_submit, turn_run

pytestmark = pytest.mark.django_db


def start_combat_with_the_campaign_unreadable(room, monkeypatch, capture):
    """The GM starts combat; every `campaign_get` read of the publication fails."""
    import apps.turns.projections as projections

    real = projections._read

    def read(campaign, panel, requester):
        if panel.read_tool == "campaign_get":
            return None  # as a passing fault reads
        return real(campaign, panel, requester)

    monkeypatch.setattr(projections, "_read", read)
    with capture(execute=False):
        job, _ = turn_action_submit(
            membership=room.membership(room.gm), text="start combat with a goblin",
            idempotency_key="start",
        )  # fmt: skip
    with capture(execute=True) as callbacks:
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    monkeypatch.setattr(projections, "_read", real)
    return callbacks


def test_a_phase_the_publication_could_not_read_is_read_again_after_commit(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    start_combat_with_the_campaign_unreadable(room, monkeypatch, django_capture_on_commit_callbacks)
    campaign = Campaign.objects.get(pk=room.campaign.pk)
    assert (campaign.phase, campaign.authority_revision) == ("combat", room.domain_revision())
    # The room's panels are told the phase changed.
    last = OutboxEvent.objects.filter(event_type="state.changed").order_by("id").last()
    assert "phase" in last.payload["changed_scopes"]
    assert last.payload["authority_revision"] == campaign.authority_revision


def test_a_reread_that_finds_the_domain_down_tries_again_later(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    from apps.campaigns import tasks

    room = dnd_room
    calls = []

    def down(*, campaign, requester):
        calls.append((campaign.pk, requester.pk))
        raise DomainUnavailable("The rules server is down.")

    monkeypatch.setattr(tasks, "campaign_refresh", down)
    retried = []
    monkeypatch.setattr(
        tasks.campaign_reread, "retry", lambda **kw: retried.append(kw) or RuntimeError("retry")
    )
    with pytest.raises(RuntimeError, match="retry"):
        tasks.campaign_reread.run(str(room.campaign.pk))
    assert calls == [(room.campaign.pk, room.gm.pk)]
    assert [type(kw["exc"]) for kw in retried] == [DomainUnavailable]
