"""A name is in use whatever its case, as the rules read it: a spawned goblin is numbered past
"goblin 2" as well as "Goblin 2", and two living creatures named alike in another case are told
apart."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import Entity, _display_names
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_spawned_monster_is_named_past_a_name_in_use_in_another_case(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="goblin 2", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "phase_set", phase="play")
    started = table.run(gm, "start combat with 2 goblins", job_id="start")
    assert started.tools.count("monster_spawn") == 2
    # The second goblin's name is the agent's: one the rules keep as given, not "Goblin 2 2".
    names = sorted(table.campaign()["monster_ids"])
    assert [
        table.call(gm, "character_get", character_id=i).structured["character"]["name"]
        for i in names
    ] == ["Goblin", "Goblin 3"]


def test_living_creatures_named_alike_in_another_case_are_told_apart():
    roster = [
        Entity("mon-2", "Goblin", "monster", "unhurt", monster_key="goblin"),
        Entity("mon-3", "goblin", "monster", "unhurt", monster_key="goblin"),
    ]
    assert _display_names(roster) == ["Goblin", "goblin 2"]
