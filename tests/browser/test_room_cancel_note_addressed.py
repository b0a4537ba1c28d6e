"""The room's note that a queued turn was cancelled, in Chromium: the member who cancelled it
reads it addressed to them, everyone else reads who did it; after a reload too."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401

LAST_BODY = "#timeline li[data-sequence]:last-child .entry__body"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_member_who_cancelled_a_turn_reads_the_note_addressed_to_them(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Quiet Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(ilsa, "roll 1d20", mode="action")
        ilsa.locator(".turn-job__cancel").click()
        mine = "You cancelled “roll 1d20” before it ran."
        theirs = "Ilsa Player cancelled “roll 1d20” before it ran."
        expect(ilsa.locator(LAST_BODY)).to_have_text(mine)
        expect(gm.locator(LAST_BODY)).to_have_text(theirs)

        # A GM cancelling a player's turn: the GM is the one addressed, not the player.
        _say(ilsa, "roll 1d4", mode="action")
        gm.locator(".turn-job__cancel").click()
        expect(gm.locator(LAST_BODY)).to_have_text("You cancelled “roll 1d4” before it ran.")
        expect(ilsa.locator(LAST_BODY)).to_have_text("Gail GM cancelled “roll 1d4” before it ran.")

        # Read back from the history, the same.
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        bodies = ilsa.locator("#timeline li[data-sequence] .entry__body")
        expect(bodies.nth(1)).to_have_text(mine)
