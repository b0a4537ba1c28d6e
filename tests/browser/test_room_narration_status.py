"""The turn status a screen reader hears (#turn-announce) for a GM's narration turn, in Chromium
against uvicorn: the GM narrated, so it is "Your narration", not "Your action", while queued
and once done."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

NARRATION = "The bells fall silent."


@contextmanager
def _gm_narrates(browser, base_url: str, make_user):
    """A narrative table's GM and Ilsa in its room, the GM having just sent NARRATION as
    narration (a turn, which the test keeps queued). Yields (campaign, the GM's page)."""
    campaign, _users = table_for(
        make_user, system_id="narrative", name="Salt Road",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, base_url, campaign) as (gm, _ilsa):
        _say(gm, NARRATION, mode="narration")
        yield campaign, gm


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gms_narration_turn_is_heard_as_narration(
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

    with _gm_narrates(browser, asgi_server, make_user) as (campaign, gm):
        status = gm.locator("#turn-announce")
        expect(status).to_have_text("Your narration: Queued")
        expect(gm.locator("#turn-jobs li .turn-job__text")).to_have_text(NARRATION)

        job = RoomTurnJob.objects.get(campaign=campaign)
        assert job.task == "narration"
        RoomTurnJob.objects.filter(pk=job.pk).update(
            status="succeeded", finished_at=timezone.now(), updated_at=timezone.now()
        )
        job.refresh_from_db()
        job_announce(job)
        expect(status).to_have_text("Your narration: Done")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_narration_turn_read_on_opening_is_heard_as_narration(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    with _gm_narrates(browser, asgi_server, make_user) as (_campaign, gm):
        expect(gm.locator("#turn-jobs li")).to_have_count(1)
        # Opened again: the queued turn is read from the panels, its narration from the history.
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        expect(gm.locator("#turn-jobs li")).to_have_count(1)
        expect(gm.locator("#turn-announce")).to_have_text("Your narration: Queued")
