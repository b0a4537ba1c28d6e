"""Small helpers shared by the room tests."""

from __future__ import annotations

import json
from urllib.parse import unquote, urlparse

from asgiref.testing import ApplicationCommunicator
from channels.routing import URLRouter
from django.db import transaction
from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignMembership
from apps.campaigns.services.access import member_access_changed
from apps.rooms.routing import websocket_urlpatterns

ORIGIN = (b"origin", b"http://testserver")


def make_campaign(owner, *members):
    """Create a campaign owned by `owner`; `members` are (user, role) pairs."""
    campaign = Campaign.objects.create(name="The Sunless Citadel", system_id="dnd5e", owner=owner)
    memberships = [
        CampaignMembership.objects.create(
            campaign=campaign, user=owner, role=CampaignMembership.Role.OWNER
        )
    ]
    for user, role in members:
        memberships.append(
            CampaignMembership.objects.create(campaign=campaign, user=user, role=role)
        )
    return campaign, memberships


def remove_member(membership):
    """What campaigns' membership_remove does for the room: status + outbox in one transaction."""
    with transaction.atomic():
        CampaignMembership.objects.filter(pk=membership.pk).update(
            status=CampaignMembership.Status.REMOVED, removed_at=timezone.now()
        )
        member_access_changed(
            campaign_id=membership.campaign_id, user=membership.user, reason="removed"
        )


def change_role(membership, role):
    """What campaigns' membership_change_role does for the room."""
    with transaction.atomic():
        CampaignMembership.objects.filter(pk=membership.pk).update(role=role)
        member_access_changed(
            campaign_id=membership.campaign_id, user=membership.user, reason="role_changed"
        )


def socket_app():
    """The room websocket routes without session/origin middleware; tests set scope["user"]."""
    return URLRouter(websocket_urlpatterns)


class WebsocketCommunicator(ApplicationCommunicator):
    """channels.testing.WebsocketCommunicator without its package import, which pulls in daphne
    (channels.testing.live) — not a dependency here."""

    def __init__(self, application, path, headers=None):
        parsed = urlparse(path)
        self.scope = {
            "type": "websocket",
            "path": unquote(parsed.path),
            "query_string": parsed.query.encode("utf-8"),
            "headers": headers or [],
            "subprotocols": [],
        }
        super().__init__(application, self.scope)
        self.response_headers = None

    async def connect(self, timeout=3):
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(timeout)
        if response["type"] == "websocket.close":
            return (False, response.get("code", 1000))
        self.response_headers = response.get("headers", [])
        return (True, response.get("subprotocol", None))

    async def receive_json_from(self, timeout=3):
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.send", response
        return json.loads(response["text"])

    async def disconnect(self, code=1000, timeout=3):
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)
