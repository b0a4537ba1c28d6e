"""A spell said of a creature ("goblin casts fire bolt at Ilsa"): the GM is told what a "cast"
of theirs is told (the rules cast only a player's spells; a monster's is rolled, then its
damage or healing applied), not that the line was not understood; a player is told how to
cast as their character. Nothing changes either way."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        (
            "goblin casts fire bolt at Ilsa",
            "The rules here cast Fire Bolt for a player's wizard: roll it and apply the damage "
            "it does (“damage Ilsa 9 fire”).",
        ),
        (
            "The goblin casts cure wounds on goblin 2",
            "The rules here cast healing spells for a player's cleric: roll Cure Wounds and "
            "heal the hit points it restores (“heal goblin 2 5”).",
        ),
        (
            "goblin 2 casts hold person on Ilsa",
            "The rules cast only a player's spells: roll Hold Person's dice for goblin 2, then "
            "apply what it does (“damage Ilsa 9” or “heal Ilsa 5”).",
        ),
    ],
)
def test_the_gm_saying_a_monster_casts_is_told_to_roll_and_apply_it(
    live_domains, gm, player, said, answer
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, said, job_id="cast")
    assert run.texts == [(answer, "requester")]
    assert not {"attack", "damage_apply", "heal", "spell_cast"} & set(run.tools)
    assert table.revision() == before


def test_a_player_saying_a_creature_casts_is_told_how_to_cast(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "Ilsa casts fire bolt at the goblin", job_id="cast")
    assert run.texts == [
        ("To cast a spell as your character, say “cast fire bolt at the goblin”.", "requester")
    ]
    assert run.tools == ["combat_status"] and table.revision() == before  # the turn read


@pytest.mark.parametrize(
    "said",
    [
        "roll 1d20 for the goblin who casts fire bolt at Ilsa",
        "I cast fire bolt at the goblin",
        "cast hold person on the goblin",
    ],
)
def test_a_roll_or_a_cast_of_ones_own_is_not_read_as_a_creatures(said):
    intent, _match = s._parse("dnd5e", said)
    assert intent is not None and intent.handler is not s.dnd_someone_casts


NOT_UNDERSTOOD = [
    ("I did not understand that. Say “help” for everything I understand.", "requester")
]


@pytest.mark.parametrize(
    ("said", "task", "answer"),
    [
        # A GM's story is posted as said, with no reply.
        ("The lich casts hold person on Ilsa", "narration", []),
        ("The torch casts a long shadow across the floor", "action", NOT_UNDERSTOOD),
        ("The goblin casts a glance at Ilsa", "action", NOT_UNDERSTOOD),
    ],
)
def test_a_cast_the_rules_do_not_know_in_narration_or_a_figure_is_not_answered_as_a_spell(
    live_domains, gm, player, said, task, answer
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, said, job_id="said", task=task)
    assert run.texts == answer
    assert table.revision() == before
