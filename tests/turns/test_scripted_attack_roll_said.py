""" "make an attack roll against the goblin", "roll to hit the goblin": the roll a table makes
for an attack is the attack, as "attack the goblin" is; neither was understood ("roll to hit"
was pointed at dice)."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("make an attack roll against the goblin", {"target": "the goblin", "weapon": None}),
        ("I make an attack roll on goblin 2 with my dagger",
         {"target": "goblin 2", "weapon": "my dagger"}),
        ("roll to hit the goblin", {"target": "the goblin", "mode": None}),
        ("I roll to hit against goblin 2 with advantage",
         {"target": "goblin 2", "mode": "advantage"}),
        ("roll to-hit vs the goblin", {"target": "the goblin"}),
        ("roll an attack roll against the goblin", {"target": "the goblin"}),
        ("roll to hit", {"target": None, "weapon": None}),
    ],
)  # fmt: skip
def test_an_attack_roll_said_is_an_attack(text, groups):
    assert_read_as_attack(text, groups)


@pytest.mark.parametrize(
    ("text", "plain", "sent"),
    [
        ("make an attack roll against the goblin", "attack the goblin", {"target_id": "mon-2"}),
        ("roll to hit the goblin", "attack the goblin", {"target_id": "mon-2"}),
        ("roll to hit goblin 2 with my longsword", "attack goblin 2 with my longsword",
         {"target_id": "mon-3", "attack_name": "longsword"}),
    ],
)  # fmt: skip
def test_an_attack_roll_attacks_as_attack_does(live_domains, gm, player, text, plain, sent):
    assert_attacks_as_said(gm, player, text, plain, sent)


def assert_answered_alike(gm, player, plain: str, text: str) -> None:
    """`text` and `plain`, each sent on its own new table in combat (the same seed: the same
    rolls), are answered alike: the same lines, tools and suggestions."""
    runs = []
    for said in (plain, text):
        table, _start = dnd_table_in_combat(gm, player)
        runs.append(table.run(player, said, job_id="attack"))
    told, asked = runs
    assert (asked.texts, asked.tools, asked.output.suggestions) == (
        told.texts,
        told.tools,
        told.output.suggestions,
    )


def assert_read_as_attack(text: str, groups: dict[str, str | None]) -> None:
    """`text` is read as an attack, its groups (attacker, target, weapon, mode) as given."""
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and match is not None, text
    assert intent.handler is s.dnd_attack, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


def assert_attacks_as_said(gm, player, text: str, plain: str, sent: dict[str, str]) -> None:
    """On Ilsa's (pc-1's) turn, `text` from the player is Ilsa's attack with the arguments
    `sent`, answered as `plain` is."""
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls == [("attack", {"attacker_id": "pc-1", **sent})]
    assert output.declined is False
    assert_answered_alike(gm, player, plain, text)
