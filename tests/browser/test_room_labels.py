"""What the room page names, in a real browser against uvicorn: who an entry is from (the game
master's narration, the room's own notices)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.conftest import live_domains  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

SENDERS = "#timeline li[data-sequence] .entry__sender"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_game_masters_narration_is_labelled_game_master_and_room_notices_stay_room(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_event_record
    from apps.turns.services.jobs import OUTCOME_EVENT

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Who Speaks",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    # A notice of the room's own (a turn that ended unanswered), in the history the page opens on.
    room_event_record(
        campaign=campaign, event_type=OUTCOME_EVENT, body="“open the door” was cancelled.",
        data={"job_id": "job-x", "status": "cancelled"}, audience=Message.Audience.PUBLIC,
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        expect(ilsa.locator(SENDERS)).to_have_text(["Room"])
        _say(ilsa, "roll 1d20 for luck", mode="action")
        _settle(campaign, 1)
        narration = Message.objects.get(event_type="turn.narration")
        for page, actor in ((ilsa, "Ilsa Player (you)"), (gm, "Ilsa Player")):
            # The turn's narration is the game master's; the notice stays the room's.
            expect(page.locator(SENDERS)).to_have_text(["Room", actor, "Game master"])
            entry = page.locator(f'#timeline li[data-sequence="{narration.sequence}"]')
            expect(entry.locator(".entry__body")).to_have_text(narration.body)
        # Heard as it arrives, under the same name.
        expect(gm.locator("#timeline-announcer p").last).to_have_text(
            f"Game master: {narration.body}"
        )
