"""The turn status a screen reader can browse to (#turn-announce), in Chromium against uvicorn:
it says what holds now. A status still true stays; once the action has ended or the go is
over, it is cleared instead of being read later as if it were still so."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _combat, _settle
from tests.browser.test_turn_jobs_list import _nia_in_her_room
from tests.turns.rooms_support import eager  # noqa: F401

# An ended action's status is news: kept this long (plus its hold) to be read, then cleared.
NEWS_SECONDS = 5


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_actions_status_is_kept_while_true_and_cleared_once_it_ended(
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

    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, _nia):
        status = page.locator("#turn-announce")
        _say(page, "roll 1d20", mode="action")
        expect(status).to_have_text("Your action: Queued")
        page.wait_for_timeout((NEWS_SECONDS + 1) * 1000)
        expect(status).to_have_text("Your action: Queued")  # still queued: still so

        job = RoomTurnJob.objects.get(campaign=campaign)
        RoomTurnJob.objects.filter(pk=job.pk).update(
            status="succeeded", finished_at=timezone.now(), updated_at=timezone.now()
        )
        job.refresh_from_db()
        job_announce(job)
        expect(status).to_have_text("Your action: Done")
        expect(status).to_have_text("", timeout=(NEWS_SECONDS + 5) * 1000)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_your_turn_is_cleared_once_the_go_is_over(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.accounts.models import User

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Passing Go") as (
        campaign,
        gm,
        ilsa,
    ):
        gm_user = User.objects.get(email="gm@example.test")
        combat = _combat(campaign, gm_user)
        (ilsa_id,) = [e["id"] for e in combat["order"] if e["character"]["kind"] != "monster"]
        status = ilsa.locator("#turn-announce")
        jobs = 1
        if combat["current"] != ilsa_id:  # the goblin first: the GM ends its go
            _say(gm, "end turn", mode="action")
            jobs += 1
            _settle(campaign, jobs)
        assert _combat(campaign, gm_user)["current"] == ilsa_id
        expect(status).to_have_text("Your turn: Ilsa")

        # The GM ends the fight: Ilsa's go is over without any action of hers to say so.
        _say(gm, "end combat", mode="action")
        jobs += 1
        _settle(campaign, jobs)
        expect(ilsa.locator("#turn-combat")).to_be_hidden()
        expect(status).to_have_text("")
