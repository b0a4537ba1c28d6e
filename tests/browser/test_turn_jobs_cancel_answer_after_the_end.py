"""A cancel's answer that arrives after the panel has said the turn ended ("running, cancel
asked" from before its end): the turn does not come back into "Turns in progress", where
nothing would take it out again until the next refresh."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_feedback import _job
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_late_cancel_answer_does_not_bring_an_ended_turn_back(
    browser,
    asgi_server,  # noqa: F811
    live_domains,
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Late Answer",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        asked = {**_job("job-c", "running"), "cancel_requested": True}
        held = []
        page.route("**/room/jobs/job-c/cancel", lambda route: held.append(route))  # answered late
        page.route("**/room/jobs/job-c", lambda route: route.fulfill(json=asked))
        rows = page.locator("#turn-jobs li")
        # The turn shows, its Cancel is pressed, and the panel's refresh (the server lists no
        # such turn: it has ended) takes it out and asks how it ended.
        with page.expect_request("**/room/jobs/job-c"):
            page.evaluate(
                """job => {
                    document.dispatchEvent(new CustomEvent("room:job", {detail: job}));
                    document.querySelector(`#turn-jobs li[data-job="${job.id}"] button`).click();
                }""",
                _job("job-c", "running"),
            )
        expect(rows).to_have_count(0)
        page.evaluate(
            """() => { window.rowsAdded = 0;
                new MutationObserver((changes) => { window.rowsAdded += changes.reduce(
                  (n, c) => n + c.addedNodes.length, 0); })
                .observe(document.getElementById("turn-jobs"), {childList: true}); }"""
        )
        # Now the cancel's answer, from before the end.
        with page.expect_response("**/room/jobs/job-c/cancel"):
            held[0].fulfill(json=asked)
        page.wait_for_timeout(300)  # long enough for the answer to be drawn, were it
        assert (page.evaluate("() => window.rowsAdded"), rows.count()) == (0, 0)
