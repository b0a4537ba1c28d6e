"""Campaign pages as a GM or a player reads them: invite links, join requests, roles, forms."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from apps.campaigns import views
from apps.campaigns.services.campaigns import campaign_archive
from apps.campaigns.services.invites import invite_create, invite_revoke

pytestmark = pytest.mark.django_db

INVITE_FORM = {"mode": "request", "role": "player", "expires_in_hours": 24, "max_uses": 2}


def _invite_cells(page: str) -> list[str]:
    """The Status cell of each row of the settings page's invite table."""
    body = page.split('<section class="card" aria-labelledby="h-invites">')[1].split("<tbody>")[1]
    rows = body.split("</tbody>")[0].split("<tr>")[1:]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2] for row in rows]


def test_a_new_invite_link_is_still_shown_after_opening_another_campaigns_settings(
    domains, client, make_campaign, gm
):
    first = make_campaign(gm, name="Tomb")
    second = make_campaign(gm, name="Keep")
    client.force_login(gm)
    client.post(f"/campaigns/{first.id}/settings/invites", INVITE_FORM)
    other = client.get(f"/campaigns/{second.id}/settings").content.decode()
    own = client.get(f"/campaigns/{first.id}/settings").content.decode()
    assert 'id="new-invite-url"' not in other
    assert len(re.findall(r'id="new-invite-url">http://testserver/invites/[\w-]+<', own)) == 1
    again = client.get(f"/campaigns/{first.id}/settings").content.decode()
    assert 'id="new-invite-url"' not in again


def test_an_archived_campaigns_live_invite_shows_it_cannot_be_used(domains, client, campaign, gm):
    invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )
    campaign_archive(campaign=campaign, actor=gm)
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert _invite_cells(page) == [
        '<span class="badge badge--archived">unusable: campaign archived</span>'
    ]


def test_a_stranger_whose_link_died_as_they_submitted_reads_the_reason_once(
    domains, client, campaign, gm, make_user, monkeypatch
):
    invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    real_problem = views.invite_problem
    revoked = []

    def revoked_just_after_the_check(checked):
        # The GM revokes the link between the page's check and the use of it.
        problem = real_problem(checked)
        if not revoked:
            revoked.append(invite_revoke(invite=invite, actor=gm))
        return problem

    monkeypatch.setattr(views, "invite_problem", revoked_just_after_the_check)
    client.force_login(make_user("stranger@example.test", display_name="Sam Stranger"))
    response = client.post(f"/invites/{token}", {"message": "Hello"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 410
    assert page.count("This invite was revoked.") == 1
    assert '<p class="callout" role="alert">This invite was revoked.</p>' in page
    assert "flash__item" not in page


def test_each_role_save_button_names_the_member_it_saves(domains, client, campaign, gm, player):
    from tests.campaigns.conftest import join

    join(campaign, gm, player)
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    role_form = page.split(f'action="/campaigns/{campaign.id}/settings/members/{player.id}/role"')[
        1
    ]
    assert re.findall(r"<button[^>]*>Save</button>", role_form.split("</form>")[0]) == [
        '<button type="submit" class="button button--small"'
        ' aria-label="Save the role of Pat Player">Save</button>'
    ]


def test_the_button_that_declines_a_join_request_says_decline_as_its_outcome_does(
    domains, client, campaign, gm, player
):
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    from apps.campaigns.services.invites import invite_accept

    waiting = invite_accept(token=token, user=player).join_request
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    requests = page.split('<ul class="list" id="join-requests">')[1].split("</ul>")[0]
    assert re.findall(r"<button[^>]*>[^<]*</button>", requests) == [
        '<button type="submit" class="button button--small button--primary"'
        ' aria-label="Approve Pat Player">Approve</button>',
        '<button type="submit" class="button button--small button--danger"'
        ' aria-label="Decline Pat Player">Decline</button>',
    ]
    decided = client.post(
        f"/campaigns/{campaign.id}/settings/join-requests/{waiting.id}/decide",
        {"decision": "reject"},
        follow=True,
    )
    said = [str(m) for m in decided.context["messages"]]
    assert said == ["Declined the request from Pat Player."]


def test_the_character_form_names_its_campaign_and_system_without_nested_brackets(
    domains, client, campaign, gm
):
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/characters/new").content.decode()
    assert re.findall(r'<p class="muted wraps-names">(.*?)</p>', page, re.S) == [
        "For The Sunless Citadel, a D&amp;D 5e (SRD 5.1) campaign. The rules server creates"
        " the character and binds it to you."
    ]
