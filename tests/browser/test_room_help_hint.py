"""Help asked for in chat ("help", "?", "commands" as the whole message): chat goes to the
table, not the GM, so the sender alone is told that the GM answers it as an Action, and one
button sends it so. Help words inside talk ("help me with this door") are talk: no hint (real
browser, uvicorn)."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_history import _gm_and_player
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401

HELP_HINT = "The GM answers actions, not chat. Send it as an Action for the GM's help."


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_help_asked_in_chat_offers_the_sender_to_ask_the_gm_as_an_action(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.turns.models import RoomTurnJob

    campaign, _gm, _pat = _gm_and_player(make_user)
    with in_the_room(browser, asgi_server, campaign, "player@example.test", "gm@example.test") as (
        player,
        gm,
    ):
        body = player.locator("#composer-body")
        hint = player.locator("#composer-action-hint")
        said = []
        for text, offered in (
            ("help", True),
            ("Help me with this door", False),
            ("?", True),
            ("Commands", True),
            ("help…", True),
            ("help!", True),
        ):
            body.fill(text)
            body.press("Enter")
            said.append(text)
            _wait_for_texts(player, said)
            if offered:
                expect(hint.locator(".composer__action-hint-text")).to_have_text(HELP_HINT)
            else:
                expect(hint).to_be_empty()
        # Nobody else hears of it.
        _wait_for_texts(gm, said)
        expect(gm.locator("#composer-action-hint")).to_be_empty()

        # The button sends the words as an action, once, and the talk goes on as chat.
        hint.get_by_role("button", name="Send as an Action").click()
        expect(hint).to_be_empty()
        expect(player.locator("input[name=mode][value=chat]")).to_be_checked()
        messages = Message.objects.filter(room__campaign=campaign, kind="message")
        deadline = time.monotonic() + 10
        while messages.count() < len(said) + 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # long enough for a second send to land, were there one
        assert list(messages.order_by("sequence").values_list("mode", "body")) == [
            *(("chat", text) for text in said),
            ("action", "help!"),
        ]
        assert RoomTurnJob.objects.count() == 1
