"""Outbox: a room event that is given up (a state or job change, never sent) is replaced by a
content-free `state.changed` to the same audience, so open pages read their panels again instead
of showing what it announced until some later event. Entries and access news need none."""

import asyncio
import logging
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.groups import room_group, user_group
from apps.projections.models import OutboxEvent
from apps.projections.services import OUTBOX_MAX_ATTEMPTS, outbox_dispatch_pending, outbox_emit
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox import listen, post
from tests.rooms.factories import make_campaign

# JSON holds any integer; the hosted layer's encoding (msgpack) only 64-bit ones.
UNSENDABLE = 2**70


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign, ms[0], ms[1]


@pytest.mark.django_db(transaction=True)
async def test_a_given_up_job_event_tells_its_audience_to_read_their_panels_again(
    table, redis_layer, monkeypatch, caplog
):
    campaign, owner, player = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep
    layer, channel = await listen(room_group(campaign.id))

    def arrange():
        event = outbox_emit(
            event_type="turn.job",
            campaign_id=campaign.id,
            payload={"id": "job-1", "status": "succeeded", "tokens": UNSENDABLE},
            audience={"users": [str(player.user_id)]},
        )
        OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
        return event

    event = await database_sync_to_async(arrange)()
    for _ in range(OUTBOX_MAX_ATTEMPTS - 1):
        assert await database_sync_to_async(outbox_sweep)() == 0
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="apps.projections.services"):
        assert await database_sync_to_async(outbox_sweep)() == 0
    message = await asyncio.wait_for(layer.receive(channel), timeout=3)
    assert message == {
        "type": "outbox.event",
        "event_type": "state.changed",
        "outbox_id": event.id,
        "payload": {"given_up": "turn.job"},
        "audience": {"users": [str(player.user_id)]},
        "access_version": event.payload["access_version"],
    }
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "ERROR",
            f"Outbox row #{event.id} given up after {OUTBOX_MAX_ATTEMPTS} attempts: "
            "OverflowError: Integer value out of range",
        ),
        (
            "INFO",
            f"Outbox row #{event.id} (turn.job) replaced by a state.changed notice to its audience",
        ),
    ]


@pytest.mark.django_db(transaction=True)
async def test_a_given_up_entry_or_access_news_sends_no_notice(table, memory_layer, monkeypatch):
    """A socket reads a missed entry at the next one's gap, and its access at each heartbeat."""
    campaign, owner, player = table
    layer, channel = await listen(room_group(campaign.id), user_group(player.user_id))

    def arrange():
        monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
        post(owner, "lost")
        outbox_emit(
            event_type="access.revoked",
            campaign_id=campaign.id,
            payload={"reason": "removed"},
            audience={"users": [str(player.user_id)]},
        )
        messages_for = dispatch._messages_for

        def failing(event):
            if event.event_type != "state.changed":
                raise RuntimeError("cannot be sent")
            return messages_for(event)

        monkeypatch.setattr(dispatch, "_messages_for", failing)
        for _ in range(OUTBOX_MAX_ATTEMPTS):
            assert outbox_dispatch_pending() == 0
        return list(OutboxEvent.objects.order_by("id").values_list("event_type", "error"))

    assert await database_sync_to_async(arrange)() == [
        ("room.entry", "RuntimeError: cannot be sent"),
        ("access.revoked", "RuntimeError: cannot be sent"),
    ]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=0.3)
