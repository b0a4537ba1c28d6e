"""A turn that failed for good, in Chromium with a real dnd5e server and the turn worker in
Celery's eager mode: what its player reads in the timeline."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_failed_turn_tells_its_player_why_and_what_to_do_marked_as_a_failure(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    settings,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.turns.models import RoomTurnJob

    # Every publication fails, and the first failure is the last try.
    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 1
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:100")
    campaign, _users, _mine = fighters_table(make_user, name="Failing Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(ilsa, "describe", mode="action")
        _settle(campaign, 1)
        job = RoomTurnJob.objects.get(campaign=campaign)
        assert (job.status, job.error_message, job.recovery) == (
            "failed", "Injected publication fault.", "Act again.",
        )  # fmt: skip
        failed = ilsa.locator("#timeline li.entry--failed")
        expect(failed.locator(".entry__body")).to_have_text(
            "Injected publication fault. Act again."
        )
        expect(failed.locator(".entry__sender")).to_have_text("Room")
        expect(failed.locator(".badge--failed")).to_have_text("Failed")
        # The GM reads the private entry too: marked alike, without telling them to act again.
        seen_by_gm = gm.locator("#timeline li.entry--failed")
        expect(seen_by_gm.locator(".entry__body")).to_have_text("Injected publication fault.")
        expect(seen_by_gm.locator(".badge--failed")).to_have_text("Failed")
