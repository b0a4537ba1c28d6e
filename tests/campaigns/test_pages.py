"""Campaign pages: dashboard, create, settings, invite landing, character form."""

from __future__ import annotations

import re

import pytest
from django.db.models import F
from django.test import override_settings

from apps.campaigns.models import Campaign, CampaignInvite, CampaignMembership, JoinRequest
from apps.core.moments import stamp
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def test_create_page_picks_system_and_redirects_to_settings(domains, client, gm):
    client.force_login(gm)
    page = client.get("/campaigns/new")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'for="id_system_dnd5e"' in html
    assert "D&amp;D 5e (SRD 5.1)" in html
    token = re.search(r'name="form_token" value="([0-9a-f]{32})"', html).group(1)
    data = {"name": "Tomb", "system_id": "dnd5e", "form_token": token}
    response = client.post("/campaigns/new", data)
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/campaigns/{campaign.id}/settings"
    client.post("/campaigns/new", data)  # a double submit reaches the same campaign
    assert Campaign.objects.count() == 1
    # Back to the form (a fresh one): it first points to the campaign just made.
    again = client.get("/campaigns/new").content.decode()
    assert f'You created <a href="/campaigns/{campaign.id}/">Tomb</a> a moment ago.' in again


def test_settings_shows_invite_link_once(domains, client, campaign, gm, player):
    client.force_login(gm)
    client.post(
        f"/campaigns/{campaign.id}/settings/invites",
        {"mode": "request", "role": "player", "expires_in_hours": 24, "max_uses": 2},
    )
    first = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    url = re.search(r'id="new-invite-url">([^<]+)<', first).group(1)
    assert url.startswith("http://testserver/invites/")
    assert (
        'id="new-invite-url"'
        not in client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    )
    assert CampaignInvite.objects.get().max_uses == 2

    client.force_login(player)
    assert client.get(f"/campaigns/{campaign.id}/settings").status_code == 404


def test_invite_landing_signed_out_and_in(domains, client, campaign, gm, player):
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_create

    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    page = client.get(f"/invites/{token}").content.decode()
    assert "The Sunless Citadel" in page
    assert f"/accounts/login/?next=%2Finvites%2F{token}" in page
    # Accounts are by invitation (the default): no sign-up button that leads to "closed".
    assert "/accounts/signup/" not in page
    assert "Accounts are by invitation: ask whoever sent you this link" in page
    with override_settings(SAGASMITH_REGISTRATION_MODE="open"):
        assert (
            f"/accounts/signup/?next=%2Finvites%2F{token}"
            in client.get(f"/invites/{token}").content.decode()
        )
    assert client.get("/invites/not-a-token").status_code == 404

    client.force_login(player)
    assert "Request to join" in client.get(f"/invites/{token}").content.decode()
    response = client.post(f"/invites/{token}", {"message": "I bring snacks"})
    assert response.status_code == 302
    jr = JoinRequest.objects.get()
    assert (jr.user, jr.status, jr.message) == (player, "pending", "I bring snacks")
    dashboard = client.get("/").content.decode()
    assert 'id="my-requests"' in dashboard

    client.force_login(gm)
    dashboard = client.get("/").content.decode()
    assert 'id="awaiting-decision"' in dashboard
    assert "Pat Player" in dashboard


def test_dashboard_and_character_page(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    client.force_login(player)
    dashboard = client.get("/").content.decode()
    assert f'href="/campaigns/{campaign.id}/room/"' in dashboard
    assert "D&amp;D 5e (SRD 5.1)" in dashboard
    assert f"/campaigns/{campaign.id}/settings" not in dashboard  # players do not manage
    form = client.get(f"/campaigns/{campaign.id}/characters/new").content.decode()
    assert 'for="id_template"' in form
    response = client.post(
        f"/campaigns/{campaign.id}/characters/new",
        {"name": "Jozan", "template": "cleric", "level": 1, "form_token": "f" * 32},
    )
    assert response.status_code == 302
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    assert "Jozan" in detail
    # By name alone: the character's internal id means nothing to its player.
    assert "pc-1" not in detail


def test_a_refused_character_form_keeps_each_field_in_one_block(domains, client, campaign, gm):
    # An error list is a block: inside a <p> the browser closes the paragraph early and the
    # label, the error and the input fall into separate cells of the form's grid.
    client.force_login(gm)
    page = client.post(
        f"/campaigns/{campaign.id}/characters/new",
        {"name": "   ", "level": 1, "form_token": "e" * 32},
    ).content.decode()
    assert re.search(
        r'<div class="form-grid__full">\s*<label for="id_name">Name</label>\s*'
        r'<ul class="errorlist"[^>]*><li>This field is required.</li></ul>',
        page,
    ), page
    assert not re.search(r"<p[^>]*>\s*<label[^>]*>[^<]*</label>\s*<ul", page)


def test_no_new_character_during_combat_and_the_page_says_when(
    domains, client, api_client, campaign, gm, player
):
    from apps.campaigns.models import Campaign

    join(campaign, gm, player)
    # As the room's projection has it once the GM started combat.
    Campaign.objects.filter(pk=campaign.pk).update(phase="combat")
    client.force_login(player)
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    assert "characters/new" not in detail
    assert "New characters can't be created during combat; come back once the GM ends it." in (
        detail
    )
    response = client.get(f"/campaigns/{campaign.id}/characters/new", follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    # The GM is not told to wait for the GM.
    client.force_login(gm)
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    assert "New characters can't be created during combat; end it in the room first." in detail
    assert "come back once the GM ends it" not in detail
    api_client.force_authenticate(player)
    created = api_client.post(
        f"/api/campaigns/{campaign.id}/characters",
        {"name": "Tordek", "template": "fighter", "level": 2},
        format="json",
        HTTP_IDEMPOTENCY_KEY="char-in-combat",
    )
    error = created.json()["error"]
    assert (created.status_code, error["code"], error["message"], error["recovery"]) == (
        409,
        "phase_denied",
        "New characters can't be created during combat.",
        "Create your character once the GM has ended it.",
    )


def test_an_archived_campaign_offers_no_new_character(domains, client, campaign, gm):
    from apps.campaigns.services.campaigns import campaign_archive

    campaign_archive(campaign=campaign, actor=gm)
    client.force_login(gm)
    response = client.get(f"/campaigns/{campaign.id}/characters/new", follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    assert [str(m) for m in response.context["messages"]] == []
    assert response.content.decode().count("This campaign is archived: no new characters.") == 1


def test_a_declined_request_stays_on_the_dashboard_for_a_week(
    domains, client, campaign, gm, player
):
    from datetime import timedelta

    from django.utils import timezone

    from apps.campaigns.services.invites import invite_accept, invite_create
    from apps.campaigns.services.membership import join_request_decide

    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    request = invite_accept(token=token, user=player).join_request
    join_request_decide(join_request=request, actor=gm, decision="reject")
    client.force_login(player)
    dashboard = client.get("/").content.decode()
    assert '<span class="badge badge--declined">declined</span>' in dashboard
    assert "The Sunless Citadel" in dashboard
    # Listed under what it is: a decided request to join, not an invitation still pending.
    assert '<h2 id="h-pending">Join requests</h2>' in dashboard
    JoinRequest.objects.filter(pk=request.pk).update(decided_at=timezone.now() - timedelta(days=8))
    dashboard = client.get("/").content.decode()
    assert 'id="my-requests"' not in dashboard
    assert "No join requests waiting or recently declined." in dashboard


def test_settings_offers_the_campaigns_characters_to_bind(
    domains, client, campaign, gm, player, settings
):
    from apps.campaigns.services.characters import character_create_for

    join(campaign, gm, player)
    character_create_for(
        campaign=campaign, user=player, form_data={"name": "Lidda", "template": "rogue", "level": 1}
    )
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert '<option value="pc-1">Lidda (pc-1)</option>' in page
    # The rules server cannot list them just now: the page asks for an id instead of failing.
    from tests.domains.conftest import domains_setting

    settings.SAGASMITH_DOMAINS = domains_setting("http://127.0.0.1:9/mcp", timeout=2)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert 'placeholder="pc-1"' in page
    assert "The rules server did not list the characters just now; enter the id." in page


def test_settings_mark_a_deactivated_member_and_offer_them_no_role_or_binding(
    domains, client, campaign, gm, player, make_user
):
    from apps.accounts.services import user_deactivate
    from apps.campaigns.services.characters import character_create_for

    other = make_user("robin@example.test", display_name="Robin Rogue")
    join(campaign, gm, player)
    join(campaign, gm, other)
    # A character to bind: with none in the campaign, there is no binding form.
    character_create_for(
        campaign=campaign, user=other, form_data={"name": "Lidda", "template": "rogue", "level": 1}
    )
    # Pat deactivates their own account (as from /account/): still a member row, no sign-in.
    user_deactivate(user=player, password="s3cret-passw0rd!")
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert 'Pat Player <span class="badge badge--deactivated">Deactivated</span></span>' in html
    assert html.count("Deactivated") == 1
    role_forms = re.findall(r'action="/campaigns/[^"]+/settings/members/([^/]+)/role"', html)
    assert role_forms == [str(other.id)]
    # Pat's role is shown, not offered for change; removing Pat is still possible.
    assert '<span class="badge badge--player">Player</span>' in html
    assert f'action="/campaigns/{campaign.id}/settings/members/{player.id}/remove"' in html
    bind = re.search(r'<select name="user_id" id="id_bind_user" required>(.*?)</select>', html)
    assert bind.group(1) == (
        f'<option value="{gm.id}">Gail GM</option><option value="{other.id}">Robin Rogue</option>'
    )


def test_a_player_leaves_from_the_campaign_page(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    client.force_login(player)
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    action = f'action="/campaigns/{campaign.id}/leave"'
    assert action in detail
    response = client.post(f"/campaigns/{campaign.id}/leave", follow=True)
    assert response.redirect_chain == [("/", 302)]
    html = response.content.decode()
    assert f"You left {campaign.name}." in html
    assert f'href="/campaigns/{campaign.id}/room/"' not in html
    assert client.get(f"/campaigns/{campaign.id}/").status_code == 404
    # The owner is offered no way out: archiving is theirs.
    client.force_login(gm)
    assert action not in client.get(f"/campaigns/{campaign.id}/").content.decode()
    refused = client.post(f"/campaigns/{campaign.id}/leave", follow=True)
    assert refused.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    assert "The owner cannot leave their own campaign." in refused.content.decode()


def test_a_non_member_gets_the_sites_404_page_with_the_reason(
    domains, client, campaign, gm, player, settings
):
    settings.DEBUG = True  # the reason shows in development too, not Django's debug page
    client.force_login(player)
    for url in (f"/campaigns/{campaign.id}/", f"/campaigns/{campaign.id}/room/"):
        response = client.get(url)
        assert response.status_code == 404
        html = response.content.decode()
        assert "This campaign does not exist, or you are not a member of it." in html
        assert "Back to the dashboard" in html


def test_an_archived_campaigns_settings_offer_no_changes(domains, client, campaign, gm, player):
    from apps.campaigns.services.campaigns import campaign_archive
    from apps.campaigns.services.characters import character_create_for

    join(campaign, gm, player)
    # A real character: with none in the campaign, there is no binding form to offer.
    character_create_for(
        campaign=campaign, user=player, form_data={"name": "Lidda", "template": "rogue", "level": 1}
    )
    client.force_login(gm)
    client.post(
        f"/campaigns/{campaign.id}/settings/invites",
        {"mode": "request", "role": "player", "expires_in_hours": 24, "max_uses": 3},
    )
    active = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    forms = re.compile(r'action="/campaigns/[^"]+/(settings/[^"]*)"')
    # Only a live invite can be revoked: the one `join` used up shows "used up".
    revokes = [
        f"settings/invites/{i.id}/revoke"
        for i in CampaignInvite.objects.filter(revoked_at=None, used_count__lt=F("max_uses"))
    ]
    assert len(revokes) >= 1
    assert sorted(set(forms.findall(active))) == sorted(
        [
            "settings/archive",
            "settings/bindings",
            "settings/bindings/remove",
            "settings/invites",
            *revokes,
            f"settings/members/{player.id}/remove",
            f"settings/members/{player.id}/role",
            "settings/name",
        ]
    )
    campaign_archive(campaign=campaign, actor=gm)
    archived = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    # Nothing but restoring it back.
    assert forms.findall(archived) == ["settings/restore"]
    assert (
        'This campaign is archived: <a href="#h-restore">restore it below</a> to change its '
        "settings." in archived
    )


def test_an_auto_join_landing_lets_someone_waiting_on_a_request_join(
    domains, client, campaign, gm, player
):
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_accept, invite_create

    _asked, asked = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    _auto, auto = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=1
    )
    invite_accept(token=asked, user=player)
    client.force_login(player)
    assert "Your request is waiting for a GM's decision." in (
        client.get(f"/invites/{asked}").content.decode()
    )
    page = client.get(f"/invites/{auto}").content.decode()
    assert "Your earlier request is still waiting; this link lets you join now." in page
    assert "Join campaign" in page
    response = client.post(f"/invites/{auto}", follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    assert f"You joined “{campaign.name}”." in response.content.decode()


def test_the_invites_table_says_how_each_invite_joins_and_whether_it_still_works(
    domains, client, campaign, gm, player, make_user
):
    from datetime import timedelta

    from django.utils import timezone

    from apps.campaigns.services.invites import invite_create
    from apps.campaigns.services.membership import membership_change_role

    co_gm = make_user("co-gm@example.test")
    join(campaign, gm, co_gm)  # a request invite, now used up
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    own, _t = invite_create(campaign=campaign, actor=gm, mode="auto_join",
                            expires_in=timedelta(hours=1), max_uses=2)  # fmt: skip
    theirs, _t = invite_create(campaign=campaign, actor=co_gm, mode="auto_join",
                               expires_in=timedelta(hours=1), max_uses=2)  # fmt: skip
    old, _t = invite_create(campaign=campaign, actor=gm, mode="request",
                            expires_in=timedelta(hours=1), max_uses=2)  # fmt: skip
    CampaignInvite.objects.filter(pk=old.pk).update(expires_at=timezone.now())
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="player")
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    rows = re.findall(r"<tr><td>(.*?)</tr>", html, re.S)
    text = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in rows]
    assert [t.split(" until ")[0] if " until " in t else t for t in text] == [
        "By request · Player 0/2 expired",
        "By request · Player Made as auto-join by someone no longer a GM: a GM approves each "
        "request. 0/2",
        "At once · Player 0/2",
        "By request · Player 1/1 used up",
    ]
    revokes = re.findall(r'action="/campaigns/[^"]+/settings/invites/([^/]+)/revoke"', html)
    assert sorted(revokes) == sorted([str(own.id), str(theirs.id)])
    # The revoke button's words for screen readers name the invite by the moment its row shows.
    until = stamp(own.expires_at)
    assert text[2] == (
        f"At once · Player 0/2 until {until} Revoke Revoke the player invite that works until "
        f"{until}"
    )


def test_bad_binding_ids_and_observers_get_answers_not_errors(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player, role="observer")
    client.force_login(gm)
    bad = client.post(
        f"/campaigns/{campaign.id}/settings/bindings/remove", {"user_id": "not-a-uuid"}
    )
    assert bad.status_code == 404
    assert "No such member." in bad.content.decode()
    client.force_login(player)
    form = client.get(f"/campaigns/{campaign.id}/characters/new", follow=True)
    assert form.redirect_chain == [(f"/campaigns/{campaign.id}/", 302)]
    assert [str(m) for m in form.context["messages"]] == []
    html = form.content.decode()
    assert html.count("Observers don't create characters.") == 1
    assert "Observers cannot create characters." not in html


def test_a_campaign_whose_system_this_server_lacks_still_opens_and_says_why(domains, client, gm):
    campaign = Campaign.objects.create(name="Old Arkham", system_id="coc7e", owner=gm)
    CampaignMembership.objects.create(campaign=campaign, user=gm, role="owner")
    client.force_login(gm)

    page = client.get(f"/campaigns/{campaign.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "This server does not run the game system “coc7e”" in html
    assert "Create a character" not in html

    form = client.get(f"/campaigns/{campaign.id}/characters/new")
    assert form.status_code == 302
    assert form["Location"] == f"/campaigns/{campaign.id}/"
    assert client.get(f"/campaigns/{campaign.id}/room/").status_code == 200


@pytest.mark.parametrize("uses", ["0", "-5", "101"])
def test_invite_uses_out_of_range_says_the_range_on_the_field_and_keeps_the_value(
    domains, client, campaign, gm, uses
):
    client.force_login(gm)
    response = client.post(
        f"/campaigns/{campaign.id}/settings/invites",
        {"mode": "auto_join", "role": "observer", "expires_in_hours": 24, "max_uses": uses},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "The invite settings are invalid." not in html
    field = re.search(r'<div><label for="id_max_uses">Uses</label>(.*?)</div>', html, re.S).group(1)
    errors = '<ul class="errorlist" id="id_max_uses_error"><li>{}</li></ul>'
    assert errors.format("Enter a number of uses from 1 to 100.") in field
    assert f'value="{uses}"' in field
    assert 'aria-invalid="true"' in field
    # The other choices stay as entered too.
    assert '<option value="auto_join" selected>' in html
    assert '<option value="observer" selected>' in html
    assert not CampaignInvite.objects.exists()


def test_role_and_joining_labels_are_capitalised_on_the_invite_pages(
    domains, client, campaign, gm, player
):
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_create

    _inv, token = invite_create(campaign=campaign, actor=gm, mode="request", role="observer",
                                expires_in=timedelta(hours=1), max_uses=1)  # fmt: skip
    client.force_login(player)
    landing = client.get(f"/invites/{token}").content.decode()
    assert "<dt>Role</dt><dd>Observer</dd>" in landing
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    joining = re.search(r'<select name="mode"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)</option>", joining) == [
        "Request to join",
        "Join automatically",
    ]
    role = re.search(r'<select name="role" id="id_role"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)</option>", role) == ["Player", "Observer"]
    assert "By request · Observer" in re.sub(r"<[^>]+>", "", html)
    assert [str(label) for _v, label in CampaignMembership.Role.choices] == [
        "Owner",
        "GM",
        "Player",
        "Observer",
    ]


def test_pages_show_the_phase_by_its_label_and_no_revision(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    Campaign.objects.filter(pk=campaign.pk).update(phase="combat", authority_revision=4)
    client.force_login(gm)
    dashboard = client.get("/").content.decode()
    meta = re.search(r'<div class="campaign-item__meta">(.*?)</div>', dashboard).group(1)
    assert meta == "D&amp;D 5e (SRD 5.1) · Phase: Combat"
    settings = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert '<p class="muted small">D&amp;D 5e (SRD 5.1) · Phase: Combat</p>' in settings
    assert "revision" not in settings.lower()
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    assert "<dt>Phase</dt><dd>Combat</dd>" in detail
    assert "New characters can't be created during combat; end it in the room first." in detail


def test_a_phase_code_of_two_words_reads_as_words_on_the_campaign_page(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    # A phase this site has no label for (a game system may add one): still words, not a code.
    Campaign.objects.filter(pk=campaign.pk).update(phase="short_rest")
    client.force_login(player)
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    assert "<dt>Phase</dt><dd>Short rest</dd>" in detail
    assert (
        "New characters can't be created during short rest; come back once the GM ends it."
        in detail
    )
    assert "short_rest" not in detail
    dashboard = client.get("/").content.decode()
    assert "D&amp;D 5e (SRD 5.1) · Phase: Short rest</div>" in dashboard
    assert "short_rest" not in dashboard


def test_a_character_refused_in_a_phase_of_two_words_names_the_phase_in_words(
    domains, api_client, campaign, gm, player
):
    join(campaign, gm, player)
    Campaign.objects.filter(pk=campaign.pk).update(phase="short_rest")
    api_client.force_authenticate(player)
    created = api_client.post(
        f"/api/campaigns/{campaign.id}/characters",
        {"name": "Tordek", "template": "fighter", "level": 2},
        format="json",
        HTTP_IDEMPOTENCY_KEY="char-in-short-rest",
    )
    error = created.json()["error"]
    assert (created.status_code, error["code"], error["message"]) == (
        409,
        "phase_denied",
        "New characters can't be created during short rest.",
    )


def test_the_campaign_page_marks_the_reader_in_its_member_list(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    client.force_login(player)
    detail = client.get(f"/campaigns/{campaign.id}/").content.decode()
    members = re.findall(r"<li><span>([^<]*)</span>", detail)
    assert members == ["Gail GM", "Pat Player (you)"]
