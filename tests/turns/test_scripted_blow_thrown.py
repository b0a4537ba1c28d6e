""" "throw a punch at <target>" is a blow of the body, as "punch <target>" is: the rewrite that
reads it as an attack marks it so. Aimed at a creature here it is its Unarmed Strike; at one
nobody here is ("the bartender") it may be someone of the fiction's, not the map's, so the
line is answered as not understood (the GM rules on it), not refused with those present."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent
from tests.turns.test_scripted_things_not_creatures import TO_ATTACK

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text", ["I throw a punch at the bartender", "throw a kick at the barkeep"]
)
def test_a_blow_thrown_at_someone_not_here_is_left_to_the_gm(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="thing")
    assert run.texts == [(TO_ATTACK, "requester")]
    assert run.tools == ["combat_status"] and table.revision() == before


def test_a_punch_thrown_at_a_goblin_is_an_unarmed_strike(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    calls, output = _sent(table, player, "I throw a punch at the goblin")
    assert calls == [
        ("attack", {"attacker_id": "pc-1", "target_id": "mon-2", "attack_name": "Unarmed Strike"})
    ]
    assert [(m.text, m.audience) for m in output.messages] == [
        ("A solid hit. Ilsa lands a punch on Goblin for 3 bludgeoning damage.", "trigger")
    ]


def test_fists_swung_at_a_goblin_are_an_unarmed_strike(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    calls, output = _sent(table, player, "I swing my fists at the goblin")
    assert calls == [
        ("attack", {"attacker_id": "pc-1", "target_id": "mon-2", "attack_name": "Unarmed Strike"})
    ]
    assert [(m.text, m.audience) for m in output.messages] == [
        ("A clean blow. Ilsa's punch connects with Goblin (18 to hit): 3 bludgeoning.", "trigger")
    ]


def test_a_fist_swung_at_someone_not_here_is_left_to_the_gm(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "swing my fist at the bartender", job_id="thing")
    assert run.texts == [(TO_ATTACK, "requester")]
    assert run.tools == ["combat_status"] and table.revision() == before
