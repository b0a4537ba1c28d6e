"""A queued turn can be cancelled from its action in the timeline, where its author is looking
(on a phone "Turns in progress" is far below the composer), in Chromium: a "Cancel" beside
"Queued" for the player who acted and for the GM, doing what the panel's Cancel does, and gone
once the turn runs."""

from __future__ import annotations

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.turns.conftest import live_domains  # noqa: F401

LAST = "#timeline li[data-sequence]:last-child"


def _pinned(entry):
    """The entry itself, not whichever is last once the turn's answer comes after it."""
    sequence = entry.get_attribute("data-sequence")
    return entry.page.locator(f"#timeline li[data-sequence='{sequence}']")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_queued_turn_is_cancelled_from_its_timeline_entry_by_its_player_or_the_gm(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    from apps.turns.models import RoomTurnJob

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Gate Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    desk = browser.new_context(viewport=VIEWPORT)
    nia = _sign_in(phone, asgi_server, "nia@example.test")
    gm = _sign_in(desk, asgi_server, "gm@example.test")
    for page in (nia, gm):
        _open(page, room_url)

    # The player, on a phone: Cancel beside Queued, in view under the composer's reply.
    _say(nia, "roll 1d20", mode="action")
    cancel = nia.locator(f"{LAST} .entry__cancel")
    expect(nia.locator(f"{LAST} .entry__turn")).to_have_text("Queued")
    expect(cancel).to_have_text("Cancel")
    expect(cancel).to_have_accessible_name("Cancel your turn: roll 1d20 (Queued)")
    expect(cancel).to_be_in_viewport()
    # The GM sees it on the player's action too.
    expect(gm.locator(f"{LAST} .entry__cancel")).to_have_accessible_name(
        "Cancel the turn of Nia Player: roll 1d20 (Queued)"
    )
    cancel.click()
    expect(nia.locator(f"{LAST} .entry__body")).to_have_text(
        "You cancelled “roll 1d20” before it ran."
    )
    expect(gm.locator(f"{LAST} .entry__body")).to_have_text(
        "Nia Player cancelled “roll 1d20” before it ran."
    )
    for page in (nia, gm):
        expect(page.locator("#timeline .entry__cancel")).to_have_count(0)
        expect(page.locator("#turn-jobs li")).to_have_count(0)
    # Its Cancel gone, the focus is back where the next action is written.
    expect(nia.locator("#composer-body")).to_be_focused()

    # The GM, at a desk, cancels a player's turn from the timeline, by keyboard.
    _say(nia, "roll 1d4", mode="action")
    gm_cancel = gm.locator(f"{LAST} .entry__cancel")
    gm_cancel.focus()
    gm.keyboard.press("Enter")
    expect(gm.locator(f"{LAST} .entry__body")).to_have_text(
        "You cancelled “roll 1d4” before it ran."
    )
    expect(nia.locator(f"{LAST} .entry__body")).to_have_text(
        "Gail GM cancelled “roll 1d4” before it ran."
    )
    expect(gm.locator("#timeline .entry__cancel")).to_have_count(0)

    # A turn that runs can no longer be cancelled from the timeline (the panel's Cancel asks
    # the worker to stop); opened afresh, its action says Running and offers no Cancel.
    _say(nia, "roll 1d6", mode="action")
    expect(nia.locator(f"{LAST} .entry__cancel")).to_have_count(1)
    RoomTurnJob.objects.filter(text="roll 1d6").update(status=RoomTurnJob.Status.RUNNING)
    _open(nia, room_url)
    expect(nia.locator(f"{LAST} .entry__turn")).to_have_text("Running")
    expect(nia.locator("#timeline .entry__cancel")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cancel_from_the_timeline_too_late_says_so_beside_the_action(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_event_record
    from apps.turns.models import RoomTurnJob

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Late Keep",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    nia = _sign_in(phone, asgi_server, "nia@example.test")
    _open(nia, f"{asgi_server}/campaigns/{campaign.id}/room/")
    _say(nia, "roll 1d20", mode="action")
    expect(nia.locator(f"{LAST} .entry__cancel")).to_have_count(1)
    action = _pinned(nia.locator(LAST))

    def finished_first(route):
        # The turn ends just before the cancel reaches the server.
        RoomTurnJob.objects.filter(text="roll 1d20").update(status=RoomTurnJob.Status.SUCCEEDED)
        route.continue_()

    nia.route("**/jobs/*/cancel", finished_first)
    action.locator(".entry__cancel").click()
    # Said where the reader tapped, not only in the list far below.
    too_late = "Too late to cancel: the turn finished first (Done)."
    expect(action.locator(".entry__cancel-error")).to_have_text(too_late)
    expect(nia.locator("#turn-jobs-error")).to_have_text(too_late)
    expect(action.locator(".entry__cancel")).to_have_count(0)
    # The turn's answer arrives: it says what happened instead, and the note goes.
    job = RoomTurnJob.objects.get(text="roll 1d20")
    room_event_record(
        campaign=campaign, event_type="turn.narration", body="The die rolls a 14.",
        data={"job_id": str(job.pk)},
    )  # fmt: skip
    expect(nia.locator("#timeline li[data-sequence]").last).to_contain_text("The die rolls a 14.")
    expect(action.locator(".entry__cancel-error")).to_have_count(0)
    # And from "Turns in progress", where it said the same.
    expect(nia.locator("#turn-jobs-error")).to_be_hidden()

    # Its answer in the timeline before the cancel's reply: the note says so, and goes once it
    # has been there long enough to be read.
    nia.clock.install()
    _say(nia, "roll 1d4", mode="action")
    expect(nia.locator(f"{LAST} .entry__cancel")).to_have_count(1)
    action = _pinned(nia.locator(LAST))
    held = []
    nia.unroute("**/jobs/*/cancel")
    nia.route("**/jobs/*/cancel", lambda route: held.append(route))
    with nia.expect_request("**/jobs/*/cancel"):
        action.locator(".entry__cancel").click()
    for _ in range(100):  # the request's route comes just after it
        if held:
            break
        nia.wait_for_timeout(20)
    assert len(held) == 1
    job = RoomTurnJob.objects.get(text="roll 1d4")
    RoomTurnJob.objects.filter(pk=job.pk).update(status=RoomTurnJob.Status.SUCCEEDED)
    room_event_record(
        campaign=campaign, event_type="turn.narration", body="The die rolls a 3.",
        data={"job_id": str(job.pk)},
    )  # fmt: skip
    expect(nia.locator("#timeline li[data-sequence]").last).to_contain_text("The die rolls a 3.")
    held[0].continue_()
    expect(action.locator(".entry__cancel-error")).to_have_text(too_late)
    nia.clock.run_for(4000)
    expect(action.locator(".entry__cancel-error")).to_have_text(too_late)
    expect(nia.locator("#turn-jobs-error")).to_have_text(too_late)
    nia.clock.run_for(5000)
    expect(action.locator(".entry__cancel-error")).to_have_count(0)
    expect(nia.locator("#turn-jobs-error")).to_be_hidden()
