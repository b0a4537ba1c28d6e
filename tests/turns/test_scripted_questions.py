"""Everyday questions in a dnd5e room are answered from what the scripted GM reads (the
combat, the creatures present), to the one who asks; one it cannot answer gets a short reply
naming what can be asked, not the whole help list."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import TurnContext
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db

# Ilsa (pc-1) at (5, 0) is up; Goblin 2 (mon-3) and Goblin (mon-2) stand beside her.
ANSWERED = [
    ("player", "where am I?", "Ilsa stands at (5, 0) on the battle map. The nearest foe, "
     "Goblin 2, is 1 square away."),
    ("player", "how many goblins are there?", "2 are here: Goblin 2 and Goblin."),
    ("gm", "How many enemies are left?", "2 are here: Goblin 2 and Goblin."),
    ("player", "how many dragons are there?",
     "There are no dragons here. Present: Ilsa, Goblin 2, Goblin."),
    ("player", "is the goblin dead?", "No: Goblin is unhurt."),
    ("player", "is goblin 2 still alive?", "Yes: Goblin 2 is alive."),
    ("gm", "is Ilsa poisoned?", "No: Ilsa is unhurt."),
    ("player", "are the goblins dead?", "Goblin 2 is unhurt. Goblin is unhurt."),
    ("player", "what can I do?", "It is your turn, Ilsa: you can say “attack goblin 2” or "
     "“end turn”. Say “help” for every command."),
    ("gm", "what can I do?", "It is Ilsa's turn: their player acts; you can say “describe” or "
     "“end Ilsa's turn”. Say “help” for every command."),
]  # fmt: skip


@pytest.mark.parametrize(("seat", "text", "answer"), ANSWERED)
def test_a_question_the_state_answers_is_answered(live_domains, gm, player, seat, text, answer):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run({"gm": gm, "player": player}[seat], text, job_id="asked")
    assert run.texts == [(answer, "requester")]
    assert run.tools == ["combat_status"]
    assert run.output.declined is False
    assert table.revision() == before


def test_a_condition_asked_about_is_answered_from_the_creatures_conditions(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "condition_add", target_id="mon-2", condition="poisoned")
    _gm_write(table, "damage_apply", target_id="mon-3", amount=50)  # Goblin 2 dies
    assert table.run(player, "is the goblin poisoned?", job_id="p").texts == [
        ("Yes: Goblin is poisoned.", "requester")
    ]
    assert table.run(player, "is goblin 2 dead?", job_id="d").texts == [
        ("Yes: Goblin 2 is dead.", "requester")
    ]
    assert table.run(player, "is the goblin prone?", job_id="n").texts == [
        ("No: Goblin is unhurt and poisoned.", "requester")
    ]


def test_on_a_monsters_turn_a_player_is_told_the_gm_acts_for_it(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")
    run = table.run(player, "what can I do?", job_id="asked")
    assert run.texts == [
        (
            "It is Goblin 2's turn: the GM acts for it; wait for yours. "
            "Say “help” for every command.",
            "requester",
        )
    ]


@pytest.mark.parametrize(
    "text", ["is the door locked?", "what is the goblin thinking?", "who built this place?"]
)
def test_a_question_the_state_cannot_answer_gets_a_short_reply(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, text, job_id="other")
    assert run.texts == [
        (
            "I can only answer from the game's state: whose turn is it?, what can I do?, "
            "where am I?, is <name> dead?, how many goblins are there?, or “describe” (say "
            "“help” for every command).",
            "requester",
        )
    ]
    assert run.output.suggestions == ("describe",)


def _reply(text: str, *, phase: str, role: str) -> tuple[list[str], tuple[str, ...]]:
    turn = TurnContext(
        job_id="q", system_id="dnd5e", phase=phase, role=role, task="action", text=text, tools=()
    )
    output = ScriptedAgent().run_turn(turn, lambda tool, arguments: pytest.fail(tool))
    return [m.text for m in output.messages], output.suggestions


@pytest.mark.parametrize(
    ("phase", "role", "reply", "suggestions"),
    [
        (
            "lobby",
            "gm",
            "Play has not started: say “set phase play” to start. Say “help” for every command.",
            ("set phase play",),
        ),
        ("lobby", "player", "Play starts when the GM says so. Say “help” for every command.", ()),
        (
            "play",
            "player",
            "You can look around (“describe”), make a check (“check perception”) or roll dice "
            "(“roll 1d20”). Say “help” for every command.",
            ("describe", "check perception"),
        ),
        (
            "play",
            "gm",
            "You can look around (“describe”), call a check (“perception check for <name>”) or "
            "start a fight (“start combat with 2 goblins”). Say “help” for every command.",
            ("describe", "start combat"),
        ),
    ],
)
def test_what_can_i_do_outside_combat_is_a_short_answer(phase, role, reply, suggestions):
    assert _reply("what can I do?", phase=phase, role=role) == ([reply], suggestions)


def test_where_am_i_outside_combat_points_to_a_look():
    assert _reply("Where am I?", phase="play", role="player") == (
        [
            "Only a combatant has a square, on the battle map in combat: “describe” says who "
            "is here (or say “help” for what I understand)."
        ],
        ("describe",),
    )
