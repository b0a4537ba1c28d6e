"""In combat, "I dodge", "I dash", "I disengage" and "I hide" take that action by the rules (it
spends the character's action), where they were left to the GM (hiding: a free check);
outside combat the first three still are, and hiding is a Stealth check."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _ilsas_budget(table, player) -> dict:
    ilsa = table.characters[principal_for(player)]
    order = table.call(player, "combat_status").structured["combat"]["order"]
    return next(e["budget"] for e in order if e["id"] == ilsa)


def test_i_dodge_in_combat_takes_the_dodge_action(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up

    run = table.run(player, "I take the Dodge action", job_id="dodge")

    assert run.tools[0] == "combat_action"
    assert run.texts[0] == (
        "Ilsa takes the Dodge action: until their next turn, attacks against them have "
        "disadvantage and their Dexterity saves have advantage.",
        "trigger",
    )
    assert run.output.suggestions == ("end turn",)  # the action is spent
    budget = _ilsas_budget(table, player)
    assert (budget["action"], budget["dodging"]) == (0, 1)


def test_i_dash_in_combat_doubles_the_turns_movement(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)

    run = table.run(player, "I dash!", job_id="dash")

    assert run.tools[0] == "combat_action"
    assert run.texts[0] == ("Ilsa dashes: 30 ft more movement this turn (60 ft left).", "trigger")
    assert _ilsas_budget(table, player)["movement"] == 60


def test_i_disengage_then_move_away_provokes_nothing(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)

    run = table.run(player, "I disengage", job_id="disengage")
    assert run.texts[0] == (
        "Ilsa disengages: moving this turn provokes no opportunity attacks (30 ft of movement "
        "left).",
        "trigger",
    )
    moved = table.run(player, "move to 2,0", job_id="away")

    assert moved.tools[0] == "combat_move"
    # Without the Disengage, leaving both goblins' reach offers each an opportunity attack.
    assert moved.texts == [("Ilsa crosses 15 ft to (2, 0); 15 ft of movement remain.", "trigger")]
    assert not any("reaction" in option for option in moved.output.gm_suggestions)


def test_an_action_out_of_turn_is_refused_and_changes_nothing(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")
    before = table.revision()

    run = table.run(player, "I dodge", job_id="dodge")

    assert run.texts == [("That cannot happen: it is Goblin 2's turn, not Ilsa's.", "requester")]
    assert table.revision() == before


def test_i_hide_in_combat_takes_the_hide_action(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)

    run = table.run(player, "I try to hide behind the crate", job_id="hide")

    assert run.tools[0] == "combat_action"
    assert run.texts[0] == (
        "Ilsa hides: Stealth 15 beats the foes' best passive Perception. Hidden, Ilsa attacks "
        "with advantage and is attacked with disadvantage until attacking.",
        "trigger",
    )
    assert _ilsas_budget(table, player)["action"] == 0


def test_the_gm_hiding_a_character_tells_the_table_no_monsters_perception(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up

    run = table.run(gm, "Ilsa takes the hide action", job_id="hide", task="narration")

    # The GM's answer holds the goblins' passive Perception (9); the line is the table's.
    assert "combat_action" in run.tools
    assert run.texts[0] == (
        "Ilsa hides: Stealth 15 beats the foes' best passive Perception. Hidden, Ilsa attacks "
        "with advantage and is attacked with disadvantage until attacking.",
        "trigger",
    )


def _rin_in_combat(gm, player):
    """A 2nd-level rogue, Rin, on her turn against a goblin."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Rin", template="rogue", level=2)
    rin = created.structured["character"]["id"]
    table.characters[principal_for(player)] = rin
    table.run(gm, "Start combat with a goblin", job_id="start")
    if table.call(gm, "combat_status").structured["combat"]["current"] != rin:
        table.run(gm, "end turn", job_id="goblin-end")
    return table, rin


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "I disengage as a bonus action",
            "Rin disengages: moving this turn provokes no opportunity attacks (30 ft of "
            "movement left).",
        ),
        (
            "I dash as my bonus action",
            "Rin dashes: 30 ft more movement this turn (60 ft left).",
        ),
    ],
)
def test_cunning_action_said_is_a_bonus_action(live_domains, gm, player, text, said):
    table, rin = _rin_in_combat(gm, player)

    run = table.run(player, text, job_id="cunning")

    taken = [o for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(o.ok, o.structured["bonus_action"]) for o in taken] == [(True, True)], run.texts
    assert run.texts[0] == (said + " That was a bonus action: Rin's action is left.", "trigger")
    order = table.call(player, "combat_status").structured["combat"]["order"]
    budget = next(e["budget"] for e in order if e["id"] == rin)
    assert (budget["action"], budget["bonus_action"]) == (1, 0)


def test_hiding_as_a_bonus_action(live_domains, gm, player):
    table, _rin = _rin_in_combat(gm, player)

    run = table.run(player, "I hide behind the barrel as a bonus action", job_id="hide")

    taken = [o for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(o.structured["action"], o.structured["bonus_action"]) for o in taken] == [
        ("hide", True)
    ], run.texts


def test_the_gm_narrates_a_monsters_dodge_by_the_rules(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn

    run = table.run(gm, "goblin 2 dodges", job_id="dodge", task="narration")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["character_id"], t["action"]) for t in taken] == [("mon-3", "dodge")], run.texts
    assert run.texts[0][0] == (
        "Goblin 2 takes the Dodge action: until their next turn, attacks against them have "
        "disadvantage and their Dexterity saves have advantage."
    )


def test_the_gm_narrates_a_goblins_nimble_escape(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn

    run = table.run(gm, "goblin 2 disengages as a bonus action", job_id="escape", task="narration")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["bonus_action"]) for t in taken] == [("disengage", True)], run.texts


@pytest.mark.parametrize(
    ("text", "reply", "suggestions"),
    [
        ("I dodge the arrows", "To take the Dodge action, say: dodge.", ("dodge",)),
        ("I dash to the door", "To take the Dash action, say: dash.", ("dash",)),
        (
            "I help with the rope",
            "To take the Help action, say: help <name> [attack <target>].",
            (),
        ),
    ],
)
def test_an_action_said_with_more_words_is_offered_as_the_command(
    live_domains, gm, player, text, reply, suggestions
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()

    run = table.run(player, text, job_id=text)

    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == suggestions
    assert table.revision() == before
