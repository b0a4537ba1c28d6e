"""Outbox on Redis: a Redis that is up but refuses every command for a while (busy in a script,
loading, a replica cut off from its master, out of memory for a layer whose sends write) fails
the layer, not the row: as when it cannot be reached, a pass ends at the row in hand."""

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from redis._parsers.base import BaseParser

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.dispatch import publisher
from apps.projections.models import ACCESS_REVOKED, ROOM_ENTRY, OutboxEvent
from apps.projections.services import outbox_dispatch_pending
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox_stalled_layer import written_unpublished
from tests.projections.test_outbox_sweep_layer_outage import charged, pending_rows
from tests.rooms.factories import make_campaign

BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."


@pytest.fixture
def campaign(make_user):
    return make_campaign(make_user())[0]


def attempts():
    return list(OutboxEvent.objects.order_by("id").values_list("attempts", "error"))


@pytest.mark.django_db(transaction=True)
def test_a_sweep_meeting_a_redis_busy_in_a_script_charges_one_row_not_every_row(
    campaign, private_redis
):
    ids = pending_rows(campaign, 3)
    private_redis.busy()

    assert outbox_sweep() == 0
    assert attempts() == [(1, ""), (0, ""), (0, "")]

    private_redis.script_kill()
    assert outbox_sweep() == 3
    assert OutboxEvent.objects.filter(id__in=ids, dispatched_at__isnull=True).count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_redis_busy_in_a_script_holds_back_the_after_commit_batch_with_one_warning(
    make_user, private_redis, caplog
):
    owner = make_campaign(make_user(), (make_user(), CampaignMembership.Role.PLAYER))[1][0]
    rows = written_unpublished(owner, "one", "two", "three")
    private_redis.busy()
    with caplog.at_level(logging.WARNING, logger="apps.projections.dispatch"):
        publisher.submit(rows)  # one batch
        deadline = time.monotonic() + 10
        while publisher.in_flight() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # room for a second notice, which must not come
    assert publisher.in_flight() == set()
    assert attempts() == [(0, "")] * 3
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            f"Outbox publication of #{rows[0].id} failed; it and the 2 row(s) after it stay "
            f"pending for the sweep: ResponseError: {BUSY}",
        )
    ]


@pytest.mark.parametrize(
    "reply",
    [
        BUSY,
        "LOADING Redis is loading the dataset in memory",
        "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
        "READONLY You can't write against a read only replica.",
        "OOM command not allowed when used memory > 'maxmemory'.",
        "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to "
        "persist to disk.",
        "NOREPLICAS Not enough good replicas to write.",
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_pass_ends_at_a_reply_that_refuses_every_command_charging_one_row(
    campaign, redis_layer, monkeypatch, reply
):
    ids = pending_rows(campaign, 3)
    refusal = BaseParser.parse_error(reply)  # what redis-py raises for that reply

    async def refused(events):
        raise refusal

    monkeypatch.setattr(dispatch, "publish_events", refused)
    assert outbox_dispatch_pending(older_than=timedelta(seconds=1)) == 0
    assert charged() == {ids[0]: 1}


@pytest.mark.django_db(transaction=True)
def test_a_reply_about_the_row_itself_charges_that_row_and_the_pass_goes_on(
    campaign, redis_layer, monkeypatch
):
    ids = pending_rows(campaign, 3)
    real = dispatch.publish_events

    async def first_row_refused(events):
        if events[0].id == ids[0]:
            raise BaseParser.parse_error("ERR Protocol error: invalid bulk length")
        await real(events)

    monkeypatch.setattr(dispatch, "publish_events", first_row_refused)
    assert outbox_dispatch_pending(older_than=timedelta(seconds=1)) == 2
    assert charged() == {ids[0]: 1}


@pytest.mark.django_db(transaction=True)
def test_a_redis_that_denies_publishing_to_one_group_charges_its_rows_and_publishes_the_rest(
    campaign, private_redis
):
    """A permission is per channel (Redis ACLs name them), so a denial is the row's: it holds
    back none of the rows after it."""
    private_redis.client.execute_command(
        "ACL", "SETUSER", "default", "resetchannels", "&*__group__rooms.campaign.*"
    )
    denied, *entries = OutboxEvent.objects.bulk_create(
        [
            OutboxEvent(
                event_type=ACCESS_REVOKED, campaign_id=campaign.id, payload={},
                audience={"users": [str(campaign.owner_id)]},
            ),
            *(
                OutboxEvent(
                    event_type=ROOM_ENTRY, campaign_id=campaign.id, payload={"body": body},
                    audience="public",
                )
                for body in ("one", "two")
            ),
        ]
    )  # fmt: skip
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))

    assert outbox_sweep() == 2
    rows = OutboxEvent.objects.order_by("id").values_list("id", "dispatched_at", "attempts")
    assert [(i, d is not None, a) for i, d, a in rows] == [
        (denied.id, False, 1),
        (entries[0].id, True, 0),
        (entries[1].id, True, 0),
    ]
