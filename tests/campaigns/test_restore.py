"""Restoring an archived campaign: the owner alone makes it active again."""

from __future__ import annotations

import re
from datetime import timedelta

from apps.campaigns.models import Campaign, JoinRequest
from apps.campaigns.services.campaigns import campaign_archive, campaign_restore
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import membership_change_role
from apps.core.errors import PermissionDenied
from apps.core.models import AuditEvent
from apps.projections.models import OutboxEvent
from tests.campaigns.conftest import join

FORMS = re.compile(r'action="/campaigns/[^"]+/(settings/[^"]*)"')


def _co_gm(campaign, owner, make_user):
    co_gm = make_user("cogm@example.test", display_name="Cora GM")
    join(campaign, owner, co_gm)
    membership_change_role(campaign=campaign, actor=owner, user=co_gm, role="gm")
    return co_gm


def test_the_owner_restores_an_archived_campaign_over_the_api(
    domains, api_client, campaign, gm, player
):
    join(campaign, gm, player)
    campaign_archive(campaign=campaign, actor=gm)

    api_client.force_authenticate(player)
    denied = api_client.post(f"/api/campaigns/{campaign.id}/restore")
    assert denied.status_code == 403
    assert denied.json()["error"]["message"] == "Only the campaign owner can restore it."
    assert Campaign.objects.get(pk=campaign.pk).status == "archived"

    api_client.force_authenticate(gm)
    done = api_client.post(f"/api/campaigns/{campaign.id}/restore")
    assert done.status_code == 200
    assert (done.json()["status"], done.json()["role"]) == ("active", "owner")
    again = api_client.post(f"/api/campaigns/{campaign.id}/restore")
    assert again.status_code == 200
    assert AuditEvent.objects.filter(action="campaign.restore").count() == 1
    restored = Campaign.objects.get(pk=campaign.pk)
    assert (restored.status, restored.archived_at) == ("active", None)
    # Writes are taken again.
    invite = api_client.post(
        f"/api/campaigns/{campaign.id}/invites",
        {"mode": "request", "expires_in_hours": 1, "max_uses": 1}, format="json",
    )  # fmt: skip
    assert invite.status_code == 201


def test_restoring_tells_every_members_open_room_to_read_its_access_again(
    domains, campaign, gm, player
):
    join(campaign, gm, player)
    campaign_archive(campaign=campaign, actor=gm)
    version = Campaign.objects.get(pk=campaign.pk).access_version
    seen = set(OutboxEvent.objects.values_list("pk", flat=True))

    campaign_restore(campaign=campaign, actor=gm)

    assert Campaign.objects.get(pk=campaign.pk).access_version == version + 1
    [event] = OutboxEvent.objects.exclude(pk__in=seen)
    assert event.event_type == "access.revoked"
    assert event.payload == {"reason": "restored"}
    assert sorted(event.audience["users"]) == sorted([str(gm.id), str(player.id)])


def test_a_gm_who_is_not_the_owner_cannot_restore(domains, campaign, gm, player, make_user):
    co_gm = _co_gm(campaign, gm, make_user)
    campaign_archive(campaign=campaign, actor=gm)
    try:
        campaign_restore(campaign=campaign, actor=co_gm)
    except PermissionDenied as refused:
        assert refused.message == "Only the campaign owner can restore it."
    else:
        raise AssertionError("a GM who is not the owner restored the campaign")
    assert Campaign.objects.get(pk=campaign.pk).status == "archived"


def test_an_unexpired_invite_link_works_again_once_the_campaign_is_restored(
    domains, campaign, gm, player
):
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    campaign_archive(campaign=campaign, actor=gm)
    campaign_restore(campaign=campaign, actor=gm)

    outcome = invite_accept(token=token, user=player)

    assert JoinRequest.objects.get(pk=outcome.join_request.pk).status == "pending"


def test_the_settings_of_an_archived_campaign_offer_its_owner_a_restore(
    domains, client, campaign, gm, player, make_user
):
    co_gm = _co_gm(campaign, gm, make_user)
    campaign_archive(campaign=campaign, actor=gm)

    client.force_login(co_gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert FORMS.findall(html) == []
    assert "Only the owner can restore it." in html

    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert FORMS.findall(html) == ["settings/restore"]
    assert (
        'data-confirm="Restore The Sunless Citadel? Members can play again, and invite links '
        'that have not expired work again."' in html
    )

    response = client.post(f"/campaigns/{campaign.id}/settings/restore", follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
    assert [str(m) for m in response.context["messages"]] == ["Campaign restored."]
    assert Campaign.objects.get(pk=campaign.pk).status == "active"
    assert "settings/archive" in FORMS.findall(response.content.decode())


def test_a_gm_posting_a_restore_is_told_only_the_owner_can(
    domains, client, campaign, gm, make_user
):
    co_gm = _co_gm(campaign, gm, make_user)
    campaign_archive(campaign=campaign, actor=gm)
    client.force_login(co_gm)

    response = client.post(f"/campaigns/{campaign.id}/settings/restore", follow=True)

    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
    assert Campaign.objects.get(pk=campaign.pk).status == "archived"
    assert len(response.context["messages"]) == 1


ARCHIVED_LINK = "The link works again if the campaign's owner restores it before the link expires."


def test_an_archived_campaigns_invite_link_says_when_it_works_again(
    domains, api_client, campaign, gm, player
):
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    campaign_archive(campaign=campaign, actor=gm)
    api_client.force_authenticate(player)

    refused = api_client.post("/api/invites/accept", {"token": token}, format="json")

    assert refused.status_code == 409
    error = refused.json()["error"]
    assert (error["code"], error["message"], error["recovery"]) == (
        "campaign_archived",
        "This campaign is archived.",
        ARCHIVED_LINK,
    )
