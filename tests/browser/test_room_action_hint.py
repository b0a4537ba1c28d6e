"""A game command sent as chat: the sender alone is told, inline, that Action mode has the GM
run it, and one button sends it as an action (real browser, uvicorn)."""

from __future__ import annotations

import time

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

HINT = "That looks like a game action. Send it as an Action to have the GM run it."


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_command_sent_as_chat_offers_the_sender_to_send_it_as_an_action(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.turns.models import RoomTurnJob

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    with in_the_room(browser, asgi_server, campaign, "player@example.test", "gm@example.test") as (
        player,
        gm,
    ):
        body = player.locator("#composer-body")
        hint = player.locator("#composer-action-hint")

        # Plain talk: no hint.
        body.fill("Good evening, all.")
        body.press("Enter")
        _wait_for_texts(player, ["Good evening, all."])
        expect(hint).to_be_hidden()

        # A command as chat: sent as chat (no turn), and the hint says what Action mode does.
        body.fill("Attack the goblin")
        body.press("Enter")
        _wait_for_texts(player, ["Good evening, all.", "Attack the goblin"])
        expect(hint).to_be_visible()
        expect(hint).to_have_attribute("role", "status")
        expect(hint.locator(".composer__action-hint-text")).to_have_text(HINT)
        expect(body).to_be_focused()  # typing goes on; the hint does not take the cursor
        # Nobody else hears of it.
        _wait_for_texts(gm, ["Good evening, all.", "Attack the goblin"])
        expect(gm.locator("#composer-action-hint")).to_be_hidden()
        assert gm.get_by_text(HINT).count() == 0

        # Dismissed: gone, and the cursor back in the box.
        hint.get_by_role("button", name="Dismiss").click()
        expect(hint).to_be_hidden()
        expect(body).to_be_focused()

        # Again, and this time sent as an action: the button sends it, once, in Action mode,
        # and a draft begun meanwhile stays in the box.
        body.fill("roll 1d20")
        body.press("Enter")
        _wait_for_texts(player, ["Good evening, all.", "Attack the goblin", "roll 1d20"])
        expect(hint).to_be_visible()
        body.fill("and then")
        hint.get_by_role("button", name="Send as an Action").click()
        expect(hint).to_be_hidden()
        expect(player.locator("input[name=mode][value=action]")).to_be_checked()
        expect(body).to_have_value("and then")
        expect(body).to_be_focused()

        # The chat sends made no game effect; the button's send is the one action and turn.
        messages = Message.objects.filter(room__campaign=campaign, kind="message")
        deadline = time.monotonic() + 10
        while messages.count() < 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # long enough for a second send to land, were there one
        assert list(messages.order_by("sequence").values_list("mode", "body")) == [
            ("chat", "Good evening, all."),
            ("chat", "Attack the goblin"),
            ("chat", "roll 1d20"),
            ("action", "roll 1d20"),
        ]
        assert RoomTurnJob.objects.count() == 1
