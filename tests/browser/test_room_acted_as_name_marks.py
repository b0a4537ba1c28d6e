"""The "as <character>" badge of an action shows the character's name as written, in Chromium
against uvicorn: a name holding "$&" (which a string replacement reads as "the matched text")
is not mangled."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

NAME = "Mo$&e"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_action_made_as_a_character_named_with_dollar_marks_shows_that_name(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, mine = fighters_table(make_user, name="Marks", fighters=(NAME, "Kara"))
    ids = {name: char_id for char_id, name in mine.items()}
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (player,):
        player.locator("#composer-character").select_option(ids[NAME])
        _say(player, "roll 1d20", mode="action")
        _settle(campaign, 1)
        action = player.locator("#timeline li.entry--action").last
        expect(action.locator(".badge--character")).to_have_text(f"As {NAME}")
