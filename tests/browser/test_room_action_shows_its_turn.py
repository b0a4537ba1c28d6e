"""An action whose turn is still in progress says so in the timeline, where the player who
sent it is looking (on a phone "Turns in progress" is far below), in Chromium: "Queued" beside
it while the turn waits, after a reload too, and gone once the turn ends."""

from __future__ import annotations

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, _sign_in, _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_action_in_progress_is_marked_in_the_timeline_until_its_turn_ends(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Stale Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        nia = _sign_in(context, asgi_server, "nia@example.test")
        room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
        _open(nia, room_url)
        _say(nia, "Hello, keep.")
        _say(nia, "roll 1d20", mode="action")
        _wait_for_texts(nia, ["Hello, keep.", "roll 1d20"])
        entries = nia.locator("#timeline li[data-sequence]")
        action = entries.last
        status = action.locator(".entry__turn")
        expect(status).to_have_text("Queued")
        expect(status).to_be_in_viewport()
        expect(entries.first.locator(".entry__turn")).to_have_count(0)

        # Opened afresh: still queued, still said.
        _open(nia, room_url)
        expect(entries.last.locator(".entry__turn")).to_have_text("Queued")

        # Cancelled: the turn ended, and the mark with it.
        nia.locator(".turn-job__cancel").click()
        expect(nia.locator("#timeline li[data-sequence]").last).to_contain_text("cancelled")
        expect(nia.locator("#timeline .entry__turn")).to_have_count(0)
    finally:
        context.close()
