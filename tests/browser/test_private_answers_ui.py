"""A public action answered only to its player, in a real browser against uvicorn: the other
players read that the game master answered privately; the player, and the GM, who reads every
answer, read the answer, not that note, live and after a reload."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
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
        make_user, system_id="dnd5e", name="Keep",
        players=[("ilsa@example.test", "Ilsa"), ("bram@example.test", "Bram")],
    )  # fmt: skip
    emails = ("gm@example.test", "ilsa@example.test", "bram@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, ilsa, bram):
        _say(ilsa, "start combat", mode="action")
        _settle(campaign, 1)
        expect(bram.locator("#timeline li[data-sequence] .entry__body").last).to_have_text(NOTE)
        ilsa_timeline = ilsa.locator("#timeline li[data-sequence] .entry__body")
        expect(ilsa_timeline.last).to_contain_text("Only the GM can start combat.")
        gm_timeline = gm.locator("#timeline li[data-sequence] .entry__body")
        expect(gm_timeline.last).to_contain_text("Only the GM can start combat.")
        # Who reads the answer reads no note that it was given: its player and the GM.
        answered = ["start combat", "Only the GM can start combat"]
        assert [text.split(".")[0] for text in _texts(ilsa)] == answered
        assert [text.split(".")[0] for text in _texts(gm)] == answered
        # Who saw the action but not its answer reads the note alone.
        assert _texts(bram) == ["start combat", NOTE]
        # The answer is addressed to its reader as "you"; the GM reads whom it went to.
        ilsa_badges = ilsa.locator("#timeline li[data-sequence] .badge--private")
        gm_badges = gm.locator("#timeline li[data-sequence] .badge--private")
        assert (ilsa_badges.all_inner_texts(), gm_badges.all_inner_texts()) == (
            ["Private: you"], ["Private: Ilsa"],
        )  # fmt: skip
        for page, count in ((ilsa, 2), (gm, 2), (bram, 2)):
            _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
            expect(page.locator("#timeline li[data-sequence] .entry__body")).to_have_count(count)
        assert [text.split(".")[0] for text in _texts(ilsa)] == answered
        assert [text.split(".")[0] for text in _texts(gm)] == answered
        assert _texts(bram) == ["start combat", NOTE]
