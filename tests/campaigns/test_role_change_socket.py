"""A role change reaches open room sockets: a GM demoted to player stops receiving GM-only
entries at once, without reconnecting."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.campaigns.services.membership import membership_change_role
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_dispatch_pending
from apps.rooms.services import room_message_post
from tests.campaigns.conftest import join
from tests.rooms.factories import ORIGIN, WebsocketCommunicator, socket_app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(domains, campaign, gm, make_user):
    co = make_user("co@example.test")
    join(campaign, gm, co)
    membership_change_role(campaign=campaign, actor=gm, user=co, role="gm")
    # Announcements from before any socket opened are not part of this story.
    OutboxEvent.objects.update(dispatched_at=timezone.now())
    owner = CampaignMembership.objects.select_related("user").get(campaign=campaign, user=gm)
    return campaign, owner, co


@database_sync_to_async
def post(membership, body, audience="public"):
    room_message_post(
        membership=membership, body=body, mode="chat", client_message_id=body, audience=audience
    )


@database_sync_to_async
def publish():
    return outbox_dispatch_pending()


async def next_entry(comm):
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "entry":
            return frame["entry"]


async def test_demoted_gm_stops_receiving_gm_entries_at_once(memory_layer, table):
    campaign, owner, co = table
    comm = WebsocketCommunicator(socket_app(), f"/ws/rooms/{campaign.id}/", headers=[ORIGIN])
    comm.scope["user"] = co
    assert (await comm.connect())[0]
    hello = await comm.receive_json_from(timeout=3)
    assert (hello["type"], hello["role"]) == ("hello", "gm")

    await post(owner, "gm eyes only", audience="gm")
    await publish()
    seen = await next_entry(comm)
    assert (seen["sequence"], seen["body"]) == (1, "gm eyes only")

    await database_sync_to_async(membership_change_role)(
        campaign=campaign, actor=owner.user, user=co, role="player"
    )
    await post(owner, "still gm only", audience="gm")
    await post(owner, "for everyone")
    published = await publish()
    seen = await next_entry(comm)
    assert (seen["sequence"], seen["body"]) == (3, "for everyone")
    assert published == 3  # the role change, then both entries, in order
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


async def next_of_type(comm, kind):
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == kind:
            return frame


async def test_the_page_is_told_of_a_new_role_and_of_archiving(memory_layer, table):
    from apps.campaigns.services.campaigns import campaign_archive

    campaign, owner, co = table
    comm = WebsocketCommunicator(socket_app(), f"/ws/rooms/{campaign.id}/", headers=[ORIGIN])
    comm.scope["user"] = co
    assert (await comm.connect())[0]
    await next_of_type(comm, "caught_up")
    await database_sync_to_async(membership_change_role)(
        campaign=campaign, actor=owner.user, user=co, role="observer"
    )
    await publish()
    changed = await next_of_type(comm, "access.changed")
    assert changed == {"type": "access.changed", "role": "observer", "archived": False}

    await database_sync_to_async(campaign_archive)(campaign=campaign, actor=owner.user)
    event = await database_sync_to_async(OutboxEvent.objects.get)(payload__reason="archived")
    assert sorted(event.audience["users"]) == sorted([str(owner.user_id), str(co.id)])
    await publish()
    archived = await next_of_type(comm, "access.changed")
    assert archived == {"type": "access.changed", "role": "observer", "archived": True}
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()
