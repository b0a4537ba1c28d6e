"""Campaign pages in a real browser: what a GM is asked before an action that cannot be
undone, and where a refused form leaves the focus."""

from __future__ import annotations

import os
import uuid
from datetime import timedelta

import pytest

from tests.browser.test_room_live import _sign_in
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

PHONE = {"width": 390, "height": 844}


def _gm_campaign(make_user):
    from apps.campaigns.services.campaigns import campaign_create

    gm = make_user("gm@example.test", display_name="Gail GM")
    campaign = campaign_create(
        owner=gm, name="Curse of Strahd", system_id="dnd5e", idempotency_key=uuid.uuid4().hex
    )
    return gm, campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_revoking_an_invite_asks_first_and_cancelling_keeps_the_link_working(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import CampaignInvite
    from apps.campaigns.services.invites import invite_create

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    invite, _token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, live_server.url, "gm@example.test")
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        asked: list[str] = []

        def cancel(dialog):
            asked.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", cancel)
        page.click("button:has-text('Revoke')")
        page.wait_for_timeout(300)
        assert asked == [
            "Revoke this invite? Its link stops working for everyone who has it; "
            "this cannot be undone."
        ]
        assert CampaignInvite.objects.get(pk=invite.pk).revoked_at is None
        page.remove_listener("dialog", cancel)
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("button:has-text('Revoke')")
        page.wait_for_selector(".flash__item:has-text('Invite revoked.')")
        assert CampaignInvite.objects.get(pk=invite.pk).revoked_at is not None
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_declining_a_join_request_asks_first_and_cancelling_keeps_it_waiting(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import JoinRequest
    from apps.campaigns.services.invites import invite_accept, invite_create

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )
    player = make_user("player@example.test", display_name="Pat Player")
    waiting = invite_accept(token=token, user=player).join_request
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, live_server.url, "gm@example.test")
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        asked: list[str] = []

        def cancel(dialog):
            asked.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", cancel)
        page.click("button[aria-label='Decline Pat Player']")
        page.wait_for_timeout(300)
        assert asked == ["Decline the request of Pat Player? This cannot be undone."]
        assert JoinRequest.objects.get(pk=waiting.pk).status == "pending"
        page.remove_listener("dialog", cancel)
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("button[aria-label='Decline Pat Player']")
        page.wait_for_selector(".flash__item:has-text('Request declined.')")
        assert JoinRequest.objects.get(pk=waiting.pk).status == "rejected"
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_form_puts_the_focus_on_what_to_fix(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _gm, campaign = _gm_campaign(make_user)
    context = browser.new_context(viewport=PHONE)
    focused = "document.activeElement.id || document.activeElement.className"
    try:
        page = _sign_in(context, live_server.url, "gm@example.test")
        page.goto(f"{live_server.url}/campaigns/new")
        page.fill("#id_name", "   ")
        page.click("button:has-text('Create campaign')")
        page.wait_for_selector("#id_name[aria-invalid=true]")
        assert page.evaluate(focused) == "id_name"

        page.goto(f"{live_server.url}/campaigns/{campaign.id}/characters/new")
        page.fill("#id_name", "Ilsa")
        page.fill("#id_str", "12")
        page.click("button:has-text('Create character')")
        page.wait_for_selector(".errorlist.nonfield")
        assert page.evaluate(focused) == "errorlist nonfield"
        assert page.evaluate("document.activeElement.innerText") == (
            "Choose a class template or enter all six ability scores."
        )
    finally:
        context.close()
