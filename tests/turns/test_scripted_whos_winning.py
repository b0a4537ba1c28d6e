""" "who's winning?", "how's the fight going?": a summary of the combat from its status, as the
table sees it (statuses, never a monster's hit points), to the one who asks; outside combat,
that no fight is running."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text",
    [
        "who's winning?",
        "Who is winning",
        "whos winning?",
        "who’s winning now?",
        "how's the fight going?",
        "how is the battle going",
    ],
)
def test_the_question_is_understood(text):
    intent, _match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_combat_summary, text


def test_the_fight_is_summed_up_for_the_one_who_asks(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    _gm_write(table, "damage_apply", target_id="mon-2", amount=50)
    _gm_write(table, "damage_apply", target_id="mon-3", amount=3)
    before = table.revision()

    asked = table.run(player, "who's winning?", job_id="winning")

    assert asked.texts == [
        (
            "Round 1. The party: Ilsa (unhurt). The foes: Goblin 2 (wounded) and Goblin "
            "(dead); 1 of 2 still standing. The party has the upper hand.",
            "requester",
        )
    ]
    assert asked.tools == ["combat_status"]
    assert table.revision() == before


def test_with_every_foe_down_the_party_has_won(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    for goblin in ("mon-2", "mon-3"):
        _gm_write(table, "damage_apply", target_id=goblin, amount=50)

    asked = table.run(gm, "how's the fight going?", job_id="going")

    assert asked.texts == [
        (
            "Round 1. The party: Ilsa (unhurt). The foes: Goblin 2 (dead) and Goblin (dead); "
            "none still standing. No foe is left standing: the party has won.",
            "requester",
        )
    ]


def test_outside_combat_no_fight_is_running(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")

    asked = table.run(player, "who's winning?", job_id="winning")

    assert asked.texts == [("No fight is running, so nobody is winning.", "requester")]
