"""Waking and knocking out name a creature present: "wake up" alone names nobody (not a
creature called "up"), and a subject that is no creature here ("the sun wakes up",
"everyone falls unconscious") is answered with the creatures present, at any seat, in any
phase, before anything else is said of it."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["wake up", "I wake up", "Wake up!"])
def test_the_gm_is_asked_who_wakes_up_when_nobody_is_named(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="wake-nobody")
    assert run.texts == [
        ("Say who wakes up, as in “wake Ilsa”. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert "condition_remove" not in run.tools
    assert table.revision() == before


def test_a_player_who_says_wake_up_is_told_only_the_gm_can(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "I wake up", job_id="p-wake-nobody")
    assert run.texts == [("Only the GM can remove a creature's condition.", "requester")]


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("the sun wakes up", "the sun"),
        ("everyone falls unconscious", "everyone"),
        ("Everyone is knocked out.", "Everyone"),
        ("the whole party is no longer frightened", "the whole party"),
    ],
)
def test_a_subject_that_is_no_creature_here_is_answered_with_those_present(
    live_domains, gm, player, text, who
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    found = f"I cannot find “{who}” here. Present: Ilsa, Goblin 2, Goblin."
    for user, audience in [(gm, "public"), (gm, "gm"), (player, "public")]:
        run = table.run(user, text, job_id=f"{text}-{audience}", trigger_audience=audience)
        assert run.texts == [(found, "requester")], (text, audience)
        assert not {"condition_add", "condition_remove"} & set(run.tools)
    assert table.revision() == before


def test_outside_combat_the_gm_is_told_who_is_here_before_the_phase(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    run = table.run(gm, "the sun wakes up", job_id="lobby-sun")
    assert run.texts == [("I cannot find “the sun” here. Present: Ilsa.", "requester")]


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("Goblin 2 falls unconscious", "Only the GM can give a creature a condition."),
        ("Gobln wakes up", "Only the GM can remove a creature's condition."),
    ],
)
def test_a_player_naming_a_creature_or_a_near_miss_is_told_only_the_gm_can(
    live_domains, gm, player, text, refusal
):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, text, job_id="p-" + text)
    assert run.texts == [(refusal, "requester")]
    # Nothing only the GM may do is offered to the player: their own turn's options.
    assert run.output.suggestions == ("attack goblin 2", "end turn")
