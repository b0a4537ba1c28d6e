"""A game master's own words in the timeline, in Chromium against uvicorn: a GM's chat carries a
"GM" badge beside their name, seen and heard by everyone in the room, so the table tells the
GM's table talk from a player's; a player's chat carries none."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_game_masters_chat_is_marked_gm_and_a_players_is_not(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, pat):
        _say(gm, "Welcome to the table")
        _wait_for_texts(pat, ["Welcome to the table"])
        _say(pat, "Hello")
        for page in (gm, pat):
            _wait_for_texts(page, ["Welcome to the table", "Hello"])
            entries = page.locator("#timeline li[data-sequence]")
            expect(entries.first.locator(".entry__role")).to_have_text("GM")
            expect(entries.last.locator(".entry__role")).to_have_count(0)
        # Heard with the name, as it is seen (not hidden from the accessibility tree).
        expect(
            pat.locator("#timeline li[data-sequence]").first.locator(".entry__head")
        ).to_match_aria_snapshot("- strong: Gail GM\n- text: GM")
        # The GM's own message is marked while it is being sent, as it will be once sent.
        gm.route("**/room/messages", lambda route: None)  # held: the message stays pending
        _say(gm, "One more thing")
        pending = gm.locator("#timeline li.entry--pending")
        expect(pending.locator(".entry__role")).to_have_text("GM")
