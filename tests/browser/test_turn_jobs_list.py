"""Turns in progress keep the newest word on each job: a panel read answered before a turn ended
(a fetch overtaken by the turn's last event) does not bring it back as in progress, and one
answered before a turn began does not end it."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from tests.browser.conftest import table_for, wait_until_true
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


def _serve_stale_panel(page, panel_url: str) -> list[str]:
    """Read the panel now and answer every later read with it; returns the reads answered."""
    stale = page.evaluate(
        "async (url) => (await fetch(url, {credentials: 'same-origin'})).text()", panel_url
    )
    served: list[str] = []

    def stale_panel(route):
        served.append(route.request.url)
        route.fulfill(status=200, content_type="application/json", body=stale)

    page.route("**/room/panel*", stale_panel)
    served.append("stale: " + ",".join(job["status"] for job in json.loads(stale)["jobs"]))
    return served


def _after_a_stale_read(page, served: list[str]) -> None:
    """Wait for the page to read the panel again (a turn.job event makes it) and draw it."""
    for _ in range(100):
        if len(served) > 1:
            break
        page.wait_for_timeout(50)
    assert len(served) > 1, "the page never read the panel again"
    page.wait_for_timeout(500)  # time for the stale answer to be merged and drawn


@contextmanager
def _nia_in_her_room(browser, base_url, make_user):
    """Nia, a player, in a dnd5e room (its tests keep turns queued: `turns_stay_queued`)."""
    from playwright.sync_api import expect

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Stale Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, base_url, "nia@example.test")
        page.goto(f"{base_url}/campaigns/{campaign.id}/room/")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        yield page, campaign, users["nia@example.test"]
    finally:
        context.close()


def _panel_url(base_url, campaign) -> str:
    return f"{base_url}/api/campaigns/{campaign.id}/room/panel"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_panel_read_from_before_a_turn_ended_does_not_bring_it_back(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.turns.models import RoomTurnJob
    from apps.turns.services import turn_cancel

    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, nia):
        _say(page, "roll 1d20", mode="action")
        rows = page.locator("#turn-jobs li")
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-status", "queued")
        served = _serve_stale_panel(page, _panel_url(asgi_server, campaign))
        assert served == ["stale: queued"]
        job = RoomTurnJob.objects.get(campaign=campaign)
        turn_cancel(job=job, membership=CampaignMembership.objects.get(campaign=campaign, user=nia))
        expect(rows).to_have_count(0)  # its turn.job event; the page then reads the panel
        _after_a_stale_read(page, served)
        expect(rows).to_have_count(0)
        expect(page.locator("#turn-jobs-empty")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_panel_read_from_before_a_turn_began_does_not_end_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, _nia):
        served = _serve_stale_panel(page, _panel_url(asgi_server, campaign))
        assert served == ["stale: "]
        _say(page, "roll 1d20", mode="action")
        rows = page.locator("#turn-jobs li")
        expect(rows).to_have_count(1)
        _after_a_stale_read(page, served)
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-status", "queued")


# Every text the jobs announcer is given, in order (it is emptied first, then filled a tick
# later, so each announcement is one non-empty change).
RECORD_ANNOUNCER = """() => {
  window.said = [];
  const node = document.getElementById("turn-announce");
  new MutationObserver(() => { if (node.textContent) window.said.push(node.textContent); })
    .observe(node, { childList: true, characterData: true, subtree: true });
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_screen_reader_hears_each_status_of_an_attempt_once(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.turns.models import RoomTurnJob
    from apps.turns.services.jobs import job_announce

    def move(job, **changes):
        # As the worker writes it: a new view of the job, and its turn.job event.
        RoomTurnJob.objects.filter(pk=job.pk).update(updated_at=timezone.now(), **changes)
        job.refresh_from_db()
        job_announce(job)

    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, _nia):
        page.evaluate(RECORD_ANNOUNCER)
        _say(page, "roll 1d20", mode="action")
        row = page.locator("#turn-jobs li")
        expect(row).to_have_attribute("data-status", "queued")
        job = RoomTurnJob.objects.get(campaign=campaign)
        move(job, status="running", attempt=1)
        expect(row).to_have_attribute("data-status", "running")
        job_announce(job)  # the same event again, as a replay delivers it
        move(job)  # a newer view with the same status (a heartbeat moved updated_at)
        move(job, status="waiting", error_code="domain_timeout", retryable=True,
             error_message="The rules server did not answer.")  # fmt: skip
        expect(row).to_have_attribute("data-status", "waiting")
        move(job, status="running")  # the same attempt goes on (its publication waited)
        expect(row).to_have_attribute("data-status", "running")
        move(job, status="waiting")
        move(job, status="running", attempt=2)  # a new attempt: news
        expect(row).to_have_attribute("data-status", "running")
        move(job, status="succeeded", finished_at=timezone.now(), error_code="",
             error_message="")  # fmt: skip
        expect(row).to_have_count(0)
        wait_until_true(page, "window.said.includes('Your action: Done')")
        page.wait_for_timeout(500)  # time for a late repeat to be said
        assert page.evaluate("window.said") == [
            "Your action: Queued",
            "Your action: Running",
            "Your action: Waiting to retry — The rules server did not answer.",
            "Your action: Running",  # the last attempt's error is not this one's
            "Your action: Done",
        ]


RECORD_ANNOUNCER_TIMES = """() => {
  window.heard = [];
  const node = document.getElementById("turn-announce");
  new MutationObserver(() => {
    if (node.textContent) window.heard.push([node.textContent, performance.now()]);
  }).observe(node, { childList: true, characterData: true, subtree: true });
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_statuses_that_come_at_once_are_each_said_in_turn(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    """A fast turn's statuses arrive milliseconds apart: each one stays in the live region
    long enough to be read, instead of the next replacing it before a screen reader speaks."""
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.turns.models import RoomTurnJob
    from apps.turns.services.jobs import job_announce

    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, _nia):
        _say(page, "roll 1d20", mode="action")
        row = page.locator("#turn-jobs li")
        expect(row).to_have_attribute("data-status", "queued")
        page.wait_for_timeout(1500)  # "Queued" said and read
        page.evaluate(RECORD_ANNOUNCER_TIMES)
        job = RoomTurnJob.objects.get(campaign=campaign)
        for changes in ({"status": "running", "attempt": 1},
                        {"status": "succeeded", "finished_at": timezone.now()}):  # fmt: skip
            RoomTurnJob.objects.filter(pk=job.pk).update(updated_at=timezone.now(), **changes)
            job.refresh_from_db()
            job_announce(job)
        wait_until_true(page, "window.heard.length >= 2", timeout=10)
        page.wait_for_timeout(300)
        heard = page.evaluate("window.heard")
        assert [text for text, _at in heard] == ["Your action: Running", "Your action: Done"]
        assert heard[1][1] - heard[0][1] >= 500, heard
