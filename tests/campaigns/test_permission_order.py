"""The caller's role is checked before anything the request names or sends: a player is
refused the same way whatever the ids and body."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages

from apps.campaigns.models import CampaignInvite, CampaignMembership, JoinRequest
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import membership_change_role
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

REFUSED = "Only the campaign owner or a GM can do that."


def test_a_player_deciding_a_join_request_is_refused_alike_for_any_id_or_body(
    domains, api_client, campaign, gm, player, make_user
):
    join(campaign, gm, player)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    waiting = invite_accept(token=token, user=make_user("other@example.test")).join_request
    api_client.force_authenticate(player)
    base = f"/api/campaigns/{campaign.id}/join-requests"
    answers = [
        api_client.post(f"{base}/{request_id}/decision", body, format="json")
        for request_id in (waiting.id, uuid.uuid4())
        for body in ({"decision": "approve"}, {"decision": "maybe"}, {})
    ]
    assert [a.status_code for a in answers] == [403] * 6
    assert {(a.json()["error"]["code"], a.json()["error"]["message"]) for a in answers} == {
        ("permission_denied", REFUSED)
    }
    assert JoinRequest.objects.get(pk=waiting.pk).status == "pending"


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "request", "role": "player", "expires_in_hours": 24, "max_uses": 5},
        {"mode": "request", "role": "player", "expires_in_hours": 0, "max_uses": 5},
        {},
    ],
)
def test_a_player_posting_the_invite_form_is_told_only_the_owner_or_a_gm_can(
    domains, client, campaign, gm, player, body
):
    join(campaign, gm, player)
    client.force_login(player)
    response = client.post(f"/campaigns/{campaign.id}/settings/invites", body)
    assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
    assert CampaignInvite.objects.count() == 1  # only the one join() used


def test_a_gm_changing_a_role_is_refused_alike_for_any_user_id_or_body(
    domains, api_client, campaign, gm, player, make_user
):
    co_gm = make_user("co-gm@example.test")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    join(campaign, gm, player)
    api_client.force_authenticate(co_gm)
    base = f"/api/campaigns/{campaign.id}/members"
    answers = [
        api_client.patch(f"{base}/{user_id}/role", body, format="json")
        for user_id in (player.pk, uuid.uuid4())
        for body in ({"role": "observer"}, {"role": "owner"}, {})
    ]
    assert [a.status_code for a in answers] == [403] * 6
    assert {(a.json()["error"]["code"], a.json()["error"]["message"]) for a in answers} == {
        ("permission_denied", "Only the campaign owner can do that.")
    }
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "player"


def test_a_player_removing_someone_is_refused_alike_for_any_user_id(
    domains, api_client, campaign, gm, player, make_user
):
    other = make_user("other@example.test")
    join(campaign, gm, other)
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    base = f"/api/campaigns/{campaign.id}/members"
    answers = [
        api_client.delete(f"{base}/{user_id}") for user_id in (other.pk, gm.pk, uuid.uuid4())
    ]
    assert [a.status_code for a in answers] == [403] * 3
    assert {(a.json()["error"]["code"], a.json()["error"]["message"]) for a in answers} == {
        ("permission_denied", REFUSED)
    }
    assert CampaignMembership.objects.get(campaign=campaign, user=other).status == "active"


def test_a_player_revoking_an_invite_on_the_settings_page_is_refused_alike_for_any_id(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    invite, _token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    client.force_login(player)
    for invite_id in (invite.id, uuid.uuid4()):
        response = client.post(f"/campaigns/{campaign.id}/settings/invites/{invite_id}/revoke")
        assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
        assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
        client.get(f"/campaigns/{campaign.id}/")  # shows (and so clears) the message
    invite.refresh_from_db()
    assert invite.revoked_at is None


def test_a_player_deciding_a_join_request_on_the_settings_page_is_refused_alike_for_any_id(
    domains, client, campaign, gm, player, make_user
):
    join(campaign, gm, player)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    waiting = invite_accept(token=token, user=make_user("other@example.test")).join_request
    client.force_login(player)
    for request_id in (waiting.id, uuid.uuid4()):
        response = client.post(
            f"/campaigns/{campaign.id}/settings/join-requests/{request_id}/decide",
            {"decision": "approve"},
        )
        assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
        assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
        client.get(f"/campaigns/{campaign.id}/")  # shows (and so clears) the message
    assert JoinRequest.objects.get(pk=waiting.pk).status == "pending"


def test_a_gm_changing_a_role_on_the_settings_page_is_refused_alike_for_any_user_id(
    domains, client, campaign, gm, player, make_user
):
    co_gm = make_user("co-gm@example.test")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    join(campaign, gm, player)
    client.force_login(co_gm)
    for user_id in (player.pk, uuid.uuid4()):
        response = client.post(
            f"/campaigns/{campaign.id}/settings/members/{user_id}/role", {"role": "observer"}
        )
        assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
        assert [str(m) for m in get_messages(response.wsgi_request)] == [
            "Only the campaign owner can do that."
        ]
        client.get(f"/campaigns/{campaign.id}/")  # shows (and so clears) the message
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "player"


def test_a_player_removing_someone_on_the_settings_page_is_refused_alike_for_any_user_id(
    domains, client, campaign, gm, player, make_user
):
    other = make_user("other@example.test")
    join(campaign, gm, other)
    join(campaign, gm, player)
    client.force_login(player)
    for user_id in (other.pk, uuid.uuid4()):
        response = client.post(f"/campaigns/{campaign.id}/settings/members/{user_id}/remove")
        assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
        assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
        client.get(f"/campaigns/{campaign.id}/")  # shows (and so clears) the message
    assert CampaignMembership.objects.get(campaign=campaign, user=other).status == "active"


def test_a_player_binding_a_character_is_refused_alike_for_any_user_id_or_body(
    domains, api_client, campaign, gm, player
):
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    base = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings"
    answers = [
        call(f"{base}/{user_id}", body, format="json")
        for user_id in (player.pk, uuid.uuid4())
        for call, body in (
            (api_client.put, {"can_control": True}),
            (api_client.put, {"can_control": "maybe"}),
            (api_client.delete, None),
        )
    ]
    assert [a.status_code for a in answers] == [403] * 6
    assert {(a.json()["error"]["code"], a.json()["error"]["message"]) for a in answers} == {
        ("permission_denied", REFUSED)
    }


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("bindings", {"user_id": "", "character_id": ""}),
        ("bindings", {"user_id": str(uuid.UUID(int=7)), "character_id": "pc-1"}),
        ("bindings/remove", {"user_id": "not-an-id", "character_id": "pc-1"}),
        ("bindings/remove", {"user_id": str(uuid.UUID(int=7)), "character_id": "pc-1"}),
    ],
)
def test_a_player_posting_a_binding_form_is_told_only_the_owner_or_a_gm_can(
    domains, client, campaign, gm, player, path, body
):
    join(campaign, gm, player)
    client.force_login(player)
    response = client.post(f"/campaigns/{campaign.id}/settings/{path}", body)
    assert (response.status_code, response.url) == (302, f"/campaigns/{campaign.id}/settings")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [REFUSED]
