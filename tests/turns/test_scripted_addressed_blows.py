""" "Ilsa, punch the goblin", "Ilsa, kick goblin 2": a punch, kick or head-butt addressed to a
character is that character's Unarmed Strike, as "Ilsa, attack the goblin" is its attack and
"Ilsa punches the goblin" its punch; it was not understood."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "target", "told"),
    [
        ("Ilsa, punch the goblin", "mon-2",
         "It lands. Ilsa lands a punch on Goblin for 3 bludgeoning damage."),
        ("Ilsa, kick goblin 2", "mon-3",
         "A clean blow. Goblin 2 takes 3 bludgeoning damage from Ilsa's kick."),
        ("Ilsa, head-butt the goblin", "mon-2",
         "A clean blow. Ilsa's head-butt connects with Goblin (18 to hit): 3 bludgeoning."),
        ("ilsa, headbutt the goblin!", "mon-2",
         "It lands. Ilsa's head-butt connects with Goblin (18 to hit): 3 bludgeoning."),
    ],
)  # fmt: skip
def test_a_blow_addressed_to_a_character_is_its_unarmed_strike(
    live_domains, gm, player, text, target, told
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls == [
        ("attack", {"attacker_id": "pc-1", "target_id": target, "attack_name": "Unarmed Strike"})
    ]
    assert [(m.text, m.audience) for m in output.messages] == [(told, "trigger")]
    assert output.declined is False


@pytest.mark.parametrize(
    ("addressed", "named"),
    [
        ("Ilsa, punch the goblin", "Ilsa punches the goblin"),
        ("Ilsa, kick goblin 2 with advantage", "Ilsa kicks goblin 2 with advantage"),
    ],
)
def test_a_blow_addressed_is_told_as_the_blow_said_of_the_character(
    live_domains, gm, player, addressed, named
):
    runs = []
    for said in (named, addressed):
        table, _start = dnd_table_in_combat(gm, player)  # the same seed: the same rolls
        runs.append(table.run(player, said, job_id="blow"))
    told, asked = runs
    assert told.tools.count("attack") == 1, told.texts
    assert (asked.texts, asked.tools, asked.output.suggestions) == (
        told.texts,
        told.tools,
        told.output.suggestions,
    )


def test_a_blow_addressed_to_another_players_creature_is_refused(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "Goblin 2, punch Ilsa", job_id="not-mine")
    assert run.texts == [("You can only act as your own character.", "requester")]
    assert "attack" not in run.tools
    assert table.revision() == before
