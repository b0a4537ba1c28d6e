"""The room leads back to its campaign's page (its members, invitations, settings), in Chromium
at a phone's and a laptop's width: a link under who is here, in view beside the timeline on a
laptop, and on a phone below the message box, which still opens with Send in the window."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_room_links_to_its_campaign_page(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = _sign_in(context, asgi_server, "gm@example.test")
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        _open(page, room_url)
        link = page.locator(".room__side").get_by_role("link", name="Campaign page", exact=True)
        expect(link).to_have_attribute("href", f"/campaigns/{campaign.id}/")
        expect(page.locator("#composer button[type=submit]")).to_be_in_viewport(ratio=1)
        if width > 900:
            expect(link).to_be_in_viewport(ratio=1)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    link.click()
    expect(page.locator("h1")).to_contain_text("The Sunless Citadel")
    assert page.url == f"{asgi_server}/campaigns/{campaign.id}/"
