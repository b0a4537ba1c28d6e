""" "heal goblin 1", "heal goblin 2": a name the table reads a creature by, its number included
("goblin 1" for the first of Goblin and Goblin 2), names who is healed before the number is read
as the hit points healed."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "target"),
    [("heal goblin 1", "mon-2"), ("heal goblin one", "mon-2"), ("heal goblin 2", "mon-3")],
)
def test_the_gm_heals_a_goblin_named_with_its_number(live_domains, gm, player, text, target):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1), Goblin 2 (mon-3), Goblin
    _gm_write(table, "damage_apply", target_id=target, amount=3)

    calls, _output = _sent(table, gm, text)

    assert calls == [("heal", {"target_id": target})]


def test_an_amount_after_the_numbered_name_is_the_hit_points(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="mon-2", amount=3)

    calls, _output = _sent(table, gm, "heal goblin 1 2")

    assert calls == [("heal", {"target_id": "mon-2", "amount": 2})]


@pytest.mark.parametrize(("text", "amount"), [("heal ilsa 2", 2), ("heal ilsa 1", 1)])
def test_a_number_after_a_name_no_one_has_with_it_is_the_hit_points(
    live_domains, gm, player, text, amount
):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=3)

    calls, _output = _sent(table, gm, text)

    # "Ilsa 1" would name her only beside an "Ilsa 2".
    assert calls == [("heal", {"target_id": "pc-1", "amount": amount})]
