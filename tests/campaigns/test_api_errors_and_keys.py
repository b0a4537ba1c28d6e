"""Campaign API: what a lookup that finds nothing names, invite creation under an
Idempotency-Key (the link is never stored), and narrative tags sent as a JSON list."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import override_settings

from apps.campaigns.models import ActorBinding, CampaignInvite, JoinRequest
from apps.core.models import IdempotencyRecord
from apps.domains.client import domain_call, domain_connections_close
from domain_servers.common.testing import HttpServerProcess
from tests.campaigns.conftest import join
from tests.domains.conftest import domains_setting

pytestmark = pytest.mark.django_db

ENVELOPE_KEYS = {"code", "message", "retryable", "recovery", "details"}
INVITE = {"mode": "request", "expires_in_hours": 24, "max_uses": 5}
LINK_SHOWN_ONCE = (
    "The invite link was shown once, when the invite was created, and is not stored. If it "
    "was lost, revoke this invite and create another."
)


def envelope(response, status):
    assert response.status_code == status, response.content
    assert set(response.json()["error"]) == ENVELOPE_KEYS
    return response.json()["error"]


def test_revoking_an_unknown_invite_names_the_invite(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/invites/{uuid.uuid4()}"
    assert envelope(api_client.delete(url), 404) == {
        "code": "invite_not_found",
        "message": "Invite not found.",
        "retryable": False,
        "recovery": "Check the invite id in the campaign's invite list.",
        "details": {},
    }


def test_deciding_an_unknown_join_request_names_it(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/join-requests/{uuid.uuid4()}/decision"
    err = envelope(api_client.post(url, {"decision": "approve"}, format="json"), 404)
    assert (err["code"], err["message"], err["recovery"]) == (
        "join_request_not_found",
        "Join request not found.",
        "Check the id in the campaign's join request list.",
    )
    assert JoinRequest.objects.count() == 0


def test_an_unknown_member_says_where_to_look(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/members/{uuid.uuid4()}"
    err = envelope(api_client.delete(url), 404)
    assert (err["code"], err["recovery"]) == (
        "member_not_found",
        "Check the user id against the campaign's member list.",
    )


def test_invite_key_replays_without_the_link_and_stores_no_token(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/invites"
    first = api_client.post(url, INVITE, format="json", HTTP_IDEMPOTENCY_KEY="invite-key-1")
    assert first.status_code == 201
    token = first.json()["token"]
    assert first.json()["url"] == f"http://testserver/invites/{token}"
    assert first.has_header("Idempotent-Replay") is False

    again = api_client.post(url, INVITE, format="json", HTTP_IDEMPOTENCY_KEY="invite-key-1")
    assert (again.status_code, again["Idempotent-Replay"]) == (201, "true")
    metadata = {k: v for k, v in first.json().items() if k not in ("token", "url")}
    assert again.json() == {**metadata, "token": None, "url": None, "message": LINK_SHOWN_ONCE}
    assert CampaignInvite.objects.count() == 1
    # The raw token is shown once: the replay store holds none of it.
    record = IdempotencyRecord.objects.get(scope="campaigns.invite")
    assert token not in json.dumps(record.response_body)

    other = api_client.post(
        url, {**INVITE, "max_uses": 2}, format="json", HTTP_IDEMPOTENCY_KEY="invite-key-1"
    )
    assert envelope(other, 409)["code"] == "idempotency_conflict"
    assert CampaignInvite.objects.count() == 1


def test_invites_without_a_key_are_each_new(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/invites"
    tokens = {api_client.post(url, INVITE, format="json").json()["token"] for _ in range(2)}
    assert len(tokens) == 2
    assert CampaignInvite.objects.count() == 2
    assert IdempotencyRecord.objects.count() == 0


@pytest.fixture(scope="module")
def narrative(domain_env):
    """A live narrative server beside the module's dnd5e one, with the same keys."""
    server = HttpServerProcess(
        "domain_servers.narrative",
        f"sqlite:///{domain_env.base}/narrative.sqlite3",
        str(domain_env.jwks),
    )
    setting = {
        **domains_setting(domain_env.server.url),
        "narrative": {
            "plugin": "apps.domains.plugins.narrative.NarrativePlugin",
            "url": server.url,
            "timeout": 10,
        },
    }
    try:
        with override_settings(SAGASMITH_DOMAINS=setting):
            yield
    finally:
        domain_connections_close()
        server.stop()


@pytest.fixture
def narrative_campaign(narrative, gm):
    from apps.campaigns.services.campaigns import campaign_create

    return campaign_create(
        owner=gm, name="Fog Harbour", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )


def test_narrative_tags_as_a_list_or_as_text(narrative_campaign, api_client, gm, player):
    join(narrative_campaign, gm, player)
    api_client.force_authenticate(player)
    url = f"/api/campaigns/{narrative_campaign.id}/characters"
    as_list = {"name": "Nia", "tags": ["brave", "ex-soldier", "owes the guild", "brave"]}
    as_text = {"name": "Olu", "tags": "brave, ex-soldier, owes the guild"}
    made = [api_client.post(url, body, format="json") for body in (as_list, as_text)]
    assert [r.status_code for r in made] == [201, 201], [r.json() for r in made]
    for response in made:
        sheet = domain_call(
            system_id="narrative",
            tool="character_get",
            arguments={"character_id": response.json()["character_id"]},
            requester=player,
            campaign_id=str(narrative_campaign.id),
        ).structured["character"]
        assert sheet["tags"] == ["brave", "ex-soldier", "owes the guild"]


@pytest.mark.parametrize(
    ("tags", "problem"),
    [
        (["brave", 3], "Send tags as a list of text values or as one comma-separated text."),
        (["brave, bold"], "A tag in a list cannot contain a comma."),
    ],
)
def test_a_tag_list_text_cannot_carry_is_a_400(narrative_campaign, api_client, gm, tags, problem):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{narrative_campaign.id}/characters"
    err = envelope(api_client.post(url, {"name": "Nia", "tags": tags}, format="json"), 400)
    assert err["details"] == {"fields": {"tags": [problem]}}
    assert ActorBinding.objects.count() == 0


def test_a_member_who_left_is_named_as_an_unknown_one_is_by_every_endpoint(
    domains, api_client, campaign, gm, player
):
    from apps.campaigns.services.membership import membership_leave

    join(campaign, gm, player)
    membership_leave(campaign=campaign, user=player)
    api_client.force_authenticate(gm)
    member = f"/api/campaigns/{campaign.id}/members/{player.id}"
    binding = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{player.id}"
    for response in (
        api_client.delete(member),
        api_client.patch(f"{member}/role", {"role": "observer"}, format="json"),
        api_client.put(binding, {}, format="json"),
    ):
        assert envelope(response, 404) == {
            "code": "member_not_found",
            "message": "That user is not a member of this campaign.",
            "retryable": False,
            "recovery": "Check the user id against the campaign's member list.",
            "details": {},
        }
    assert envelope(api_client.delete(binding), 404)["recovery"] == (
        "Check the character id and the member in the campaign's bindings."
    )


def test_archiving_by_a_gm_says_whom_to_ask(domains, api_client, campaign, gm, player):
    from apps.campaigns.services.membership import membership_change_role

    join(campaign, gm, player)
    membership_change_role(campaign=campaign, actor=gm, user=player, role="gm")
    api_client.force_authenticate(player)
    refused = envelope(api_client.post(f"/api/campaigns/{campaign.id}/archive"), 403)
    assert (refused["code"], refused["message"], refused["recovery"]) == (
        "permission_denied",
        "Only the campaign owner can archive it.",
        "Ask the campaign owner.",
    )
    campaign.refresh_from_db()
    assert campaign.status == "active"
