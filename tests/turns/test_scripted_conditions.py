"""The scripted agent and a creature's conditions: a prone combatant is offered to stand up,
and the GM lifts a condition in the words a table uses."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


class _Stub:
    """A call_tool that answers from a table of structured results."""

    def __init__(self, results: dict[str, dict[str, Any]]) -> None:
        self.results = results

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        return ToolOutcome(tool=tool, step=1, ok=True, structured=self.results[tool])


# What combat_status gives each entry of its order beside the character's own view.
ENTRY_FIELDS = frozenset({"initiative", "budget", "position"})


def _combatant(entity_id: str, name: str, kind: str, **extra: Any) -> dict[str, Any]:
    """An entry of combat_status's order: `extra` fields the entry carries (position, budget,
    initiative) at its top level, as the rules put them; the rest in its character."""
    entry = {field: extra.pop(field) for field in ENTRY_FIELDS & extra.keys()}
    character = {"id": entity_id, "name": name, "kind": kind, "status": "unhurt", **extra}
    return {"id": entity_id, **entry, "character": character}


def _suggestions_after_ending_turn(job_id: str, order: list[dict[str, Any]]) -> tuple[str, ...]:
    """What pc-1 is offered after ending a turn that comes straight back round to it."""
    turn = TurnContext(
        job_id=job_id,
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text="end turn",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_end_turn", "stand_up")
        ),
        character_id="pc-1",
    )
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "pc-1", "order": order}},
            "combat_end_turn": {"ended": "pc-1", "current": "pc-1", "round": 2},
        }
    )
    return ScriptedAgent().run_turn(turn, stub).suggestions


def test_a_prone_player_whose_turn_comes_round_again_is_offered_to_stand_up_first():
    # The last one standing ends the turn and acts again, still on the ground.
    order = [
        _combatant("pc-1", "Ash", "pc", conditions=["prone"]),
        _combatant("mon-2", "Wolf", "monster", status="dead"),
        _combatant("mon-3", "Wolf", "monster"),
    ]
    assert _suggestions_after_ending_turn("prone", order) == (
        "stand up",
        "attack the wolf",
        "end turn",
    )


def test_the_nearest_foe_is_offered_and_no_attack_once_the_action_is_spent():
    # Square and budget are the entry's own, beside its character: the nearest wolf is the
    # one offered, and a spent action offers no attack.
    order = [
        _combatant("pc-1", "Ash", "pc", conditions=[], position=[0, 0]),
        _combatant("mon-2", "Wolf", "monster", position=[9, 9]),
        _combatant("mon-3", "Wolf", "monster", position=[1, 0]),
    ]
    assert _suggestions_after_ending_turn("nearest", order) == ("attack wolf 2", "end turn")
    order[0] = _combatant("pc-1", "Ash", "pc", budget={"action": 0, "movement": 30})
    assert _suggestions_after_ending_turn("spent", order) == ("end turn",)


def test_a_standing_player_is_not_offered_to_stand_up():
    order = [_combatant("pc-1", "Ash", "pc", conditions=[]), _combatant("mon-2", "Wolf", "monster")]
    assert _suggestions_after_ending_turn("standing", order) == ("attack the wolf", "end turn")


@pytest.mark.parametrize("held", ["grappled", "restrained"])
def test_a_prone_player_held_down_is_not_offered_to_stand_up(held):
    # The rules refuse standing while held: only what can be done is offered.
    order = [
        _combatant("pc-1", "Ash", "pc", conditions=["prone", held]),
        _combatant("mon-2", "Wolf", "monster"),
    ]
    assert _suggestions_after_ending_turn("held", order) == ("attack the wolf", "end turn")


def test_the_gm_is_offered_to_stand_a_prone_monster_up_on_its_turn(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    assert table.run(gm, "knock mon-2 prone", job_id="knock").texts == [
        ("Goblin is now prone.", "trigger")
    ]
    table.run(player, "end turn", job_id="p-end")
    handed = table.run(gm, "end turn", job_id="g-end")
    assert handed.output.suggestions == ("stand up", "goblin attacks Ilsa", "end turn")
    # The suggestion works as written: the goblin whose turn it is gets up, by the rules.
    stood = table.run(gm, "stand up", job_id="g-stand")
    assert stood.texts == [("Goblin stands up, using 15 ft of movement (15 ft left).", "trigger")]
    assert "stand_up" in stood.tools
    assert (
        "prone"
        not in table.call(gm, "character_get", character_id="mon-2").structured["character"][
            "conditions"
        ]
    )


def test_the_gm_lifts_a_condition_in_the_words_a_table_uses(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    said = [
        ("poison Ilsa", "cure Ilsa of poison"),
        ("poison Ilsa", "unpoison Ilsa"),
        ("poison Ilsa", "remove poisoned from Ilsa"),
        ("frighten Ilsa", "Ilsa is no longer frightened"),
        ("stun goblin 2", "cure goblin 2 of being stunned"),
    ]
    for index, (give, lift) in enumerate(said):
        table.run(gm, give, job_id=f"give-{index}")
        lifted = table.run(gm, lift, job_id=f"lift-{index}")
        # Then the combat is read again for the turn's options.
        assert lifted.tools[-2:] == ["condition_remove", "combat_status"], lift
        assert lifted.texts[0][1] == "trigger", lifted.texts
    texts = [table.run(gm, lift, job_id=f"again-{i}").texts for i, (_g, lift) in enumerate(said)]
    assert texts == [
        [("That cannot happen: Ilsa is not poisoned.", "requester")],
        [("That cannot happen: Ilsa is not poisoned.", "requester")],
        [("That cannot happen: Ilsa is not poisoned.", "requester")],
        [("That cannot happen: Ilsa is not frightened.", "requester")],
        [("That cannot happen: Goblin 2 is not stunned.", "requester")],
    ]


def test_a_lifted_condition_is_said_to_be_gone(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "poison Ilsa", job_id="give")
    assert table.run(gm, "cure Ilsa of poison", job_id="lift").texts == [
        ("Ilsa is no longer poisoned.", "trigger")
    ]
    assert table.call(gm, "character_get", character_id=table.characters[principal_for(player)]
                      ).structured["character"]["conditions"] == []  # fmt: skip


def test_a_player_is_told_only_the_gm_lifts_a_condition(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "poison Ilsa", job_id="give")
    before = table.revision()
    for index, text in enumerate(
        ("cure Ilsa of poison", "unpoison Ilsa", "Ilsa is no longer poisoned")
    ):
        refused = table.run(player, text, job_id=f"player-{index}")
        assert refused.texts == [("Only the GM can remove a creature's condition.", "requester")]
        assert "condition_remove" not in refused.tools
    assert table.revision() == before


def test_a_condition_the_rules_do_not_know_is_named_back(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    refused = table.run(gm, "cure Ilsa of the flu", job_id="flu")
    assert refused.texts == [
        (
            "“flu” is not a condition (blinded, charmed, deafened, frightened, grappled, "
            "incapacitated, invisible, paralyzed, petrified, poisoned, prone, restrained, "
            "stunned, unconscious).",
            "requester",
        )
    ]
    assert refused.tools == ["combat_status"]  # only to offer the turn's options again
