"""What the campaign pages and API refuse, and how they say it."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import (
    ActorBinding,
    Campaign,
    CampaignInvite,
    CampaignMembership,
    JoinRequest,
)
from tests.campaigns.conftest import domain_members, join

pytestmark = pytest.mark.django_db

INVISIBLE_NAME = "\u200b\u2060\u200b"  # zero-width space, word joiner: strip() keeps both


def test_api_refuses_a_campaign_name_of_invisible_characters(domains, api_client, gm):
    api_client.force_login(gm)
    response = api_client.post(
        "/api/campaigns",
        {"name": INVISIBLE_NAME, "system_id": "dnd5e"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_request",
        "message": "A campaign name needs a visible character.",
        "retryable": False,
        "recovery": "Correct the highlighted fields and try again.",
        "details": {"fields": {"name": ["Enter a name that shows."]}},
    }
    assert Campaign.objects.count() == 0


def test_create_page_shows_the_invisible_name_error_on_the_name_field(domains, client, gm):
    client.force_login(gm)
    response = client.post(
        "/campaigns/new",
        {"name": INVISIBLE_NAME, "system_id": "dnd5e", "form_token": uuid.uuid4().hex},
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"name": ["Enter a name that shows."]}
    assert Campaign.objects.count() == 0


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_settings_actions_on_a_member_who_left_meanwhile_say_so_on_the_settings_page(
    domains, client, campaign, gm, player
):
    from apps.campaigns.services.membership import membership_leave

    join(campaign, gm, player)
    membership_leave(campaign=campaign, user=player)  # while the GM's settings page is open
    client.force_login(gm)
    settings_url = f"/campaigns/{campaign.id}/settings"
    for path, data in [
        (f"{settings_url}/members/{player.id}/role", {"role": "observer"}),
        (f"{settings_url}/members/{player.id}/remove", {}),
        (f"{settings_url}/bindings", {"user_id": str(player.id), "character_id": "pc-1"}),
    ]:
        response = client.post(path, data, follow=True)
        assert response.redirect_chain == [(settings_url, 302)]
        assert _messages(response) == ["That user is not a member of this campaign."]
    membership = CampaignMembership.objects.get(campaign=campaign, user=player)
    assert (membership.role, membership.status) == ("player", "left")
    assert not ActorBinding.objects.filter(user=player).exists()


def test_a_second_remove_of_the_same_member_says_they_are_gone_not_404(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    client.force_login(gm)
    url = f"/campaigns/{campaign.id}/settings/members/{player.id}/remove"
    first = client.post(url, follow=True)
    assert _messages(first) == ["Pat Player was removed."]
    again = client.post(url, follow=True)  # a second tab, or a double submit
    assert again.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
    assert _messages(again) == ["That user is not a member of this campaign."]


def test_a_player_posting_a_settings_action_is_refused_for_their_role_and_nothing_changes(
    domains, client, campaign, gm, player, make_user
):
    join(campaign, gm, player)
    stranger = make_user("stranger@example.test")
    client.force_login(player)
    for target in (gm, stranger):
        response = client.post(
            f"/campaigns/{campaign.id}/settings/members/{target.id}/remove", follow=True
        )
        # The settings page then sends a player on to the campaign page, saying why too.
        assert _messages(response) == [
            "Only the campaign owner or a GM can do that.",
            "Only the owner or a GM can manage this campaign.",
        ]
    assert sorted(
        CampaignMembership.objects.filter(campaign=campaign).values_list("role", "status")
    ) == [("owner", "active"), ("player", "active")]


@pytest.fixture
def request_link(campaign, gm):
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_create

    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    return f"/invites/{token}"


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        ("Hi\x00", "Your message to the GM contains a character that cannot be stored (NUL)."),
        ("x" * 301, "Your message to the GM can have at most 300 characters."),
    ],
    ids=["nul", "too_long"],
)
def test_a_join_message_that_cannot_be_stored_is_refused_and_uses_nothing(
    domains, client, request_link, player, message, refusal
):
    client.force_login(player)
    response = client.post(request_link, {"message": message}, follow=True)
    assert response.redirect_chain == [(request_link, 302)]
    assert _messages(response) == [refusal]
    assert not JoinRequest.objects.exists()
    assert CampaignInvite.objects.get().used_count == 0


def test_a_join_message_of_only_invisible_characters_is_stored_as_none(
    domains, client, request_link, player
):
    client.force_login(player)
    client.post(request_link, {"message": " \u200b\u200b "})
    assert JoinRequest.objects.get().message == ""


def test_unbinding_a_character_id_with_a_nul_is_not_found_not_a_server_error(
    domains, api_client, client, campaign, gm, player
):
    join(campaign, gm, player)
    api_client.force_login(gm)
    response = api_client.delete(
        f"/api/campaigns/{campaign.id}/characters/pc%001/bindings/{player.id}"
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "binding_not_found"
    client.force_login(gm)
    page = client.post(
        f"/campaigns/{campaign.id}/settings/bindings/remove",
        {"user_id": str(player.id), "character_id": "pc\x001"},
        follow=True,
    )
    assert _messages(page) == ["No such binding."]


def _characters_card(html: str) -> str:
    start = html.index("<h2>Your characters</h2>")
    return " ".join(html[start : html.index("</section>", start)].split())


OBSERVER_HINT = "Observers don't create characters. Ask the campaign owner to make you a player."
ARCHIVED_HINT = "This campaign is archived: no new characters."


def test_campaign_page_says_why_an_observer_or_an_archived_campaign_has_no_create_button(
    domains, client, campaign, gm, player, make_user
):
    from apps.campaigns.services.campaigns import campaign_archive

    observer = make_user("olly@example.test", display_name="Olly Observer")
    join(campaign, gm, player)
    join(campaign, gm, observer, role="observer")
    create = f'href="/campaigns/{campaign.id}/characters/new"'
    page = f"/campaigns/{campaign.id}/"

    client.force_login(observer)
    card = _characters_card(client.get(page).content.decode())
    assert create not in card
    assert OBSERVER_HINT in card
    client.force_login(player)
    card = _characters_card(client.get(page).content.decode())
    assert create in card
    assert OBSERVER_HINT not in card

    campaign_archive(campaign=campaign, actor=gm)
    for member in (gm, player, observer):
        client.force_login(member)
        card = _characters_card(client.get(page).content.decode())
        assert create not in card
        assert ARCHIVED_HINT in card
        assert OBSERVER_HINT not in card


def test_an_observer_refused_a_character_is_told_to_ask_the_owner_who_alone_changes_roles(
    domains, api_client, client, campaign, gm, make_user
):
    observer = make_user("olly@example.test", display_name="Olly Observer")
    join(campaign, gm, observer, role="observer")
    api_client.force_login(observer)
    refused = api_client.post(
        f"/api/campaigns/{campaign.id}/characters",
        {"name": "Olly", "template": "fighter", "level": 1},
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["recovery"] == "Ask the campaign owner to make you a player."
    client.force_login(observer)
    response = client.get(f"/campaigns/{campaign.id}/characters/new", follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    # The campaign page says why where its button would be; no flash repeats it.
    assert _messages(response) == []
    html = response.content.decode()
    assert (html.count(OBSERVER_HINT), html.count("Observers cannot create")) == (1, 0)


def test_a_request_from_an_account_deactivated_since_is_not_approved_but_can_be_declined(
    domains, api_client, client, campaign, gm, player, request_link
):
    from apps.accounts.services import user_deactivate
    from apps.campaigns.services.invites import invite_accept

    pending = invite_accept(token=request_link.rsplit("/", 1)[1], user=player).join_request
    user_deactivate(user=player, password="s3cret-passw0rd!")
    decide = f"/campaigns/{campaign.id}/settings/join-requests/{pending.id}/decide"

    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert '<span class="badge badge--deactivated">Deactivated</span>' in html
    assert html.count(f'action="{decide}"') == 1  # Decline only
    assert 'aria-label="Approve Pat Player"' not in html

    api_client.force_login(gm)
    refused = api_client.post(
        f"/api/campaigns/{campaign.id}/join-requests/{pending.id}/decision",
        {"decision": "approve"},
        format="json",
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "account_deactivated")
    pending.refresh_from_db()
    assert pending.status == "pending"
    assert not CampaignMembership.objects.filter(campaign=campaign, user=player).exists()
    assert str(player.id) not in str(domain_members(campaign, gm))

    declined = client.post(decide, {"decision": "reject"}, follow=True)
    assert _messages(declined) == ["Declined the request from Pat Player."]
    pending.refresh_from_db()
    assert pending.status == "rejected"


def test_a_character_name_of_invisible_characters_is_refused_on_its_field(
    domains, api_client, client, campaign, gm, player
):
    join(campaign, gm, player)
    api_client.force_login(player)
    refused = api_client.post(
        f"/api/campaigns/{campaign.id}/characters",
        {"name": INVISIBLE_NAME, "template": "fighter", "level": 1},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["details"] == {"fields": {"name": ["Enter a name that shows."]}}
    client.force_login(player)
    page = client.post(
        f"/campaigns/{campaign.id}/characters/new",
        {"name": INVISIBLE_NAME, "template": "fighter", "level": 1, "form_token": "t" * 32},
    )
    assert page.status_code == 200
    assert page.context["form"].errors == {"name": ["Enter a name that shows."]}
    assert not ActorBinding.objects.exists()


def test_an_invite_page_that_cannot_be_used_does_not_say_how_joining_would_go(
    domains, client, campaign, gm, player
):
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_create, invite_revoke

    invite, token = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=1
    )
    client.force_login(player)
    live = client.get(f"/invites/{token}").content.decode()
    assert "<dt>Joining</dt><dd>Immediately</dd>" in live
    invite_revoke(invite=invite, actor=gm)
    revoked = client.get(f"/invites/{token}").content.decode()
    assert '<p class="callout" role="alert">This invite was revoked.</p>' in revoked
    assert "Joining" not in revoked
    assert "Immediately" not in revoked
