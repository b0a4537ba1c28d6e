"""A GM's composer on a phone, in Chromium: with its mode and audience switches, the hint an
action's audience brings and a draft of several lines, Send still opens in the window; the
switches' captions are there for screen readers."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


def _phone_room(browser, base_url: str, make_user, email: str):
    """The room of Gail GM (gm@example.test) and Pat (pat@example.test), opened on a phone by
    `email`."""
    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = _sign_in(phone, base_url, email)
    _open(page, f"{base_url}/campaigns/{campaign.id}/room/")
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gms_send_stays_in_view_on_a_phone_with_the_action_hint_and_a_long_draft(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    page = _phone_room(browser, asgi_server, make_user, "gm@example.test")
    page.locator("#composer label", has_text="Action").tap()
    expect(page.locator("#audience-private-hint")).to_be_visible()
    page.locator("#composer-body").fill("\n".join(f"Line {n} of the ambush" for n in range(1, 6)))
    expect(page.locator("#composer button[type=submit]")).to_be_in_viewport(ratio=1)
    for name in ("Mode", "Audience"):
        expect(page.get_by_role("group", name=name, exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_composer_on_a_phone_is_no_wider_than_the_window(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    page = _phone_room(browser, asgi_server, make_user, "pat@example.test")
    expect(page.get_by_role("group", name="Mode", exact=True)).to_be_visible()
    expect(page.locator("#composer button[type=submit]")).to_be_in_viewport(ratio=1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
