"""A turn that failed for good, in Chromium with a real dnd5e server and the turn worker in
Celery's eager mode: what its player reads in the timeline."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room, in_the_room
from tests.browser.test_room_entry_lists import STRUCTURE
from tests.browser.test_room_history import _gm_and_player
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


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_failures_recovery_after_a_list_reads_as_its_own_paragraph_not_the_last_item(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_event_record

    campaign, _gm_m, player_m = _gm_and_player(make_user)
    message = (
        "The rules refused the attack:\n- the target is out of reach\n- Pat has no action left"
    )
    with in_the_room(browser, asgi_server, campaign, "player@example.test") as (pat,):
        # The player's own outcome of a failed turn, as publication tells it to them.
        room_event_record(
            campaign=campaign, event_type="turn.outcome", body=message,
            data={"status": "failed", "error": {
                "code": "refused", "message": message, "retryable": False,
                "recovery": "Act again.",
            }},
            audience=Message.Audience.PRIVATE, recipient_ids=[str(player_m.user_id)],
        )  # fmt: skip
        failed = pat.locator("#timeline li.entry--failed")
        expect(failed).to_have_count(1)
        assert failed.locator(".entry__body").evaluate(STRUCTURE) == {
            "tag": "DIV",
            "cls": "entry__body entry__body--blocks",
            "blocks": [
                ["P", "entry__caption", "The rules refused the attack:"],
                ["UL", "entry__list", [
                    ["LI", "the target is out of reach"], ["LI", "Pat has no action left"],
                ]],
                ["P", "entry__para", "Act again."],
            ],
        }  # fmt: skip
        # Heard as its own sentence after the list's, too.
        expect(pat.locator("#timeline-announcer p")).to_have_text([
            "Room (Private: you, Failed): The rules refused the attack: the target is out of "
            "reach; Pat has no action left. Act again."
        ])  # fmt: skip
