"""Turn panels as a player meets them over a session, in a real browser against uvicorn and the
real domain servers: a note about one turn does not stay on to describe the next ones."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_feedback import _job
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_too_late_cancel_note_goes_when_the_player_acts_again(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Too Late",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        # A cancel that reaches a turn as it finishes: the page says it came too late. (Changed
        # after any panel read: the panel's own list does not end it first.)
        running = {**_job("job-a", "running"), "updated_at": "2999-01-01T00:00:00Z"}
        page.route(
            "**/room/jobs/job-a/cancel",
            lambda route: route.fulfill(json={**running, "cancel_requested": True}),
        )
        page.evaluate(
            """job => {
                document.dispatchEvent(new CustomEvent("room:job", {detail: job}));
                document.querySelector(`#turn-jobs li[data-job="${job.id}"] button`).click();
            }""",
            running,
        )
        expect(page.locator("#turn-jobs li button")).to_have_text("Cancelling…")
        done = {**running, "status": "succeeded", "cancel_requested": True}
        page.evaluate(
            """job => document.dispatchEvent(new CustomEvent("room:event", {detail: {
                type: "event", event_type: "turn.job", payload: job}}))""",
            {**done, "updated_at": "2999-01-01T00:00:01Z"},
        )
        note = page.locator("#turn-jobs-error")
        expect(note).to_have_text("Too late to cancel: the turn finished first (Done).")

        # The player's next action is another turn: the note about the last one goes.
        _say(page, "roll 1d20", mode="action")
        _settle(campaign, 1)
        expect(page.locator("#timeline .entry--event .entry__body")).to_have_count(1)
        expect(note).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_cancelling_a_turn_by_keyboard_keeps_focus_until_the_row_goes(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Keyboard Cancel",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        # Changed after any panel read: the panel's own list does not end it.
        running = {**_job("job-k", "running"), "updated_at": "2999-01-01T00:00:00Z"}
        asked = []

        def cancel(route):
            asked.append(route.request.url)
            route.fulfill(json={**running, "cancel_requested": True})

        page.route("**/room/jobs/job-k/cancel", cancel)
        page.evaluate(
            'job => document.dispatchEvent(new CustomEvent("room:job", {detail: job}))', running
        )
        button = page.locator('#turn-jobs li[data-job="job-k"] button')
        button.focus()
        page.keyboard.press("Enter")
        # Asked once, and still where the keyboard is: busy, not disabled (which drops focus).
        expect(button).to_have_text("Cancelling…")
        expect(button).to_have_attribute("aria-disabled", "true")
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(button).to_be_focused()
        assert len(asked) == 1

        # The turn ends: its row goes, and the focus goes to the message box, not the page's top.
        page.evaluate(
            """job => document.dispatchEvent(new CustomEvent("room:event", {detail: {
                type: "event", event_type: "turn.job", payload: job}}))""",
            {**running, "status": "cancelled", "updated_at": "2999-01-01T00:00:01Z"},
        )
        expect(page.locator("#turn-jobs li")).to_have_count(0)
        expect(page.locator("#composer-body")).to_be_focused()
