"""A free action said in the lobby is not offered a check the lobby refuses: the reply says
checks wait for play, with no option to press."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_free_action_in_the_lobby_offers_no_check_it_cannot_make(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    run = table.run(player, "I search the room", job_id="lobby-search")
    assert run.texts == [
        (
            "You cannot make an ability check in the lobby phase. Play starts when the GM says so.",
            "requester",
        )
    ]
    assert run.output.suggestions == ()
    assert run.output.declined
    assert table.revision() == before
    # In play the same words are offered the check, as before.
    table.run(gm, "set phase play", job_id="play")
    played = table.run(player, "I search the room", job_id="play-search")
    assert played.output.suggestions == ("check investigation",)
