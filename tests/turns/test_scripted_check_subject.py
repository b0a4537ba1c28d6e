"""A player's "<name> makes a <check or save>" names who makes it: a subject that is no
creature here is answered with those present, not rolled as the player's own (only "for
<something>" is table talk about what the check is for)."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "who"),
    [("the sun makes a dex save", "the sun"), ("everyone makes a perception check", "everyone")],
)
def test_a_players_check_said_of_nobody_here_is_not_rolled(live_domains, gm, player, text, who):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="nobody")
    assert run.texts == [
        (f"I cannot find “{who}” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert not {"ability_check", "saving_throw"} & set(run.tools)
    assert table.revision() == before


def test_a_player_names_their_own_character_as_the_subject(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "Ilsa makes a dex save", job_id="own")
    assert [o.structured["character_id"] for o in run.caller.outcomes
            if o.tool == "saving_throw"] == ["pc-1"]  # fmt: skip
