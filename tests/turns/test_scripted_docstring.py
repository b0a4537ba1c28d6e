"""The module docstring is the scripted agent's documented grammar: every command its intent
table understands is listed there, in the part of the system that understands it."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s

# Each command of the grammar, by the words its docstring entry says it with.
DOCUMENTED = {
    "dnd5e": {
        s.repeated: 'said "twice" or "N times"',
        s.dnd_shove: "shove <target>",
        s.dnd_help: "help <name> [attack <target>]",
        s.dnd_attack: "attack [<target>] [with <weapon>]",
        s.dnd_death_save: "death save",
        s.dnd_damage_spell: "cast magic missile at <target>",
        s.dnd_healing_spell: "cast cure wounds|healing word",
        s.dnd_ward_spell: "cast shield of faith [on <target>]",
        s.dnd_bless: "cast bless [on <target>, <target> and me]",
        s.dnd_someone_casts: "<creature> casts <spell> [at|on <target>]",
        s.dnd_end_concentration: "end concentration",
        s.dnd_short_rest: "short rest",
        s.dnd_long_rest: "long rest",
        s.dnd_heal: "heal <target>",
        s.dnd_temp_hp: "give me N temp hp",
        s.dnd_damage: "damage <target> N [<type>]",
        s.dnd_stand_up: "stand up",
        s.dnd_condition: "poison <target>",
        s.dnd_condition_remove: "cure <target> of <condition>",
        s.dnd_check: "check <ability|skill> [dc N]",
        s.dnd_save: "save <ability> [dc N]",
        s.dnd_sheet: "what's my hp",
        s.dnd_describe: "describe | look [at <target>]",
        s.dnd_initiative: "roll for initiative",
        s.roll_each: "roll a d20 and a d6",
        s.roll_dice: "roll <dice> [for <label>]",
        s.dnd_move: "move to X,Y",
        s.dnd_move_by: "move N squares|feet <direction>",
        s.dnd_move_beside: "move to <target>",
        s.dnd_end_turn: "end turn",
        s.dnd_hide: "dodge | dash | disengage | hide",
        s.dnd_combat_action: "dodge | dash | disengage | hide",
        s.dnd_whose_turn: "whose turn is it?",
        s.dnd_whose_next: "who's next?",
        s.dnd_combat_summary: "who's winning?",
        s.dnd_is: "is <target> dead|alive",
        s.dnd_how_many: "how many <creatures> are there?",
        s.dnd_where: "where am I?",
        s.dnd_what_now: "what can I do?",
        s.dnd_start_combat: "start combat",
        s.dnd_end_combat: "end combat",
        s.set_phase: "set phase <lobby|play>",
        s.dnd_addressed: "<name>, <command>",
    },
    "narrative": {
        s.nar_oracle: "ask the oracle",
        s.nar_advance_clock: "advance clock <name> [by N]",
        s.nar_advance_named_clock: "advance <name> [by N]",
        s.nar_create_clock: "create clock [called] <name> with N segments",
        s.nar_clock_not_deleted: "reset clock <name>",
        s.nar_open_scene: "open scene <title>",
        s.nar_end_scene: "end scene",
        s.nar_open_thread: "open thread <title>",
        s.nar_resolve_thread: "resolve thread <title>",
        s.nar_record_fact: "record fact <text>",
        s.repeated: 'said "twice" or "N times"',
        s.roll_each: "roll <dice> [for <label>]",
        s.roll_dice: "roll <dice> [for <label>]",
        s.set_phase: "set phase <lobby|play>",
        s.nar_describe: "describe | look",
        s.nar_clock_asked: "is the <name> clock full|empty?",
        s.nar_cast: "who's here?",
        s.nar_how_many_clocks: "how many clocks are there?",
    },
}


def _section(system_id: str) -> str:
    """The docstring's part for one system, its lines joined into one (wrapping aside)."""
    doc = s.__doc__ or ""
    start = doc.index(f"\n{system_id}\n")
    end = doc.index("\nnarrative\n") if system_id == "dnd5e" else doc.index("\nIn a GM-only")
    return " ".join(doc[start:end].split())


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
def test_every_command_of_the_grammar_has_a_documented_entry(system_id):
    handlers = {intent.handler for intent in s.GRAMMARS[system_id]}
    assert handlers == set(DOCUMENTED[system_id])


@pytest.mark.parametrize(
    ("system_id", "handler", "words"),
    [
        (system_id, handler, words)
        for system_id, documented in DOCUMENTED.items()
        for handler, words in documented.items()
    ],
    ids=lambda value: getattr(value, "__name__", None),
)
def test_each_command_is_documented_in_its_system(system_id, handler, words):
    assert words in _section(system_id)
