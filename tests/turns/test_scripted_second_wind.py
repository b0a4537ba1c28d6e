""" "use second wind": the dnd5e rules here have no Second Wind, so the fighter's player is told
so and what heals instead, and the GM how to give the hit points back; it was answered with the
generic "I did not understand that"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

PLAYER_REPLY = (
    "The rules here have no Second Wind yet. To heal, say: heal me (a potion of healing, your "
    "character's action in combat), or out of combat: short rest, spend a hit die."
)
GM_REPLY = (
    "The rules here have no Second Wind yet: roll 1d10 plus the fighter's level (roll 1d10+1 "
    "at level 1), then give the hit points back with: heal <name> N."
)


@pytest.mark.parametrize(
    "text",
    ["use second wind", "second wind", "I use my Second Wind!", "I'd like to use second wind",
     "can I use second wind?", "Ilsa uses her second wind", "take second wind as a bonus action"],
)  # fmt: skip
def test_a_player_asking_for_second_wind_is_told_what_heals_instead(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="wind")
    assert run.texts == [(PLAYER_REPLY, "requester")]
    assert (run.output.help_only, run.output.suggestions, run.tools) == (True, ("heal me",), [])
    assert table.revision() == before


@pytest.mark.parametrize("text", ["Ilsa uses second wind", "second wind for Ilsa"])
def test_the_gm_is_told_how_to_give_second_winds_hit_points(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="wind")
    assert run.texts == [(GM_REPLY, "requester")]
    assert (run.output.help_only, run.output.suggestions, run.tools) == (True, (), [])
    assert table.revision() == before
