"""The help reply lists what the grammar understands: every form a help line shows parses to
the command it names, from the seat that reads it, and every command of the grammar is shown
to someone."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents import scripted as s
from apps.turns.agents.scripted import GRAMMARS, help_text

A = s.dnd_attack
ATTACK = "attack [<target>] [with <weapon>] [with advantage | with disadvantage]"
CHECK = (
    "check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] "
    "(or: roll stealth, roll a dex save)"
)
ROLL = "roll <dice> [drop lowest | with advantage] [for <label>]"
MOVE = (
    "move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
    "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in combat)"
)
LOOK = "describe, or look at <target>; whose turn is it?, who's next?, who's winning?"
QUESTIONS = (
    "is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is <target>?, "
    "how many goblins are there?, who's here?, where am I?, how can I move?, what can I do?"
)
PLAYER_QUESTIONS = (
    "is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, "
    "how hurt is <target>?, how many goblins are there?, who's here?, where am I?, "
    "how far can I move?, what can I do?"
)
ASKED = [
    ("is the goblin dead?", s.dnd_is, {"target": "the goblin", "state": "dead"}),
    ("is the goblin alive?", s.dnd_is, {"target": "the goblin", "state": "alive"}),
    ("is the goblin hurt?", s.dnd_is, {"target": "the goblin", "state": "hurt"}),
    ("is the goblin poisoned?", s.dnd_is, {"target": "the goblin", "state": "poisoned"}),
    ("is the goblin prone?", s.dnd_is, {"target": "the goblin", "state": "prone"}),
    ("how hurt is the goblin?", s.dnd_describe, {"target": "the goblin"}),
    ("how many goblins are there?", s.dnd_how_many, {"target": "goblins"}),
    ("who's here?", s.dnd_describe, {}),
    ("where am I?", s.dnd_where, {}),
    ("what can I do?", s.dnd_what_now, {}),
]
ROLLS = [
    ("roll 1d20", s.roll_dice, {"expr": "1d20", "keep": None, "label": None}),
    ("roll 4d6 drop lowest", s.roll_dice, {"expr": "4d6", "keep": "drop lowest"}),
    ("roll 1d20+3 with advantage", s.roll_dice, {"expr": "1d20+3", "keep": "with advantage"}),
    ("roll 2d6+3 for damage", s.roll_dice, {"expr": "2d6+3", "label": "damage"}),
    ("roll a d20 and a d6", s.roll_each, {"label": None}),
]
CHECKS = [
    ("check perception", s.dnd_check, {"what": "perception", "dc": None}),
    ("check athletics dc 12", s.dnd_check, {"what": "athletics", "dc": "12"}),
    (
        "check athletics dc 12 with advantage",
        s.dnd_check,
        {"what": "athletics", "mode": "advantage"},
    ),
    ("save dex", s.dnd_save, {"what": "dex", "dc": None}),
    ("save wis dc 14", s.dnd_save, {"what": "wis", "dc": "14"}),
    ("roll stealth", s.dnd_check, {"what": "stealth"}),
    ("roll a dex save", s.dnd_save, {"what": "dex"}),
]
MOVES = [
    ("move to 4,1", s.dnd_move, {"x": "4", "y": "1"}),
    ("move to the goblin", s.dnd_move_beside, {"target": "the goblin"}),
    ("move 2 squares north", s.dnd_move_by, {"amount": "2", "direction": "north"}),
    ("move 10 feet east", s.dnd_move_by, {"amount": "10", "unit": "feet", "direction": "east"}),
    ("Ilsa moves to 4,1", s.dnd_move, {"who": "Ilsa", "x": "4", "y": "1"}),
    ("goblin 2 walks east", s.dnd_move_by, {"who": "goblin 2", "direction": "east"}),
    ("goblin 2 moves next to Ilsa", s.dnd_move_beside, {"who": "goblin 2", "target": "Ilsa"}),
    ("end turn", s.dnd_end_turn, {}),
    ("pass", s.dnd_end_turn, {}),
]
ATTACKS = [
    ("attack", A, {"weapon": None, "mode": None}),
    ("attack the goblin", A, {"target": "the goblin", "weapon": None}),
    ("attack the goblin with longsword", A, {"target": "the goblin", "weapon": "longsword"}),
    ("attack the goblin with advantage", A, {"target": "the goblin", "mode": "advantage"}),
    (
        "attack the goblin with longsword with disadvantage",
        A,
        {"target": "the goblin", "weapon": "longsword", "mode": "disadvantage"},
    ),
]
# Who strikes whom, named: an attack.
STRIKES = [
    (f"Ilsa {verb} goblin 2", A, {"attacker": "Ilsa", "target": "goblin 2"})
    for verb in ("hits", "shoots", "stabs")
]
CONDITIONS = [
    (f"{verb} the goblin", s.dnd_condition, {"verb": verb, "target": "the goblin"})
    for verb in "poison blind charm deafen frighten paralyze petrify restrain stun".split()
]
# Each help line, as the seat reads it, and examples of every form it shows:
# (text, the command it parses to, groups it captures).
SPELLS_OF_ASH = "what spells does Ash have"
DND_GM: dict[str, list[tuple[str, Any, dict[str, Any]]]] = {
    ATTACK + "; <name> attacks [<target>] (or hits, shoots, stabs <target>); "
    "<name> attacks <target> as a reaction (an opportunity attack)": [
        *ATTACKS,
        *STRIKES,
        ("goblin 2 attacks", A, {"attacker": "goblin 2"}),
        ("goblin 2 attacks Ilsa", A, {"attacker": "goblin 2", "target": "Ilsa"}),
        (
            "goblin 2 attacks Ilsa as a reaction",
            A,
            {"attacker": "goblin 2", "target": "Ilsa", "reaction": "reaction"},
        ),
    ],
    CHECK + "; for someone: perception check for <name>, dex save for <name> [dc N]": [
        *CHECKS,
        ("perception check for Ilsa", s.dnd_check, {"what": "perception", "target": "Ilsa"}),
        ("dex save for Ilsa", s.dnd_save, {"what": "dex", "target": "Ilsa", "dc": None}),
        ("dex save for Ilsa dc 12", s.dnd_save, {"what": "dex", "target": "Ilsa", "dc": "12"}),
    ],
    ROLL + ", e.g. roll 4d6 drop lowest, roll a d20 and a d6": ROLLS,
    MOVE: MOVES,
    "death save for <name>; heal <target> N (a potion without N)": [
        ("death save for Ilsa", s.dnd_death_save, {"target": "Ilsa"}),
        ("heal Ilsa 5", s.dnd_heal, {"target": "Ilsa", "amount": "5"}),
        ("heal Ilsa", s.dnd_heal, {"target": "Ilsa", "amount": None}),
    ],
    "grant <target> N temp hp (temporary hit points; they do not stack)": [
        ("grant Ilsa 5 temp hp", s.dnd_temp_hp, {"target": "Ilsa", "amount": "5"}),
    ],
    "damage <target> N [<type>], e.g. damage goblin 9 fire (or: deal 7 fire damage to "
    "<target>, <target> takes 4 piercing damage; in combat as narration)": [
        ("damage goblin 9 fire", s.dnd_damage, {"target": "goblin", "amount": "9", "type": "fire"}),
        ("damage Ilsa 5", s.dnd_damage, {"target": "Ilsa", "amount": "5", "type": None}),
        ("damage goblin 2 5", s.dnd_damage, {"target": "goblin 2", "amount": "5"}),
        (
            "deal 7 fire damage to the goblin",
            s.dnd_damage,
            {"target": "the goblin", "amount": "7", "type": "fire"},
        ),
        ("deal 7 damage to Ilsa", s.dnd_damage, {"target": "Ilsa", "amount": "7", "type": None}),
        (
            "the goblin takes 4 piercing damage",
            s.dnd_damage,
            {"target": "the goblin", "amount": "4", "type": "piercing"},
        ),
        ("Ilsa takes 3 damage", s.dnd_damage, {"target": "Ilsa", "amount": "3", "type": None}),
    ],
    "a monster's spell: roll its dice, then damage <target> N [<type>] (in combat as "
    "narration; a concentrating target rolls its save) or heal <target> N; players cast their "
    "own spells": [
        ("roll 3d4+3 for the spell", s.roll_dice, {"expr": "3d4+3", "label": "the spell"}),
        ("damage Ash 9 fire", s.dnd_damage, {"target": "Ash", "amount": "9", "type": "fire"}),
        ("heal Ash 5", s.dnd_heal, {"target": "Ash", "amount": "5"}),
    ],
    "long rest [for <name>] (as narration: hit points and spell slots back)": [
        ("long rest", s.dnd_long_rest, {"target": None}),
        ("long rest for Ilsa", s.dnd_long_rest, {"target": "Ilsa"}),
        ("we take a long rest", s.dnd_long_rest, {"target": None}),
    ],
    "short rest for <name>, N hit dice (as narration: Hit Dice heal)": [
        ("short rest for Ilsa, 2 hit dice", s.dnd_short_rest, {"target": "Ilsa", "dice": "2"}),
        ("short rest for Ilsa", s.dnd_short_rest, {"target": "Ilsa", "dice": None}),
    ],
    "poison <target> (or blind, charm, deafen, frighten, paralyze, petrify, restrain, stun); "
    "knock <target> prone; knock <target> unconscious (or <name> falls asleep, passes out, "
    "faints)": [
        *CONDITIONS,
        ("knock the goblin prone", s.dnd_condition, {"target": "the goblin", "knocked": "prone"}),
        (
            "knock the goblin unconscious",
            s.dnd_condition,
            {"target": "the goblin", "knocked": "unconscious"},
        ),
        ("Ilsa falls asleep", s.dnd_condition, {"target": "Ilsa", "knocked": "asleep"}),
        ("Ilsa passes out", s.dnd_condition, {"target": "Ilsa", "knocked": "out"}),
        ("Ilsa faints", s.dnd_condition, {"target": "Ilsa"}),
    ],
    "cure <target> of <condition> (or unpoison <target>, remove <condition> from <target>, "
    "<target> is no longer <condition>); stand up (whoever is up gets up), <name> stands up "
    "(or gets up); wake <target>": [
        (
            "cure Ilsa of poison",
            s.dnd_condition_remove,
            {"target": "Ilsa", "condition": "poison"},
        ),
        ("unpoison Ilsa", s.dnd_condition_remove, {"verb": "unpoison", "target": "Ilsa"}),
        (
            "remove prone from Ilsa",
            s.dnd_condition_remove,
            {"target": "Ilsa", "condition": "prone"},
        ),
        (
            "Ilsa is no longer frightened",
            s.dnd_condition_remove,
            {"target": "Ilsa", "condition": "frightened"},
        ),
        ("stand up", s.dnd_stand_up, {"who": None}),
        ("goblin 2 stands up", s.dnd_stand_up, {"who": "goblin 2"}),
        ("goblin 2 gets up", s.dnd_stand_up, {"who": "goblin 2"}),
        ("wake Ilsa", s.dnd_condition_remove, {"wake": "wake", "target": "Ilsa"}),
    ],
    "start combat [with goblin, 2 orcs, a new orc]; end combat; set phase <lobby|play>": [
        ("start combat", s.dnd_start_combat, {"monsters": None}),
        (
            "start combat with goblin, 2 orcs, a new orc",
            s.dnd_start_combat,
            {"monsters": "goblin, 2 orcs, a new orc"},
        ),
        ("end combat", s.dnd_end_combat, {}),
        ("set phase lobby", s.set_phase, {"phase": "lobby"}),
        ("set phase play", s.set_phase, {"phase": "play"}),
    ],
    LOOK + "; what's <target>'s hp? (a monster's: to you alone)": [
        ("describe", s.dnd_describe, {}),
        ("look at the goblin", s.dnd_describe, {"target": "the goblin"}),
        ("whose turn is it?", s.dnd_whose_turn, {}),
        ("who's next?", s.dnd_whose_next, {}),
        ("who's winning?", s.dnd_combat_summary, {}),
        ("what's the goblin's hp?", s.dnd_describe, {"target": "the goblin"}),
    ],
    "what spells does <name> have?, how many spell slots does <name> have left?": [
        ("what spells does Ash have?", s.dnd_describe, {"target": "Ash", "spells": SPELLS_OF_ASH}),
        (
            "how many spell slots does Ash have left?",
            s.dnd_describe,
            {"target": "Ash", "spells": "how many spell slots does Ash have left"},
        ),
    ],
    QUESTIONS: ASKED,
}
DND_PLAYER: dict[str, list[tuple[str, Any, dict[str, Any]]]] = {
    ATTACK + " [as a reaction]; <name> hits (or shoots, stabs) <target>; "
    "punch (or kick) <target>, an unarmed strike": [
        *ATTACKS,
        ("punch the goblin", A, {"target": "the goblin", "weapon": "a punch"}),
        ("kick the goblin", A, {"target": "the goblin", "weapon": "a kick"}),
        ("attack the goblin as a reaction", A, {"target": "the goblin", "reaction": "reaction"}),
        *STRIKES,
    ],
    CHECK: CHECKS,
    ROLL + ", e.g. roll 4d6 drop lowest, roll a d20 and a d6": ROLLS,
    MOVE: MOVES,
    "death save (at 0 HP); stand up (or <name> gets up); heal <target> or heal me (a potion)": [
        ("death save", s.dnd_death_save, {"target": None}),
        ("stand up", s.dnd_stand_up, {"who": None}),
        ("Ilsa gets up", s.dnd_stand_up, {"who": "Ilsa"}),
        ("heal Ilsa", s.dnd_heal, {"target": "Ilsa", "amount": None}),
        ("heal me", s.dnd_heal, {"target": "me", "amount": None}),
        ("heal myself", s.dnd_heal, {"target": "myself", "amount": None}),
    ],
    "dodge, dash, disengage or hide [as a bonus action]; help <name> [attack <target>]; "
    "shove <target> [away] (in combat: your character's action)": [
        ("dodge", s.dnd_combat_action, {"action": "dodge", "who": None}),
        ("dash", s.dnd_combat_action, {"action": "dash", "who": None}),
        ("disengage", s.dnd_combat_action, {"action": "disengage", "who": None}),
        ("take the Dodge action", s.dnd_combat_action, {"action": "Dodge", "who": None}),
        ("Ilsa dashes", s.dnd_combat_action, {"action": "dash", "who": "Ilsa"}),
        ("hide", s.dnd_hide, {}),
        ("hide as a bonus action", s.dnd_hide, {"bonus": " as a bonus action"}),
        ("dash as a bonus action", s.dnd_combat_action, {"bonus": " as a bonus action"}),
        ("help Bram", s.dnd_help, {"ally": "Bram", "target": None}),
        ("help Bram attack the goblin", s.dnd_help, {"ally": "Bram", "target": "the goblin"}),
        ("shove the goblin", s.dnd_shove, {"target": "the goblin", "how": None}),
        ("shove the goblin away", s.dnd_shove, {"target": "the goblin", "how": "away"}),
    ],
    "give me N temp hp (temporary hit points; they do not stack)": [
        ("give me 5 temp hp", s.dnd_temp_hp, {"target": "me", "amount": "5"}),
    ],
    "cast cure wounds or healing word [on <target>] [at level N] (a cleric)": [
        ("cast cure wounds", s.dnd_healing_spell, {"spell": "cure wounds", "target": None}),
        (
            "cast healing word on Ilsa",
            s.dnd_healing_spell,
            {"spell": "healing word", "target": "Ilsa"},
        ),
        (
            "cast cure wounds on Ilsa at level 2",
            s.dnd_healing_spell,
            {"spell": "cure wounds", "target": "Ilsa at level 2"},
        ),
    ],
    "cast magic missile at <target> [at level N] (a wizard)": [
        (
            "cast magic missile at the goblin",
            s.dnd_damage_spell,
            {"spell": "magic missile", "target": "the goblin"},
        ),
        (
            "cast magic missile at goblin at level 2",
            s.dnd_damage_spell,
            {"spell": "magic missile", "target": "goblin at level 2"},
        ),
    ],
    "cast fire bolt at <target> (a wizard) or sacred flame on <target> (a cleric)": [
        (
            "cast fire bolt at the goblin",
            s.dnd_damage_spell,
            {"spell": "fire bolt", "target": "the goblin"},
        ),
        (
            "cast sacred flame on the skeleton",
            s.dnd_damage_spell,
            {"spell": "sacred flame", "target": "the skeleton"},
        ),
    ],
    "cast shield of faith [on <target>] (a cleric; +2 AC while concentrating); end concentration": [
        ("cast shield of faith", s.dnd_ward_spell, {"target": None}),
        ("cast shield of faith on Bram", s.dnd_ward_spell, {"target": "Bram"}),
        ("I cast shield of faith on Bram", s.dnd_ward_spell, {"target": "Bram"}),
        ("end concentration", s.dnd_end_concentration, {"spell": None}),
        ("drop shield of faith", s.dnd_end_concentration, {"spell": "shield of faith"}),
        ("drop bless", s.dnd_end_concentration, {"spell": "bless"}),
        ("stop concentrating on bless", s.dnd_end_concentration, {"spell": "bless"}),
        ("stop concentrating", s.dnd_end_concentration, {"spell": None}),
    ],
    "cast bless on <target>, <target> and me [at level N] (a cleric; +1d4 to attack rolls and "
    "saves while concentrating)": [
        ("cast bless on Ilsa, Bram and me", s.dnd_bless, {"target": "Ilsa, Bram and me"}),
        ("cast bless", s.dnd_bless, {"target": None}),
        ("I cast bless on Ilsa", s.dnd_bless, {"target": "Ilsa"}),
        (
            "cast bless on Ilsa, Bram, Wren and me at level 2",
            s.dnd_bless,
            {"target": "Ilsa, Bram, Wren and me at level 2"},
        ),
    ],
    "short rest, spend N hit dice (or: spend a hit die; out of combat)": [
        ("short rest, spend 2 hit dice", s.dnd_short_rest, {"dice": "2"}),
        ("I take a short rest and spend 2 hit dice", s.dnd_short_rest, {"dice": "2"}),
        ("short rest, spend a hit die", s.dnd_short_rest, {"dice": "a"}),
        ("spend 1 hit die", s.dnd_short_rest, {"dice": "1"}),
        ("short rest", s.dnd_short_rest, {"dice": None}),
    ],
    LOOK + "; what's my hp?, show my character (or look at me)": [
        ("describe", s.dnd_describe, {}),
        ("look at the goblin", s.dnd_describe, {"target": "the goblin"}),
        ("whose turn is it?", s.dnd_whose_turn, {}),
        ("who's next?", s.dnd_whose_next, {}),
        ("who's winning?", s.dnd_combat_summary, {}),
        ("what's my hp?", s.dnd_sheet, {}),
        ("show my character", s.dnd_sheet, {}),
        ("look at me", s.dnd_describe, {"target": "me"}),
        ("describe myself", s.dnd_describe, {"target": "myself"}),
    ],
    "what spells do I have?, how many spell slots do I have left?, what spells does <name> have?": [
        ("what spells do I have?", s.dnd_sheet, {}),
        ("how many spell slots do I have left?", s.dnd_sheet, {}),
        ("what spells does Ash have?", s.dnd_describe, {"target": "Ash", "spells": SPELLS_OF_ASH}),
    ],
    PLAYER_QUESTIONS: [*ASKED, ("am I poisoned?", s.dnd_is, {})],
}
NAR_LOOK = "describe, or look (or: what's happening?, show the clocks, list facts)"
NAR_CLOCK_ASKED = (
    "is the <name> clock full?, how full is the <name> clock?, how many clocks are there?, "
    "who's here?"
)
NAR_ORACLE = (
    'ask the oracle "<question>" [likely|unlikely|even|very likely|...], or <question>? (likely)'
)
NAR_SHARED: dict[str, list[tuple[str, Any, dict[str, Any]]]] = {
    NAR_ORACLE: [
        ('ask the oracle "Is it raining?"', s.nar_oracle, {"question": "Is it raining?"}),
        ("Is it raining? (likely)", s.nar_oracle, {"unquoted": "Is it raining? (likely)"}),
        *[
            (
                f'ask the oracle "Is it raining?" {odds}',
                s.nar_oracle,
                {"question": "Is it raining?", "likelihood": odds},
            )
            for odds in ("likely", "unlikely", "even", "very likely")
        ],
    ],
    ROLL + ", e.g. roll a d20 and a d6": ROLLS,
    NAR_LOOK: [
        ("describe", s.nar_describe, {}),
        ("look", s.nar_describe, {}),
        ("what's happening?", s.nar_describe, {}),
        ("show the clocks", s.nar_describe, {}),
        ("list facts", s.nar_describe, {}),
    ],
    NAR_CLOCK_ASKED: [
        ("is the Doom clock full?", s.nar_clock_asked, {"name": "Doom", "state": "full"}),
        ("how full is the Doom clock?", s.nar_clock_asked, {"name": "Doom"}),
        ("how many clocks are there?", s.nar_how_many_clocks, {}),
        ("who's here?", s.nar_cast, {}),
    ],
}
NAR_GM_ONLY: dict[str, list[tuple[str, Any, dict[str, Any]]]] = {
    "advance [clock] <name> [by N | twice] (or add N to the <name> clock); "
    "create clock <name> [with] N segments, e.g. create clock Doom 6": [
        ("advance clock Doom", s.nar_advance_clock, {"name": "Doom", "ticks": None}),
        ("add 2 to the Doom clock", s.nar_advance_clock, {"name": "Doom", "ticks": "2"}),
        ("advance clock Doom by 2", s.nar_advance_clock, {"name": "Doom", "ticks": "2"}),
        ("advance Doom", s.nar_advance_named_clock, {"name": "Doom", "ticks": None}),
        ("advance Doom by 2", s.nar_advance_named_clock, {"name": "Doom", "ticks": "2"}),
        ("advance clock Doom twice", s.nar_advance_clock, {"name": "Doom", "times": "twice"}),
        (
            "create clock Doom with 6 segments",
            s.nar_create_clock,
            {"name": "Doom", "segments": "6"},
        ),
        ("create clock Doom 6 segments", s.nar_create_clock, {"name": "Doom", "size": "6"}),
        ("create clock Doom 6", s.nar_create_clock, {"name": "Doom", "size": "6"}),
    ],
    "open scene <title>[: what the players see]; end scene; record fact <text> [gm only] "
    "(or note that <text>); set phase <lobby|play>": [
        ("open scene The Old Mill", s.nar_open_scene, {"title": "The Old Mill"}),
        ("open scene The Old Mill: dust", s.nar_open_scene, {"title": "The Old Mill: dust"}),
        ("end scene", s.nar_end_scene, {}),
        ("record fact The door is locked", s.nar_record_fact, {"text": "The door is locked"}),
        ("note that the door is locked", s.nar_record_fact, {"text": "the door is locked"}),
        (
            "record fact The mayor lies gm only",
            s.nar_record_fact,
            {"text": "The mayor lies gm only"},
        ),
        ("set phase lobby", s.set_phase, {"phase": "lobby"}),
        ("set phase play", s.set_phase, {"phase": "play"}),
    ],
    "open thread <title>; resolve thread <title>[: how it ended]": [
        ("open thread The Heist", s.nar_open_thread, {"title": "The Heist"}),
        ("resolve thread The Heist", s.nar_resolve_thread, {"said": "The Heist"}),
        (
            "resolve thread The Heist: they got away",
            s.nar_resolve_thread,
            {"said": "The Heist: they got away"},
        ),
    ],
}
# In the order the GM reads them: the shared lines, the GM's own before the last two.
NAR_GM = {
    **dict(list(NAR_SHARED.items())[:-2]),
    **NAR_GM_ONLY,
    NAR_LOOK: NAR_SHARED[NAR_LOOK],
    NAR_CLOCK_ASKED: NAR_SHARED[NAR_CLOCK_ASKED],
}
SEATS = [
    ("dnd5e", True, DND_GM),
    ("dnd5e", False, DND_PLAYER),
    ("narrative", True, NAR_GM),
    ("narrative", False, NAR_SHARED),
]


def _lines(system_id: str, *, gm: bool) -> list[str]:
    head, *lines = help_text(system_id, gm=gm).split("\n")
    assert head == "I understand:"
    return [line.removeprefix("- ") for line in lines]


@pytest.mark.parametrize(("system_id", "gm", "documented"), SEATS)
def test_each_help_line_has_its_forms_here(system_id, gm, documented):
    assert _lines(system_id, gm=gm) == list(documented)


@pytest.mark.parametrize(
    ("system_id", "text", "handler", "groups"),
    [
        (system_id, text, handler, groups)
        for system_id, _gm, documented in SEATS
        for examples in documented.values()
        for text, handler, groups in examples
    ],
)
def test_each_documented_form_parses_to_its_command(system_id, text, handler, groups):
    intent, match = s._parse(system_id, text)
    assert intent is not None, text
    assert intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups, text


# Understood but no command of its own to list: initiative (answered that combat start rolls
# it), and a line addressed to a creature ("Ilsa, make a dex save": a listed form said of it).
# And a command said "twice" (answered: one at a time, the command once offered), and a clock
# deleted (answered that clocks are kept, with how one is wound back).
UNLISTED = {
    ("dnd5e", s.dnd_initiative),
    ("dnd5e", s.dnd_addressed),
    # "goblin casts fire bolt at Ilsa": a listed "cast" said of a creature, answered as it.
    ("dnd5e", s.dnd_someone_casts),
    ("dnd5e", s.repeated),
    ("narrative", s.repeated),
    ("narrative", s.nar_clock_not_deleted),
}


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
def test_every_command_of_the_grammar_is_in_someones_help(system_id):
    shown = {
        handler
        for sys_id, _gm, documented in SEATS
        if sys_id == system_id
        for examples in documented.values()
        for _text, handler, _groups in examples
    }
    grammar = {intent.handler for intent in GRAMMARS[system_id]}
    assert grammar - shown == {h for sys_id, h in UNLISTED if sys_id == system_id}


def _lowered(groups: dict[str, Any]) -> dict[str, Any]:
    return {k: v.lower() if isinstance(v, str) else v for k, v in groups.items()}


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        (text, handler, groups)
        for system_id, _gm, documented in SEATS
        if system_id == "dnd5e"
        for examples in documented.values()
        for text, handler, groups in examples
    ],
)
@pytest.mark.parametrize("typed", ["{}!", "{}.", "  {}  ", "{} 🙂"], ids=str)
def test_each_documented_dnd5e_form_parses_as_typed(text, handler, groups, typed):
    """In capitals, with a closing mark, spaces or an emoji, a form means the same; a roll's
    label keeps its own "!", as in narrative."""
    said = typed.format(text.upper())
    intent, match = s._parse("dnd5e", said)
    assert intent is not None, said
    assert intent.handler is handler, said
    if groups.get("label") and typed == "{}!":
        groups = {**groups, "label": groups["label"] + "!"}
    assert _lowered({k: match.groupdict().get(k) for k in groups}) == _lowered(groups), said
