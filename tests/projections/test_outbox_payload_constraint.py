"""Outbox: the database itself refuses a payload that is not a JSON object, whatever writes the
row (a raw insert, an update, a bulk write), not only the service that emits rows."""

import pytest
from django.db import IntegrityError, connection, models, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections.models import OutboxEvent
from tests.rooms.factories import make_campaign

# None alone would be SQL NULL, which the column refuses anyway: JSON null is asked for.
NOT_OBJECTS = [
    ["not", "an", "object"],
    "text",
    3,
    2.5,
    True,
    models.Value(None, models.JSONField()),
]

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(make_user):
    owner, player = make_user(), make_user()
    campaign, _ = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign


@pytest.mark.parametrize("payload", NOT_OBJECTS)
def test_a_row_inserted_with_a_payload_that_is_not_an_object_is_refused(campaign, payload):
    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        OutboxEvent.objects.create(
            event_type="state.changed", campaign_id=campaign.id, payload=payload
        )
    assert "projections_outbox_payload_is_object" in str(raised.value)
    assert OutboxEvent.objects.count() == 0


@pytest.mark.parametrize("payload", NOT_OBJECTS)
def test_a_payload_updated_to_one_that_is_not_an_object_is_refused(campaign, payload):
    row = OutboxEvent.objects.create(
        event_type="state.changed", campaign_id=campaign.id, payload={"changed_scopes": ["card"]}
    )
    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        OutboxEvent.objects.filter(id=row.id).update(payload=payload)
    assert "projections_outbox_payload_is_object" in str(raised.value)
    assert OutboxEvent.objects.values_list("payload", flat=True).get() == {
        "changed_scopes": ["card"]
    }


def test_an_object_payload_is_stored(campaign):
    OutboxEvent.objects.bulk_create(
        [
            OutboxEvent(event_type="state.changed", campaign_id=campaign.id, payload={}),
            OutboxEvent(event_type="turn.job", campaign_id=campaign.id, payload={"id": "j"}),
        ]
    )
    assert list(OutboxEvent.objects.order_by("id").values_list("payload", flat=True)) == [
        {},
        {"id": "j"},
    ]


@pytest.mark.django_db(transaction=True)
def test_adding_the_check_keeps_earlier_rows_payloads_in_an_object_and_gives_up_pending_ones(
    campaign,
):
    executor = MigrationExecutor(connection)
    before = [("projections", "0003_outbox_room_events_index")]
    executor.migrate(before)
    try:
        OldEvent = executor.loader.project_state(before).apps.get_model(
            "projections", "OutboxEvent"
        )
        now = timezone.now()
        pending = OldEvent.objects.create(
            event_type="state.changed", campaign_id=campaign.id, payload=["a", "list"]
        )
        given_up = OldEvent.objects.create(
            event_type="turn.job", campaign_id=campaign.id, payload="text", attempts=10,
            dispatched_at=now, error="ValueError: lost",
        )  # fmt: skip
        sent = OldEvent.objects.create(
            event_type="turn.job", campaign_id=campaign.id, payload={"id": "j"}, dispatched_at=now
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    rows = OutboxEvent.objects.order_by("id").values_list(
        "id", "payload", "dispatched_at", "attempts", "error"
    )
    assert [(i, p, d is not None, a, e) for i, p, d, a, e in rows] == [
        (
            pending.id,
            {"not_an_object": ["a", "list"]},
            True,
            0,
            "ValueError: the payload is not a JSON object",
        ),
        (given_up.id, {"not_an_object": "text"}, True, 10, "ValueError: lost"),
        (sent.id, {"id": "j"}, True, 0, ""),
    ]
    assert OutboxEvent.objects.get(id=sent.id).dispatched_at == now
