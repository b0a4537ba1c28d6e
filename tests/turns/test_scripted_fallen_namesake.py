""" "attack the goblin" once the creature named "Goblin" has fallen: the goblin still standing
("Goblin 2") is meant, not the body; an id, or a name no living creature of its kind shares,
still names the fallen one."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.fixture
def goblin_fallen(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1), Goblin 2 (mon-3), Goblin
    _gm_write(table, "damage_apply", target_id="mon-2", amount=50)  # Goblin (mon-2) dies
    return table


def test_the_goblin_is_the_one_standing(goblin_fallen):
    calls, _output = _sent(goblin_fallen, goblin_fallen.player, "attack the goblin")
    assert calls == [("attack", {"attacker_id": "pc-1", "target_id": "mon-3"})]


def test_an_id_still_names_the_fallen_one(goblin_fallen):
    run = goblin_fallen.run(goblin_fallen.player, "attack mon-2", job_id="id")
    assert run.texts == [("That cannot happen: Goblin is already dead.", "requester")]


def test_with_none_standing_the_name_is_the_fallen_ones(goblin_fallen):
    table = goblin_fallen
    _gm_write(table, "damage_apply", target_id="mon-3", amount=50)  # no goblin stands
    run = table.run(table.player, "look at the goblin", job_id="look")
    assert run.texts == [("Ilsa studies the Goblin: dead.", "trigger")]
