"""turn_cancel acts only for a member of the job's own campaign."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import CampaignMembership
from apps.core.errors import NotFound
from apps.projections.models import OutboxEvent
from apps.quota.models import Reservation
from apps.rooms.models import Message
from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_action_submit, turn_cancel

pytestmark = pytest.mark.django_db


def test_a_gm_of_another_campaign_cannot_cancel_a_turn(
    dnd_room, make_user, django_capture_on_commit_callbacks
):
    from apps.campaigns.services.campaigns import campaign_create

    room = dnd_room
    outsider = make_user("other-gm@example.test", display_name="Olga Other")
    elsewhere = campaign_create(
        owner=outsider, name="Elsewhere", system_id="dnd5e", idempotency_key=uuid.uuid4().hex
    )
    membership = CampaignMembership.objects.select_related("campaign", "user").get(
        campaign=elsewhere, user=outsider
    )
    assert membership.role == "owner"
    with django_capture_on_commit_callbacks(execute=False):
        job, _created = turn_action_submit(
            membership=room.membership(room.player), text="roll 1d20", idempotency_key="scope"
        )
    messages, events = Message.objects.count(), OutboxEvent.objects.count()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(NotFound) as raised:
            turn_cancel(job=job, membership=membership)
    assert (raised.value.code, raised.value.message) == ("not_found", "No such turn.")
    assert callbacks == []
    job = RoomTurnJob.objects.get(pk=job.pk)
    assert (job.status, job.cancel_requested, job.finished_at) == ("queued", False, None)
    assert (Message.objects.count(), OutboxEvent.objects.count()) == (messages, events)
    assert Reservation.objects.get(pk=job.reservation_id).status == "active"


@pytest.mark.parametrize("status", ["removed", "left"])
def test_a_former_gm_cannot_cancel_a_turn(dnd_room, make_user, status):
    room = dnd_room
    former = make_user("former-gm@example.test", display_name="Fay Former")
    membership = CampaignMembership.objects.create(
        campaign=room.campaign, user=former, role="gm", status=status
    )
    job, _created = turn_action_submit(
        membership=room.membership(room.player), text="roll 1d20", idempotency_key="former"
    )
    with pytest.raises(NotFound) as raised:
        turn_cancel(job=job, membership=membership)
    assert (raised.value.code, raised.value.message) == ("not_found", "No such turn.")
    assert RoomTurnJob.objects.get(pk=job.pk).cancel_requested is False
