"""The room page's console stays clean through a connection's ups and downs (a message written
offline included), in a real browser against uvicorn: errors there are what a tester looks at
first, and a page that fills it with expected failures hides the real ones."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_offline_room_waits_for_the_network_instead_of_logging_failed_connections(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        context.set_offline(True)
        expect(page.locator("#room")).to_have_attribute("data-state", "reconnecting")
        page.wait_for_timeout(2500)  # past several tries' backoff
        context.set_offline(False)
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        # (Without domain servers here, the panels' read answers 404: not this flow's.)
        assert [text for text in errors if "WebSocket" in text] == []
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_message_written_offline_waits_for_the_network_and_is_sent_once_back(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_live import _say, _wait_for_texts

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        context.set_offline(True)
        expect(page.locator("#room")).to_have_attribute("data-state", "reconnecting")
        _say(page, "Written in the storm.")
        # Said to be waiting, and not tried (and failed) again and again meanwhile.
        expect(page.locator("#timeline .entry__pending")).to_have_text("Not sent yet — retrying")
        page.wait_for_timeout(2500)
        context.set_offline(False)
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        _wait_for_texts(page, ["Written in the storm."])
        expect(page.locator("#timeline .entry__pending")).to_have_count(0)
        # (Without domain servers here, the panels' read answers 404: not this flow's.)
        assert [text for text in errors if "404" not in text] == []
    finally:
        context.close()
