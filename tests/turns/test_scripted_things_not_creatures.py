""" "kick the door", "walk to the tavern", "punch the wall": a blow of the body or a step said
in the fiction's words, of a thing, not a creature, is no command the rules tools take: it is
answered as a line not understood (the GM rules on it), not refused as a creature missing ("I
cannot find “the door” here"). Said after the words of an attack with a weapon or a spell
("attack the orc", "shoot the orc") or after "move" ("move to the dragon"), or of a near miss
of a name present ("kick the gobin"), the refusal and its typo help stay."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_help_with import _brams_turn

pytestmark = pytest.mark.django_db

TO_ATTACK = (
    "I did not understand that. To attack, say: attack <target> [with <weapon>] (or say “help” "
    "for what I understand)."
)
TO_MOVE = (
    "I did not understand that. To move, say: move N squares <direction>, move to X,Y or move "
    "to <target> (or say “help” for what I understand)."
)
UNDERSTOOD_NOT = "I did not understand that. Say “help” for everything I understand."
TO_HELP = "To take the Help action, say: help <name> [attack <target>]."


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("kick the door", TO_ATTACK),
        ("I punch the wall", TO_ATTACK),
        ("Ilsa, kick the door", TO_ATTACK),
        ("walk to the tavern", TO_MOVE),
        ("I run up to the gate", TO_MOVE),
        ("approach the altar", TO_MOVE),
    ],
)
def test_a_thing_acted_on_is_no_creature_missing(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="thing")
    assert run.texts == [(reply, "requester")]
    assert "attack" not in run.tools and "combat_move" not in run.tools
    assert table.revision() == before


def test_a_task_helped_with_is_no_creature_missing(live_domains, gm, player):
    table = _brams_turn(gm, player)  # Bram, beside Ilsa, is up
    before = table.revision()
    run = table.run(player, "help Ilsa with the rope", job_id="rope")
    assert run.texts == [(TO_HELP, "requester")]
    assert "combat_action" not in run.tools
    assert table.revision() == before


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("attack the orc", "I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin."),
        ("attack the gobin", "I cannot find “the gobin” here. Did you mean: attack the goblin?"),
        ("kick the gobin",
         "I cannot find “the gobin” here. Did you mean: attack the goblin with a kick?"),
        ("walk to the gobin", "I cannot find “the gobin” here. Did you mean: walk to the goblin?"),
        ("move to the dragon", "I cannot find “the dragon” here. Present: Ilsa, Goblin 2, Goblin."),
        ("make an attack roll against the orc",
         "I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin."),
        ("shoot the orc", "I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin."),
        ("I swing my sword at the chandelier",
         "I cannot find “the chandelier” here. Present: Ilsa, Goblin 2, Goblin."),
        ("Ilsa, attack the orc", "I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin."),
    ],
)  # fmt: skip
def test_a_creature_said_or_nearly_named_is_still_looked_for(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="creature")
    assert run.texts == [(reply, "requester")]
    assert "attack" not in run.tools and "combat_move" not in run.tools
    assert table.revision() == before
