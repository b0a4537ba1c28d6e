"""What the room's controls are called, in a real browser against uvicorn: a name holds the
words the control shows (a speech-input user says what they see), and says what it acts on."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_feedback import _job
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_turns_cancel_button_is_named_by_what_it_shows_cancelling_too(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Named Cancel",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        # Changed after any panel read: the panel's own list does not end it.
        running = {**_job("job-n", "running"), "updated_at": "2999-01-01T00:00:00Z"}
        page.route(
            "**/room/jobs/job-n/cancel",
            lambda route: route.fulfill(json={**running, "cancel_requested": True}),
        )
        page.evaluate(
            'job => document.dispatchEvent(new CustomEvent("room:job", {detail: job}))', running
        )
        button = page.locator('#turn-jobs li[data-job="job-n"] button')
        expect(button).to_have_text("Cancel")
        expect(button).to_have_accessible_name("Cancel this turn: I pick the lock (Running)")
        button.focus()
        page.keyboard.press("Enter")
        # Busy, it shows "Cancelling…": its name says so too, not "Cancel this turn".
        expect(button).to_have_text("Cancelling…")
        expect(button).to_have_attribute("aria-disabled", "true")
        expect(button).to_have_accessible_name("Cancelling… I pick the lock")
        # Drawn again by the next read of the job, it keeps that name.
        page.evaluate(
            """job => document.dispatchEvent(new CustomEvent("room:event", {detail: {
                type: "event", event_type: "turn.job", payload: job}}))""",
            {**running, "cancel_requested": True, "updated_at": "2999-01-01T00:00:01Z"},
        )
        expect(button).to_have_accessible_name("Cancelling… I pick the lock")
