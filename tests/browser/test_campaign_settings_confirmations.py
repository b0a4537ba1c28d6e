"""Campaign pages in a real browser: what a GM is asked before an action that cannot be
undone, and where a refused form leaves the focus."""

from __future__ import annotations

import os
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.conftest import dialogs_answered
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


def _request_invite(gm, campaign):
    """A one-use invite to ask to join `campaign`, good for five hours: (invite, token)."""
    from apps.campaigns.services.invites import invite_create

    return invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )


@contextmanager
def _gm_page(browser, base_url: str, **context_options):
    """gm@example.test signed in on a phone-sized page (a context with `context_options`); its
    context closes afterwards."""
    context = browser.new_context(viewport=PHONE, **context_options)
    try:
        yield _sign_in(context, base_url, "gm@example.test")
    finally:
        context.close()


def _asked_when_cancelled(page, button: str) -> list[str]:
    """Click `button`, dismiss every confirmation it raises, and return what was asked."""
    with dialogs_answered(page, accept=False) as asked:
        page.click(button)
        page.wait_for_timeout(300)
    return asked


def _confirm(page, button: str, flash: str) -> None:
    """Click `button`, accept its confirmation and wait for the `flash` message."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(button)
    page.wait_for_selector(f".flash__item:has-text('{flash}')")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_revoking_an_invite_asks_first_and_cancelling_keeps_the_link_working(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import CampaignInvite

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    invite, _token = _request_invite(gm, campaign)
    CampaignInvite.objects.filter(pk=invite.pk).update(
        expires_at=datetime(2099, 12, 14, 5, 26, tzinfo=UTC)
    )
    with _gm_page(browser, live_server.url, timezone_id="UTC") as page:
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        assert _asked_when_cancelled(page, "button:has-text('Revoke')") == [
            "Revoke the player invite that works until Dec 14, 2099, 5:26 AM UTC? Its link stops "
            "working for everyone who has it; this cannot be undone."
        ]
        assert CampaignInvite.objects.get(pk=invite.pk).revoked_at is None
        _confirm(page, "button:has-text('Revoke')", "Invite revoked.")
        assert CampaignInvite.objects.get(pk=invite.pk).revoked_at is not None


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_declining_a_join_request_asks_first_and_cancelling_keeps_it_waiting(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import JoinRequest
    from apps.campaigns.services.invites import invite_accept

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    _invite, token = _request_invite(gm, campaign)
    player = make_user("player@example.test", display_name="Pat Player")
    waiting = invite_accept(token=token, user=player).join_request
    decline = "button[aria-label='Decline Pat Player']"
    with _gm_page(browser, live_server.url) as page:
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        assert _asked_when_cancelled(page, decline) == [
            "Decline the request of Pat Player? This cannot be undone."
        ]
        assert JoinRequest.objects.get(pk=waiting.pk).status == "pending"
        _confirm(page, decline, "Declined the request from Pat Player.")
        assert JoinRequest.objects.get(pk=waiting.pk).status == "rejected"


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
    focused = "document.activeElement.id || document.activeElement.className"
    with _gm_page(browser, live_server.url) as page:
        page.goto(f"{live_server.url}/campaigns/new")
        page.fill("#id_name", "   ")
        page.click("button:has-text('Create campaign')")
        page.wait_for_selector("#id_name[aria-invalid=true]")
        assert page.evaluate(focused) == "id_name"

        page.goto(f"{live_server.url}/campaigns/{campaign.id}/characters/new")
        page.fill("#id_name", "Ilsa")
        # The form starts on a class template: scores are entered with "None" chosen.
        page.select_option("#id_template", "")
        page.fill("#id_str", "12")
        page.click("button:has-text('Create character')")
        page.wait_for_selector(".errorlist.nonfield")
        assert page.evaluate(focused) == "errorlist nonfield"
        assert page.evaluate("document.activeElement.innerText") == (
            "Choose a class template or enter all six ability scores."
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_unbinding_a_character_asks_first_naming_it_and_its_player(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import ActorBinding
    from apps.campaigns.services.characters import character_create_for
    from tests.campaigns.conftest import join

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    player = make_user("player@example.test", display_name="Pat Player")
    join(campaign, gm, player)
    lidda = character_create_for(
        campaign=campaign, user=player, form_data={"name": "Lidda", "template": "rogue", "level": 1}
    )
    unbind = "button[aria-label='Unbind Lidda from Pat Player']"
    with _gm_page(browser, live_server.url) as page:
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        assert _asked_when_cancelled(page, unbind) == ["Unbind Lidda from Pat Player?"]
        assert ActorBinding.objects.get(pk=lidda.pk).status == "active"
        _confirm(page, unbind, "Binding removed.")
        assert ActorBinding.objects.get(pk=lidda.pk).status == "removed"


def _new_invite_link(page, base_url: str, campaign) -> str:
    """Create an invite from the settings page and return the link it shows once."""
    page.goto(f"{base_url}/campaigns/{campaign.id}/settings")
    page.click("button:has-text('Create invite link')")
    return page.inner_text("#new-invite-url")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_new_invite_link_copies_with_one_tap_and_says_copied(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _gm, campaign = _gm_campaign(make_user)
    with _gm_page(browser, live_server.url) as page:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        link = _new_invite_link(page, live_server.url, campaign)
        assert link.startswith(f"{live_server.url}/")
        page.click("button:has-text('Copy link')")
        page.wait_for_selector("#new-invite-copied:has-text('Copied')")
        assert page.evaluate("navigator.clipboard.readText()") == link
        assert page.get_attribute("#new-invite-copied", "aria-live") == "polite"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_a_clipboard_the_copy_button_selects_the_link_to_copy_by_hand(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _gm, campaign = _gm_campaign(make_user)
    with _gm_page(browser, live_server.url) as page:
        # An older phone browser: no clipboard API, and the copy command refused.
        page.add_init_script(
            "Object.defineProperty(navigator, 'clipboard', {value: undefined});"
            "document.execCommand = () => false;"
        )
        link = _new_invite_link(page, live_server.url, campaign)
        page.click("button:has-text('Copy link')")
        page.wait_for_selector("#new-invite-copied:has-text('Link selected')")
        assert page.inner_text("#new-invite-copied") == "Link selected: copy it from the menu."
        assert page.evaluate("window.getSelection().toString()") == link
