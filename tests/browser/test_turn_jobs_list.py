"""Turns in progress keep the newest word on each job: a panel read answered before a turn ended
(a fetch overtaken by the turn's last event) does not bring it back as in progress."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.turns.conftest import live_domains  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_panel_read_from_before_a_turn_ended_does_not_bring_it_back(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.turns.models import RoomTurnJob
    from apps.turns.services import turn_cancel

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Stale Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    # The turn stays queued until it is cancelled: nothing runs it.
    monkeypatch.setattr("apps.turns.services.jobs.enqueue_run", lambda *a, **k: None)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "nia@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        _say(page, "roll 1d20", mode="action")
        rows = page.locator("#turn-jobs li")
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-status", "queued")
        # The panel as read while the turn was queued, served to every later read.
        stale = page.evaluate(
            "async (url) => (await fetch(url, {credentials: 'same-origin'})).text()",
            f"{asgi_server}/api/campaigns/{campaign.id}/room/panel",
        )
        assert [job["status"] for job in json.loads(stale)["jobs"]] == ["queued"]
        served = []

        def stale_panel(route):
            served.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body=stale)

        page.route("**/room/panel*", stale_panel)
        job = RoomTurnJob.objects.get(campaign=campaign)
        nia = CampaignMembership.objects.get(campaign=campaign, user=users["nia@example.test"])
        turn_cancel(job=job, membership=nia)  # its turn.job event makes the page read the panel
        expect(rows).to_have_count(0)
        for _ in range(100):  # the page asks for the panel once the cancel's event arrives
            if served:
                break
            page.wait_for_timeout(50)
        assert served, "the page never read the panel again"
        page.wait_for_timeout(500)  # time for the stale answer to be merged and drawn
        expect(rows).to_have_count(0)
        expect(page.locator("#turn-jobs-empty")).to_be_visible()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_panel_read_from_before_a_turn_began_does_not_end_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Early Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    monkeypatch.setattr("apps.turns.services.jobs.enqueue_run", lambda *a, **k: None)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "nia@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        # The panel as read before the turn was asked for, served to every later read.
        stale = page.evaluate(
            "async (url) => (await fetch(url, {credentials: 'same-origin'})).text()",
            f"{asgi_server}/api/campaigns/{campaign.id}/room/panel",
        )
        assert json.loads(stale)["jobs"] == []
        served = []

        def stale_panel(route):
            served.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body=stale)

        page.route("**/room/panel*", stale_panel)
        _say(page, "roll 1d20", mode="action")
        rows = page.locator("#turn-jobs li")
        expect(rows).to_have_count(1)
        for _ in range(100):
            if served:
                break
            page.wait_for_timeout(50)
        assert served, "the page never read the panel again"
        page.wait_for_timeout(500)
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-status", "queued")
    finally:
        context.close()
