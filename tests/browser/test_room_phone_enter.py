"""The composer's Enter key in Chromium: on a phone (a touch screen, a narrow window) it starts
a new line and the Send button (or Ctrl+Enter) sends, as on-screen keyboards lead people to
expect; on a desktop Enter sends and Shift+Enter starts a new line. The box's placeholder says
which."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, _texts, _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_enter_starts_a_new_line_on_a_phone_and_sends_on_a_desktop(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    desktop = browser.new_context(viewport={"width": 1280, "height": 900})
    pat = _sign_in(phone, asgi_server, "pat@example.test")
    _open(pat, room_url)
    body = pat.locator("#composer-body")
    expect(body).to_have_attribute("placeholder", "Write a message")
    body.fill("line one")
    body.press("Enter")
    body.press_sequentially("line two")
    expect(body).to_have_value("line one\nline two")
    assert _texts(pat) == []
    pat.locator("#composer button[type=submit]").tap()
    _wait_for_texts(pat, ["line one\nline two"])
    expect(body).to_have_value("")
    # A keyboard attached to the phone sends with Ctrl+Enter, as many apps there do.
    body.fill("typed on a keyboard")
    body.press("Control+Enter")
    _wait_for_texts(pat, ["line one\nline two", "typed on a keyboard"])

    gail = _sign_in(desktop, asgi_server, "gm@example.test")
    _open(gail, room_url)
    body = gail.locator("#composer-body")
    expect(body).to_have_attribute(
        "placeholder", "Write a message — Enter sends, Shift+Enter for a new line"
    )
    body.fill("first")
    body.press("Shift+Enter")
    body.press_sequentially("second")
    expect(body).to_have_value("first\nsecond")
    body.press("Enter")
    _wait_for_texts(gail, ["line one\nline two", "typed on a keyboard", "first\nsecond"])
