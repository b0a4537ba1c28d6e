"""Outbox: a row's payload is a JSON object, refused at emit time otherwise (not found out at
publication, where the row would fail every attempt and be given up)."""

import pytest

from apps.campaigns.models import CampaignMembership
from apps.core.errors import ValidationFailed
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_emit, outbox_event_new
from tests.rooms.factories import make_campaign

NOT_OBJECTS = [
    (["not", "an", "object"], "an array"),
    ("text", "a string"),
    (3, "a number"),
    (True, "a boolean"),
    (None, "null"),
]


@pytest.fixture
def campaign(make_user):
    owner, player = make_user(), make_user()
    campaign, _ = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign


@pytest.mark.django_db
@pytest.mark.parametrize(("payload", "kind"), NOT_OBJECTS)
@pytest.mark.parametrize("event_type", ["state.changed", "room.entry", "access.revoked"])
def test_emitting_a_payload_that_is_not_an_object_is_refused_and_nothing_written(
    campaign, event_type, payload, kind
):
    with pytest.raises(ValidationFailed) as raised:
        outbox_emit(event_type=event_type, campaign_id=campaign.id, payload=payload)
    assert (raised.value.code, raised.value.message) == (
        "invalid_payload",
        f"An outbox payload is a JSON object, not {kind}.",
    )
    assert OutboxEvent.objects.count() == 0


@pytest.mark.parametrize(("payload", "kind"), NOT_OBJECTS)
def test_a_row_built_for_a_single_statement_insert_refuses_a_payload_that_is_not_an_object(
    payload, kind
):
    with pytest.raises(ValidationFailed) as raised:
        outbox_event_new(
            event_type="turn.job",
            campaign_id="6c12532c-5db2-443a-bbc3-a8f8f3559778",
            payload=payload,
        )
    assert (raised.value.code, raised.value.message) == (
        "invalid_payload",
        f"An outbox payload is a JSON object, not {kind}.",
    )


@pytest.mark.django_db
def test_an_object_payload_is_written_as_given(campaign):
    event = outbox_emit(
        event_type="room.entry", campaign_id=campaign.id, payload={"body": "hi", "n": [1, 2]}
    )
    assert OutboxEvent.objects.get().payload == {"body": "hi", "n": [1, 2]}
    assert event.payload == {"body": "hi", "n": [1, 2]}
