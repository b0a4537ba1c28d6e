"""A player's move that provokes no opportunity attack by the rules (the mover disengaged this
turn, or is hidden itself) tells the GM nothing of a hidden monster that "may" strike: the
command offered would only be refused."""

from __future__ import annotations

from typing import Any

import pytest

from tests.turns.test_scripted_hidden_opportunity import PLAYER_ORDER, _ilsa_moves

pytestmark = pytest.mark.django_db


def _ilsa_entry(**changed: Any) -> list[dict[str, Any]]:
    return [{**PLAYER_ORDER[0], **changed}, *PLAYER_ORDER[1:]]


@pytest.mark.parametrize(
    "ilsa",
    [{"budget": {"action": 0, "disengaged": 1, "movement": 30}}, {"hidden": True}],
    ids=["disengaged", "hidden"],
)
def test_a_move_that_provokes_none_tells_the_gm_of_no_hidden_monster(ilsa):
    output = _ilsa_moves(role="player", order=_ilsa_entry(**ilsa), provoked=[])

    assert [m.audience for m in output.messages] == ["trigger"]
    assert "Goblin 2" not in output.messages[0].text


def test_a_hidden_monster_with_its_reaction_spent_is_not_said_to_strike():
    goblin_2 = {**PLAYER_ORDER[2], "budget": {"action": 1, "reaction": 0}}
    order = [*PLAYER_ORDER[:2], goblin_2]

    output = _ilsa_moves(role="player", order=order, provoked=[])

    assert [m.audience for m in output.messages] == ["trigger"]
