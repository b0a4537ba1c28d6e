"""An audit of the scripted GM's grammar against what players and GMs type: for each command it
supports, the natural phrasings of that command are read as it, with the arguments said.
Phrasings that could mean more than one command are not acted on: the reply names the command
that fits (tested at the end)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent
from tests.turns.test_scripted_narrative import _writes

D, N = "dnd5e", "narrative"

# (system, text, handler, the match's groups that carry the arguments)
UNDERSTOOD: list[tuple[str, str, Callable[..., None], dict[str, Any]]] = [
    # Attacks.
    (D, "I swing my longsword at the goblin", s.dnd_attack, {"target": "the goblin"}),
    (D, "attack goblin 2 with my sword", s.dnd_attack,
     {"target": "goblin 2", "weapon": "my sword"}),
    (D, "I attack the goblin with my longsword", s.dnd_attack,
     {"target": "the goblin", "weapon": "my longsword"}),
    (D, "I hit the goblin with my mace", s.dnd_attack,
     {"target": "the goblin", "weapon": "my mace"}),
    (D, "I shoot the goblin with my shortbow", s.dnd_attack,
     {"target": "the goblin", "weapon": "my shortbow"}),
    (D, "I stab goblin 2 with my dagger", s.dnd_attack,
     {"target": "goblin 2", "weapon": "my dagger"}),
    (D, "I slash at the orc", s.dnd_attack, {"target": "the orc", "weapon": None}),
    (D, "I swing at goblin 2 with advantage", s.dnd_attack,
     {"target": "goblin 2", "mode": "advantage"}),
    (D, "I attack the nearest goblin", s.dnd_attack, {"target": "the nearest goblin"}),
    (D, "I cast fire bolt at the goblin", s.dnd_damage_spell,
     {"spell": "fire bolt", "target": "the goblin"}),
    # Spells.
    (D, "I cast cure wounds on Mira", s.dnd_healing_spell,
     {"spell": "cure wounds", "target": "Mira"}),
    (D, "cast healing word at Bram", s.dnd_healing_spell,
     {"spell": "healing word", "target": "Bram"}),
    (D, "I heal Bram with healing word", s.dnd_healing_spell,
     {"spell": "healing word", "target": "Bram"}),
    (D, "cast magic missile at the goblin", s.dnd_damage_spell,
     {"spell": "magic missile", "target": "the goblin"}),
    # Checks and saves.
    (D, "I'd like to make a perception check", s.dnd_check, {"what": "perception", "dc": None}),
    (D, "roll stealth", s.dnd_check, {"what": "stealth"}),
    (D, "I roll for investigation", s.dnd_check, {"what": "investigation"}),
    (D, "roll a perception check", s.dnd_check, {"what": "perception"}),
    (D, "I roll for perception dc 15", s.dnd_check, {"what": "perception", "dc": "15"}),
    (D, "make a strength saving throw", s.dnd_save, {"what": "strength"}),
    (D, "I roll a dexterity saving throw", s.dnd_save, {"what": "dexterity"}),
    (D, "roll a wisdom save dc 13", s.dnd_save, {"what": "wisdom", "dc": "13"}),
    (D, "I make a con save", s.dnd_save, {"what": "con"}),
    # Rolls.
    (D, "I roll a d20", s.roll_dice, {"expr": "1d20"}),
    (D, "roll 2d6 for damage", s.roll_dice, {"expr": "2d6", "label": "damage"}),
    (D, "let's roll initiative", s.dnd_initiative, {}),
    # Rests.
    (D, "I take a short rest", s.dnd_short_rest, {"dice": None}),
    (D, "I take a short rest and spend two hit dice", s.dnd_short_rest, {"dice": "two"}),
    (D, "I take a long rest", s.dnd_long_rest, {}),
    # Moves and turns.
    (D, "move 2 squares north", s.dnd_move_by,
     {"amount": "2", "unit": "squares", "direction": "north"}),
    (D, "I move north 10 feet", s.dnd_move_by,
     {"amount": "10", "unit": "feet", "direction": "north"}),
    (D, "I move to 3, 4", s.dnd_move, {"x": "3", "y": "4"}),
    (D, "I walk north", s.dnd_move_by, {"direction": "north", "amount": None}),
    (D, "I move up to the goblin", s.dnd_move_beside, {"target": "the goblin"}),
    (D, "I end my turn", s.dnd_end_turn, {}),
    (D, "I pass", s.dnd_end_turn, {}),
    # Combat actions.
    (D, "I take the dodge action", s.dnd_combat_action, {"action": "dodge"}),
    (D, "I dash as a bonus action", s.dnd_combat_action,
     {"action": "dash", "bonus": " as a bonus action"}),
    (D, "I hide behind the crate", s.dnd_hide, {"dc": None}),
    (D, "I help Bram attack the goblin", s.dnd_help, {"ally": "Bram", "target": "the goblin"}),
    (D, "I shove the goblin prone", s.dnd_shove, {"target": "the goblin", "how": "prone"}),
    (D, "I make a death saving throw", s.dnd_death_save, {}),
    (D, "I stand up", s.dnd_stand_up, {}),
    (D, "I drink a potion of healing", s.dnd_heal, {"target": "me"}),
    # The GM's.
    (D, "start a fight with 3 goblins", s.dnd_start_combat, {"monsters": "3 goblins"}),
    (D, "end the combat", s.dnd_end_combat, {}),
    (D, "set the phase to lobby", s.set_phase, {"phase": "lobby"}),
    (D, "knock the goblin prone", s.dnd_condition, {"target": "the goblin", "knocked": "prone"}),
    # The oracle.
    (N, "ask the oracle: is the door locked?", s.nar_oracle,
     {"unquoted": "is the door locked?"}),
    (N, 'ask the oracle "is the door locked?" likely', s.nar_oracle,
     {"question": "is the door locked?", "likelihood": "likely"}),
    (N, "Oracle, does the mayor know?", s.nar_oracle, {"unquoted": "does the mayor know?"}),
    # Clocks.
    (N, "advance the Alarm clock by 2", s.nar_advance_clock, {"name": "Alarm", "ticks": "2"}),
    (N, "tick the Alarm clock", s.nar_advance_clock, {"name": "Alarm", "ticks": None}),
    (N, "advance Alarm by 1", s.nar_advance_named_clock, {"name": "Alarm", "ticks": "1"}),
    (N, "tick Alarm twice", s.nar_advance_named_clock, {"name": "Alarm", "times": "twice"}),
    (N, "create a clock called Alarm with 4 segments", s.nar_create_clock,
     {"name": "Alarm", "segments": "4"}),
    (N, "start a 4-segment clock called Alarm", s.nar_create_clock,
     {"name": "Alarm", "segments": "4"}),
    # Scenes, threads and facts.
    (N, "new scene: the docks", s.nar_open_scene, {"title": "the docks"}),
    (N, "close the scene", s.nar_end_scene, {}),
    (N, "new thread: find the thief", s.nar_open_thread, {"title": "find the thief"}),
    (N, "resolve the heist thread: they got away", s.nar_resolve_thread,
     {"title": "heist", "resolution": "they got away"}),
    (N, "record a fact: the mayor lied", s.nar_record_fact, {"text": "the mayor lied"}),
    (N, "look around", s.nar_describe, {}),
]  # fmt: skip


@pytest.mark.parametrize(("system_id", "text", "handler", "groups"), UNDERSTOOD)
def test_a_natural_phrasing_is_read_as_its_command(system_id, text, handler, groups):
    intent, match = s._parse(system_id, text)
    assert intent is not None and match is not None, text
    assert intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


# Said as a table says an attack, and read as none (or as an attack on "goblin 2 using my
# longsword") before.
ATTACKS_SAID: list[tuple[str, dict[str, Any]]] = [
    ("I attack goblin 2 using my longsword", {"target": "goblin 2", "weapon": "my longsword"}),
    ("attack the goblin using my longsword with advantage",
     {"target": "the goblin", "weapon": "my longsword", "mode": "advantage"}),
    ("attack the goblin with my longsword, with advantage",
     {"target": "the goblin", "weapon": "my longsword", "mode": "advantage"}),
    ("make an attack against the goblin", {"target": "the goblin", "weapon": None}),
    ("I make an attack on goblin 2 with my dagger", {"target": "goblin 2", "weapon": "my dagger"}),
    ("I fire my crossbow at the goblin", {"target": "the goblin", "weapon": "my crossbow"}),
    ("fire at the goblin", {"target": "the goblin", "weapon": None}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "groups"), ATTACKS_SAID)
def test_an_attack_said_with_using_make_or_fire_is_an_attack(text, groups):
    intent, match = s._parse(D, text)
    assert intent is not None and match is not None, text
    assert intent.handler is s.dnd_attack, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


def test_an_attack_using_a_weapon_attacks_with_it(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, "I make an attack on goblin 2 using my longsword")
    assert calls == [
        ("attack", {"attacker_id": "pc-1", "target_id": "mon-3", "attack_name": "longsword"})
    ]
    assert output.declined is False


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("I use cure wounds on Mira", s.dnd_healing_spell,
         {"spell": "cure wounds", "target": "Mira"}),
        ("use healing word on myself", s.dnd_healing_spell,
         {"spell": "healing word", "target": "myself"}),
        ("I use magic missile on goblin 2", s.dnd_damage_spell,
         {"spell": "magic missile", "target": "goblin 2"}),
    ],
)  # fmt: skip
def test_a_spell_used_is_cast(text, handler, groups):
    intent, match = s._parse(D, text)
    assert intent is not None and match is not None, text
    assert intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("I run 30 feet north", s.dnd_move_by,
         {"amount": "30", "unit": "feet", "direction": "north"}),
        ("I run south", s.dnd_move_by, {"direction": "south", "amount": None}),
        ("I walk to 3, 4", s.dnd_move, {"x": "3", "y": "4"}),
        ("I walk to the goblin", s.dnd_move_beside, {"target": "the goblin"}),
        ("step next to goblin 2", s.dnd_move_beside, {"target": "goblin 2"}),
        ("run up to the goblin", s.dnd_move_beside, {"target": "the goblin"}),
        ("I approach the goblin", s.dnd_move_beside, {"target": "the goblin"}),
    ],
)  # fmt: skip
def test_a_move_said_with_walk_run_step_or_approach_is_a_move(text, handler, groups):
    intent, match = s._parse(D, text)
    assert intent is not None and match is not None, text
    assert intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


def test_running_south_moves_the_character(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up, at (5, 0)
    calls, output = _sent(table, player, "I run 10 feet south")
    assert calls == [("combat_move", {"character_id": "pc-1", "x": 5, "y": 2})]
    assert output.declined is False


@pytest.mark.parametrize("text", ["I'm ending my turn", "ending my turn", "I am ending my turn."])
def test_ending_my_turn_ends_it(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    run = table.run(player, text, job_id="ending")
    assert run.texts == [("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")]
    assert "combat_end_turn" in run.tools


HELP_AFTER = " (or say “help” for what I understand)."


@pytest.mark.parametrize(
    ("seat", "text", "reply", "suggestion"),
    [
        ("player", "I rest", "I did not understand that. To rest, say: short rest, spend N hit "
         f"dice (a long rest is the GM's call){HELP_AFTER}", "short rest"),
        ("player", "we rest for the night", "I did not understand that. Only the GM can call a "
         "long rest (say “help” for what you can do).", None),
        ("gm", "the party rests", "I did not understand that. To rest, say: short rest for "
         f"<name>, N hit dice, or long rest [for <name>]{HELP_AFTER}", None),
        ("gm", "everyone rests for the night", "I did not understand that. To take a long rest, "
         f"say: long rest [for <name>]{HELP_AFTER}", None),
    ],
)  # fmt: skip
def test_a_rest_of_no_length_is_answered_with_the_rests_there_are(
    live_domains, gm, player, seat, text, reply, suggestion
):
    """ "I rest" may be a short rest or a long one: nothing is rested on a guess, the reply
    says how each is called."""
    table = make_table(D, gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    before = table.revision()
    run = table.run(gm if seat == "gm" else player, text, job_id=text)
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == ((suggestion,) if suggestion else ())
    assert run.tools == [] and table.revision() == before


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("open scene The Docks: fog and bells",
         {"title": "The Docks", "description": "Fog and bells"}),
        ("new scene: the docks: Fog rolls over the piers.",
         {"title": "the docks", "description": "Fog rolls over the piers."}),
        ("open a scene at the old mill: the wheel is still",
         {"title": "The old mill", "description": "The wheel is still"}),
        # Quoted, or with no space after it, a colon is the title's own.
        ('open scene "Act 1: The Docks"', {"title": "Act 1: The Docks"}),
        ('open scene "Act 1: The Docks": fog', {"title": "Act 1: The Docks", "description": "Fog"}),
        ("open scene The 10:30 Train", {"title": "The 10:30 Train"}),
    ],
)  # fmt: skip
def test_words_after_a_scene_titles_colon_describe_the_scene(story, text, arguments):
    """ "open scene The Docks: fog and bells" opened a scene titled "The Docks: fog and
    bells"."""
    assert _writes(story, story.gm, text) == [("scene_start", arguments)]


def test_a_scene_opened_with_a_description_is_seen_with_it(story):
    opened = story.run(story.gm, "open scene The Docks: fog and bells", job_id="open")
    assert opened.texts[0][0].endswith("The Docks. Fog and bells.")
    assert story.run(story.player, "look", job_id="look").texts == [
        ("Scene: The Docks. Fog and bells.", "trigger")
    ]


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("is the door locked? (likely)", ("is the door locked?", "likely")),
        ("Will the bridge hold? [very unlikely]", ("Will the bridge hold?", "very_unlikely")),
        ("does the mayor know? (50/50)", ("does the mayor know?", "even")),
    ],
)
def test_a_question_with_its_odds_in_brackets_is_asked_of_the_oracle(story, text, asked):
    """Odds in brackets after a yes-or-no question are the oracle's, said as a table notes
    them: the oracle is asked at those odds."""
    question, likelihood = asked
    assert _writes(story, story.player, text) == [
        ("oracle_ask", {"question": question, "likelihood": likelihood})
    ]


def test_a_question_with_odds_not_in_brackets_is_offered_to_the_oracle(story):
    """ "is the door locked? likely" may be the player's guess at the answer: nothing is asked,
    the oracle's command is offered with those odds."""
    before = story.revision()
    run = story.run(story.player, "is the door locked? likely", job_id="odds")
    command = "ask the oracle “Is the door locked?” likely"
    assert run.texts == [
        (
            f"That is for the GM or the oracle to judge. Ask the oracle, like: {command}"
            " (or say “help” for what I understand).",
            "requester",
        )
    ]
    assert run.output.suggestions == (command,)
    assert run.tools == [] and story.revision() == before
    intent, match = s._parse(N, command)
    assert intent is not None and intent.handler is s.nar_oracle
    assert (match["question"], match["likelihood"]) == ("Is the door locked?", "likely")


@pytest.mark.parametrize(
    ("text", "arguments"),
    [
        ("note that the mayor lied", {"text": "the mayor lied", "audience": "public"}),
        ("Note: The bridge is out.", {"text": "The bridge is out.", "audience": "public"}),
        ("fact: the abbot lies (gm only)", {"text": "the abbot lies", "audience": "gm"}),
        ("record that the well is dry", {"text": "the well is dry", "audience": "public"}),
    ],
)
def test_a_fact_noted_as_a_table_notes_it_is_recorded(story, text, arguments):
    assert _writes(story, story.gm, text) == [("fact_add", arguments)]


@pytest.mark.parametrize(
    ("seat", "reply"),
    [
        ("gm", "I did not understand that. To record a fact, say: record fact <text> [gm only] "
         "(or say “help” for what I understand)."),
        ("player", "I did not understand that. Only the GM can record a fact (say “help” for "
         "what you can do)."),
    ],
)  # fmt: skip
def test_remember_that_is_answered_with_how_a_fact_is_recorded(story, seat, reply):
    """ "remember that the mayor lied" may be a reminder to the table, not a fact to record:
    nothing is recorded, the reply says how a fact is."""
    before = story.revision()
    run = story.run(getattr(story, seat), "remember that the mayor lied", job_id="remember")
    assert run.texts == [(reply, "requester")]
    assert run.tools == [] and story.revision() == before


def test_segments_added_to_a_clock_advance_it(story):
    story.run(story.gm, "create clock Alarm 6", job_id="alarm")
    for text, ticks in [
        ("add 2 to the Alarm clock", 2),
        ("add a tick to the alarm clock", 1),
        ("add two segments to clock Alarm", 2),
    ]:
        assert _writes(story, story.gm, text) == [
            ("clock_advance", {"clock_id": "clock-1", "ticks": ticks})
        ], text
    [alarm] = story.call(story.gm, "story_get").structured["clocks"]
    assert (alarm["filled"], alarm["segments"]) == (5, 6)


@pytest.mark.parametrize("text", ["I charge the goblin", "I punch"])
def test_a_blow_the_rules_have_no_attack_for_is_pointed_at_attack(live_domains, gm, player, text):
    """A charge may be a move or an attack, and a punch at nobody has no target: nothing is
    done, the reply says how an attack is made."""
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="blow")
    assert run.texts == [
        (f"I did not understand that. To attack, say: attack <target> [with <weapon>]{HELP_AFTER}",
         "requester")
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before


# Said so, these could mean more than one command (or something no command does): none is
# read from them; the reply names the command that fits (tested above, and for "done" and
# "skip my turn" in test_scripted_done.py and test_scripted_nearest_form.py).
NOT_ACTED_ON = [
    (D, "done"),  # the turn, or only the talk?
    (D, "I'm done"),
    (D, "skip my turn"),
    (D, "my turn is over"),
    (D, "I rest"),  # a short rest or a long one
    (D, "we rest for the night"),  # a long rest, the GM's to call
    (D, "I charge the goblin"),  # a move, an attack, or both
    (D, "I step back"),  # no direction on the map
    (D, "go to goblin 2"),  # as "go to sleep", "go to the tavern": not always a move
    (D, "the fight is over"),  # said of the fiction, or the GM ending combat
    (N, "is the door locked?"),  # asked of the GM or of the oracle
    (N, "is the door locked? likely"),  # the odds, or a guess at the answer
    (N, "remember that the mayor lied"),  # a reminder to the table, or a fact
    (N, "scene: the docks"),  # a new scene, or the one we are in
]


@pytest.mark.parametrize(("system_id", "text"), NOT_ACTED_ON)
def test_a_phrasing_of_more_than_one_meaning_is_read_as_no_command(system_id, text):
    assert s._parse(system_id, text) == (None, None)


@pytest.mark.parametrize("text", ["I step back", "I run away from the goblins"])
def test_a_move_with_no_square_or_direction_is_pointed_at_the_move_commands(
    live_domains, gm, player, text
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="away")
    assert run.texts == [
        ("I did not understand that. To move, say: move N squares <direction>, move to X,Y or "
         f"move to <target>{HELP_AFTER}", "requester")
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("roll perception with advantage",
         ("ability_check", {"character_id": "pc-1", "dc": 10, "skill": "perception",
                            "advantage": True})),
        ("I make a stealth check with disadvantage",
         ("ability_check", {"character_id": "pc-1", "dc": 10, "skill": "stealth",
                            "disadvantage": True})),
        ("check athletics with advantage dc 12",
         ("ability_check", {"character_id": "pc-1", "dc": 12, "skill": "athletics",
                            "advantage": True})),
        ("roll a dex save dc 14 with advantage",
         ("saving_throw", {"character_id": "pc-1", "dc": 14, "ability": "dex",
                           "advantage": True})),
    ],
)  # fmt: skip
def test_a_check_or_save_asked_with_advantage_is_rolled_so(live_domains, gm, player, text, sent):
    """ "roll perception with advantage" was refused as no skill named "perception with
    advantage"; it asks for that roll, as an attack does (the rules still cancel it)."""
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls == [sent]
    assert output.declined is False


def _read_as(system_id: str, text: str, handler: Callable[..., None], groups: dict[str, Any]):
    intent, match = s._parse(system_id, text)
    assert intent is not None and match is not None, text
    assert intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups, text


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("I use the dodge action", {"action": "dodge", "bonus": None}),
        ("use the Dash action as a bonus action",
         {"action": "Dash", "bonus": " as a bonus action"}),
    ],
)  # fmt: skip
def test_an_action_used_is_taken(text, groups):
    _read_as(D, text, s.dnd_combat_action, groups)


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("start combat against 2 goblins", s.dnd_start_combat, {"monsters": "2 goblins"}),
        ("start an encounter with a goblin", s.dnd_start_combat, {"monsters": "a goblin"}),
        ("begin the encounter", s.dnd_start_combat, {"monsters": None}),
        ("end the encounter", s.dnd_end_combat, {}),
    ],
)
def test_combat_started_against_foes_or_as_an_encounter_is_combat(text, handler, groups):
    _read_as(D, text, handler, groups)


def test_combat_started_against_goblins_spawns_them(live_domains, gm, player):
    table = make_table(D, gm, player)
    run = table.run(gm, "start combat against 2 goblins", job_id="against")
    assert run.tools.count("monster_spawn") == 2
    order = table.call(gm, "combat_status").structured["combat"]["order"]
    assert sorted(c["id"] for c in order) == ["mon-1", "mon-2"]


@pytest.mark.parametrize("system_id", [D, N])
@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("set phase: play", "play"),
        ("change the phase to lobby", "lobby"),
        ("switch to play phase", "play"),
        ("switch to the lobby", "lobby"),
    ],
)
def test_the_phase_changed_or_switched_to_is_set(system_id, text, phase):
    _read_as(system_id, text, s.set_phase, {"phase": phase})


def test_switching_to_play_sets_the_phase(live_domains, gm, player):
    table = make_table(D, gm, player)
    assert table.run(gm, "switch to play phase", job_id="switch").texts == [
        ("The campaign moves from lobby to play.", "trigger")
    ]


@pytest.mark.parametrize("text", ["get back up", "I get back up", "I stand back up"])
def test_getting_back_up_is_standing_up(text):
    _read_as(D, text, s.dnd_stand_up, {})


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("tick up the Alarm clock", {"name": "Alarm", "ticks": None}),
        ("tick up the Alarm clock by 2", {"name": "Alarm", "ticks": "2"}),
        ("tick up clock Alarm", {"name": "Alarm", "ticks": None}),
    ],
)
def test_a_clock_ticked_up_is_advanced(text, groups):
    """ "tick up the Alarm clock" was read as a clock named "up the Alarm"."""
    _read_as(N, text, s.nar_advance_clock, groups)


@pytest.mark.parametrize(
    "text", ["I make my death save", "make my death saving throw", "roll my death save"]
)
def test_my_death_save_is_a_death_save(text):
    """ "I make my death save" was refused as a save of the ability "make my death"."""
    _read_as(D, text, s.dnd_death_save, {"target": None})


@pytest.mark.parametrize(
    ("text", "handler", "what"),
    [
        ("let me make a wisdom saving throw", s.dnd_save, "wisdom"),
        ("let me make a perception check", s.dnd_check, "perception"),
    ],
)
def test_a_check_or_save_said_after_let_me_names_the_ability(text, handler, what):
    """ "let me make a wisdom saving throw" was refused as a save of "let me make a wisdom"."""
    _read_as(D, text, handler, {"what": what})


@pytest.mark.parametrize("text", ["I move to square 4,1", "move to square (4, 1)"])
def test_a_square_named_as_one_is_moved_to(text):
    """ "move to square 3,4" was read as a move beside a creature named "square 3,4"."""
    _read_as(D, text, s.dnd_move, {"x": "4", "y": "1"})


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("I take the hide action", {"dc": None, "bonus": None}),
        ("use the Hide action as a bonus action", {"bonus": " as a bonus action"}),
    ],
)
def test_the_hide_action_taken_is_hiding(text, groups):
    _read_as(D, text, s.dnd_hide, groups)


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("I attack the goblin at advantage", s.dnd_attack,
         {"target": "the goblin", "mode": "advantage"}),
        ("attack goblin 2 with my dagger at disadvantage", s.dnd_attack,
         {"target": "goblin 2", "weapon": "my dagger", "mode": "disadvantage"}),
        ("roll stealth at advantage", s.dnd_check, {"what": "stealth", "mode": "advantage"}),
        ("throw my dagger at the goblin at advantage", s.dnd_attack,
         {"target": "the goblin", "weapon": "my dagger", "mode": "advantage"}),
    ],
)  # fmt: skip
def test_at_advantage_is_with_advantage(text, handler, groups):
    """ "attack the goblin at advantage" was an attack on "the goblin at advantage"."""
    _read_as(D, text, handler, groups)


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("check on the goblin", {"target": "the goblin"}),
        ("I check on Ilsa", {"target": "Ilsa"}),
        ("look around the room", {"target": None}),
    ],
)
def test_checking_on_a_creature_or_looking_around_a_place_is_a_look(text, groups):
    """ "check on the goblin" was refused as a check of the skill "on the goblin", and "look
    around the room" was not understood."""
    _read_as(D, text, s.dnd_describe, groups)


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("we make a dex save", s.dnd_save, {"what": "dex", "target": None}),
        ("we roll initiative", s.dnd_initiative, {}),
        ("we'll make a perception check", s.dnd_check, {"what": "perception", "target": None}),
        ("we're going to attack the goblin", s.dnd_attack,
         {"target": "the goblin", "attacker": None}),
        ("we want to take the dodge action", s.dnd_combat_action,
         {"action": "dodge", "who": None}),
    ],
)  # fmt: skip
def test_a_command_said_as_we_is_said_as_i(text, handler, groups):
    """ "we make a dex save" was a save of the ability "we make a dex", and "we roll
    initiative" was not understood: a player speaks for their character, "we" as "I"."""
    _read_as(D, text, handler, groups)


def test_a_save_said_as_we_is_my_characters(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is the player's
    calls, output = _sent(table, player, "we make a dex save dc 12")
    assert calls == [("saving_throw", {"character_id": "pc-1", "dc": 12, "ability": "dex"})]
    assert output.declined is False


def test_a_free_action_said_as_we_is_put_to_the_oracle_as_ours(story):
    run = story.run(story.player, "we search the room", job_id="we")
    command = "ask the oracle “Do we manage to search the room?”"
    assert run.texts == [
        (
            f"That is for the GM or the oracle to judge. Ask the oracle, like: {command}"
            " (or say “help” for what I understand).",
            "requester",
        )
    ]
    assert run.output.suggestions == (command,)


UNARMED = "Unarmed Strike"


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("I punch the goblin", {"target": "the goblin", "weapon": "a punch"}),
        ("kick the goblin", {"target": "the goblin", "weapon": "a kick"}),
        ("I kick goblin 2 with advantage",
         {"target": "goblin 2", "weapon": "a kick", "mode": "advantage"}),
        ("attack the goblin unarmed", {"target": "the goblin", "weapon": "unarmed"}),
        ("attack goblin 2 unarmed with advantage",
         {"target": "goblin 2", "weapon": "unarmed", "mode": "advantage"}),
        ("attack the unarmed guard", {"target": "the unarmed guard", "weapon": None}),
        ("attack the goblin with my fists", {"target": "the goblin", "weapon": "my fists"}),
        ("Ilsa punches the goblin",
         {"attacker": "Ilsa", "target": "the goblin", "weapon": "a punch"}),
    ],
)  # fmt: skip
def test_a_punch_or_kick_is_an_unarmed_attack(text, groups):
    """ "I punch the goblin" and "kick the goblin" were not understood, and "attack the goblin
    unarmed" was an attack on "the goblin unarmed"."""
    _read_as(D, text, s.dnd_attack, groups)


@pytest.mark.parametrize(
    "text",
    ["I punch the goblin", "kick the goblin", "attack the goblin unarmed",
     "attack the goblin with my fists", "attack the goblin with my bare hands"],
)  # fmt: skip
def test_an_unarmed_attack_is_made_with_the_unarmed_strike(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls[0] == (
        "attack",
        {"attacker_id": "pc-1", "target_id": "mon-2", "attack_name": UNARMED},
    )
    assert output.declined is False
