"""A public action answered only to its player, in a real browser against uvicorn: the others
read that the game master answered privately; the player reads the answer, not that note, live
and after a reload."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, _texts, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

NOTE = "The game master answered Ilsa privately."


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_others_read_that_an_action_was_answered_privately_and_its_player_reads_the_answer(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Keep", players=[("ilsa@example.test", "Ilsa")]
    )
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(ilsa, "start combat", mode="action")
        _settle(campaign, 1)
        gm_timeline = gm.locator("#timeline li[data-sequence] .entry__body")
        expect(gm_timeline.last).to_have_text(NOTE)
        ilsa_timeline = ilsa.locator("#timeline li[data-sequence] .entry__body")
        expect(ilsa_timeline.last).to_contain_text("Only the GM can start combat.")
        # The GM reads private answers too, and the note the other players read.
        assert [text.split(".")[0] + "." for text in _texts(gm)] == [
            "start combat.", "Only the GM can start combat.", NOTE,
        ]  # fmt: skip
        assert [text.split(".")[0] for text in _texts(ilsa)] == [
            "start combat", "Only the GM can start combat",
        ]  # fmt: skip
        # The answer is addressed to its reader as "you"; the GM reads whom it went to.
        ilsa_badges = ilsa.locator("#timeline li[data-sequence] .badge--private")
        gm_badges = gm.locator("#timeline li[data-sequence] .badge--private")
        assert (ilsa_badges.all_inner_texts(), gm_badges.all_inner_texts()) == (
            ["Private: you"], ["Private: Ilsa"],
        )  # fmt: skip
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(ilsa_timeline).to_have_count(2)
        assert [text.split(".")[0] for text in _texts(ilsa)] == [
            "start combat", "Only the GM can start combat",
        ]  # fmt: skip
