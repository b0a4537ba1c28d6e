""" "The other goblin" names the one goblin still standing when the rest of its kind fell;
with several standing it is asked which, each offered as a command, and with only one goblin
ever here there is no other to name."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table, principal_for
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent
from tests.turns.test_scripted_review import _kill

pytestmark = pytest.mark.django_db


def test_the_other_goblin_once_one_fell_is_the_one_standing(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Goblin (mon-2), Goblin 2 (mon-3)
    _kill(table, gm, "mon-2")
    calls, output = _sent(table, player, "I attack the other goblin!")
    assert calls == [("attack", {"attacker_id": "pc-1", "target_id": "mon-3"})]
    assert output.declined is False


def test_the_other_goblin_with_both_standing_is_asked(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    calls, output = _sent(table, player, "attack the other goblin")
    assert calls == []
    assert [(m.text, m.audience) for m in output.messages] == [
        ("Which is the other goblin: Goblin or Goblin 2?", "requester")
    ]
    assert list(output.suggestions) == ["attack goblin", "attack goblin 2"]
    assert output.declined is True


def test_the_other_enemy_names_any_foe(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _kill(table, gm, "mon-3")
    calls, _output = _sent(table, player, "attack the other enemy")
    assert calls == [("attack", {"attacker_id": "pc-1", "target_id": "mon-2"})]


def test_no_other_of_a_kind_when_only_one_is_here(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "start combat with goblin", job_id="start")
    calls, output = _sent(table, player, "attack the other goblin")
    assert calls == []
    assert [(m.text, m.audience) for m in output.messages] == [
        ("There is no other goblin here: only Goblin.", "requester")
    ]


def test_the_other_goblin_is_not_the_goblin_attacking(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Goblin (mon-2), Goblin 2 (mon-3)
    calls, _output = _sent(table, gm, "goblin 2 attacks the other goblin")
    assert calls == [("attack", {"attacker_id": "mon-3", "target_id": "mon-2"})]
