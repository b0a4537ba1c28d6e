""" "the orcs", "the wolves", "the thieves": a plural names the creatures whose name's last word
it is, pluralised as English does (irregular forms too), never a longer name it begins
("orcs" is no "Orc Captain")."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import Entity, _of_kind
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _creature(n: int, name: str) -> Entity:
    return Entity(id=f"mon-{n}", name=name, kind="monster", status="unhurt")


@pytest.mark.parametrize(
    ("said", "names", "named"),
    [
        ("the wolves", ["Wolf", "Wolf", "Bandit"], ["mon-1", "mon-2"]),
        ("thieves", ["Thief", "Thief"], ["mon-1", "mon-2"]),
        ("the men", ["Man", "Man"], ["mon-1", "mon-2"]),
        ("the dwarves", ["Dwarf", "Dwarf"], ["mon-1", "mon-2"]),
        ("the dwarfs", ["Dwarf", "Dwarf"], ["mon-1", "mon-2"]),
        ("the elves", ["Elf", "Elf"], ["mon-1", "mon-2"]),
        ("the harpies", ["Harpy", "Harpy"], ["mon-1", "mon-2"]),
        ("the foxes", ["Fox", "Fox"], ["mon-1", "mon-2"]),
        # As the domain numbers a kind.
        ("the goblins", ["Goblin", "Goblin 2"], ["mon-1", "mon-2"]),
        ("the giant rats", ["Giant Rat", "Giant Rat"], ["mon-1", "mon-2"]),
        # The whole name, its last word pluralised: "rats" are no giant rats.
        ("rats", ["Giant Rat", "Giant Rat"], []),
        # Only whole names: no plural of a longer name, no name that merely begins with it.
        ("orcs", ["Orc", "Orc Captain", "Orc"], ["mon-1", "mon-3"]),
        ("the orcs", ["Orc Captain", "Orc Captain"], []),
        ("the gobs", ["Goblin", "Goblin"], []),
        ("the wolfs", ["Wolf", "Wolf"], []),
    ],
)
def test_a_plural_names_the_creatures_of_that_name(said, names, named):
    roster = [_creature(n, name) for n, name in enumerate(names, start=1)]
    assert [e.id for e in _of_kind(roster, said)] == named


@pytest.fixture
def orcs_and_wolves(live_domains, gm, player):
    """In combat: Ilsa, an Orc, an "Orc Captain" (an orc by kind) and two wolves."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    _gm_write(table, "phase_set", phase="play")
    _gm_write(table, "monster_spawn", monster_key="orc")
    _gm_write(table, "monster_spawn", monster_key="orc", name="Orc Captain")
    _gm_write(table, "monster_spawn", monster_key="wolf")
    _gm_write(table, "monster_spawn", monster_key="wolf")
    table.run(gm, "start combat", job_id="start")
    return table


def test_the_orcs_are_not_the_orc_captain(orcs_and_wolves):
    table = orcs_and_wolves
    run = table.run(table.gm, "the orcs fall unconscious", job_id="orcs")
    assert run.texts == [("Orc is now unconscious and prone.", "trigger")]


def test_the_wolves_are_the_wolves(orcs_and_wolves):
    table = orcs_and_wolves
    before = table.revision()
    run = table.run(table.gm, "the wolves fall asleep", job_id="wolves")
    assert sorted(run.output.suggestions) == ["knock Wolf 2 unconscious", "knock Wolf unconscious"]
    assert [t for t, _a in run.texts][0].startswith("“the wolves” are ")
    assert "condition_add" not in run.tools
    assert table.revision() == before
