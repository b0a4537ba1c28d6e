"""An action in combat that neither ends nor changes the turn (a look, a check, a refused
action) offers the turn's options again, to whom a new turn offers them: the active
character's player and the GMs. Otherwise the room is left with nothing to press."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

GM_OPTIONS = ("describe", "end Ilsa's turn")
ILSA_OPTIONS = ("attack goblin 2", "end turn")


def test_the_gm_looking_on_a_players_turn_is_offered_the_turn_again(live_domains, gm, player):
    table, start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    assert (start.output.suggestions, start.output.suggestions_for) == (
        GM_OPTIONS,
        {ilsa: ILSA_OPTIONS},
    )
    look = table.run(gm, "describe", job_id="look")
    assert look.tools == ["combat_status"]
    assert look.output.suggestions == GM_OPTIONS
    assert look.output.suggestions_for == {ilsa: ILSA_OPTIONS}


def test_a_refused_gm_action_is_offered_the_turn_again(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    refused = table.run(gm, "attack", job_id="gm-attack")
    assert refused.output.declined
    assert refused.texts == [
        ("It is Ilsa's turn: their player acts. To act for them, name them "
         "(“Ilsa attacks the goblin”).", "requester"),
    ]  # fmt: skip
    assert refused.output.suggestions == GM_OPTIONS


def test_a_player_making_a_check_on_their_turn_is_offered_the_turn_again(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    checked = table.run(player, "perception check", job_id="check")
    assert checked.output.suggestions == ILSA_OPTIONS
    assert checked.output.gm_suggestions == GM_OPTIONS
