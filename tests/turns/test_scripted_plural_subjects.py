""" "the goblins are knocked out", "the goblins wake up", "poison the goblins": a plural that
fits several creatures of that kind asks the GM to name one at a time, listing them, each as a
command to send; one that fits a single living creature is that creature. The plural verbs
("fall", "pass out", "faint", "wake") are read as the singular ones are."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db

# Ilsa, Goblin 2 (mon-3), Goblin (mon-2), in initiative order.
GIVEN = [
    ("the goblins are knocked out", "knock {} unconscious"),
    ("The goblins fall unconscious.", "knock {} unconscious"),
    ("the goblins fall asleep", "knock {} unconscious"),
    ("the goblins pass out", "knock {} unconscious"),
    ("the goblins faint", "knock {} unconscious"),
    ("the goblins fall prone", "knock {} prone"),
    ("knock the goblins prone", "knock {} prone"),
    ("poison the goblins", "poison {}"),
]
LIFTED = [
    ("the goblins wake up", "wake {}"),
    ("wake the goblins", "wake {}"),
    ("the goblins are no longer poisoned", "remove poisoned from {}"),
]


@pytest.mark.parametrize(("text", "command"), GIVEN + LIFTED)
def test_the_gm_is_asked_to_name_the_creatures_one_at_a_time(
    live_domains, gm, player, text, command
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="plural")
    said = text.split(" goblins")[0].split()[-1] + " goblins"  # "the goblins", "The goblins"
    assert run.texts == [
        (
            f"“{said}” are Goblin 2 and Goblin: name one at a time, "
            f"as in “{command.format('Goblin 2')}”.",
            "requester",
        )
    ]
    assert run.output.suggestions == (command.format("Goblin 2"), command.format("Goblin"))
    assert not {"condition_add", "condition_remove"} & set(run.tools)
    assert table.revision() == before


def test_a_plural_that_fits_one_living_creature_is_that_creature(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="mon-3", amount=50)  # Goblin 2 dies
    run = table.run(gm, "the goblins fall unconscious", job_id="one-left")
    assert run.texts == [("Goblin is now unconscious and prone.", "trigger")]
    woken = table.run(gm, "the goblins wake up", job_id="one-wakes")
    assert woken.texts == [("Goblin is no longer unconscious, but still prone.", "trigger")]


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("the goblins fall unconscious", "Only the GM can give a creature a condition."),
        ("the goblins wake up", "Only the GM can remove a creature's condition."),
    ],
)
def test_a_player_is_told_only_the_gm_can(live_domains, gm, player, text, refusal):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="p-plural")
    assert run.texts == [(refusal, "requester")]
    assert table.revision() == before


@pytest.mark.parametrize("text", ["I fall unconscious", "I faint", "I'll pass out"])
def test_said_of_oneself_no_creature_is_looked_up(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, text, job_id="me")
    assert not any("cannot find" in t for t, _a in run.texts), run.texts
