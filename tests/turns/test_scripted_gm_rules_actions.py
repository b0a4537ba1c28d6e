"""Dodge, Dash, Disengage and Help are the rules' only in combat, for a player's own character
(test_scripted_combat_actions, test_scripted_help_action): they were answered with the help
list. Otherwise they are said to be the GM's to rule on, with what can be done instead."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

# Outside combat there is no turn to end nor grid to move on.
RULED_OUTSIDE_COMBAT = (
    "The rules server doesn't track the %s action: the GM rules on it in this room (say "
    "“help” for everything I understand)."
)
COMBAT_ONLY = (
    "The %s action is taken in combat, on your character's turn: outside a fight the GM rules "
    "on it (say “help” for everything I understand)."
)


def test_an_action_the_rules_do_not_track_is_left_to_the_gm(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    before = table.revision()
    for text, reply in [
        ("I dodge", COMBAT_ONLY % "Dodge"),
        ("I dash", COMBAT_ONLY % "Dash"),
        ("I disengage", COMBAT_ONLY % "Disengage"),
        ("I take the Dodge action", COMBAT_ONLY % "Dodge"),
        ("I help Ilsa", RULED_OUTSIDE_COMBAT % "Help"),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts == [(reply, "requester")], text
        assert run.output.suggestions == (), text
        assert run.output.help_only is True
    assert table.revision() == before


@pytest.mark.parametrize(("text", "action"), [("I dodge", "Dodge"), ("I help goblin", "Help")])
def test_in_combat_a_monsters_action_is_left_to_the_gm(live_domains, gm, player, text, action):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    before = table.revision()
    run = table.run(gm, text, job_id=text)
    assert run.texts == [
        (
            f"The rules take the {action} action for a player's own character; a monster "
            "takes it when the GM sends it as narration. What I can do: end turn, or move to "
            "X,Y (say “help” for everything I understand).",
            "requester",
        )
    ]
    assert table.revision() == before
