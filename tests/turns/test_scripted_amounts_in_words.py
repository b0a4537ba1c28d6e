"""Amounts said in words mean their number: "heal Ilsa for five", "grant Ilsa five temp hp",
"give me twenty temp hp", "check perception dc fifteen", "dex save dc twenty-one"; a creature
numbered in words ("heal goblin two") is still that creature, not an amount."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seat", "text", "sent"),
    [
        ("gm", "heal Ilsa for five", ("heal", {"target_id": "pc-1", "amount": 5})),
        ("gm", "heal Ilsa five hp", ("heal", {"target_id": "pc-1", "amount": 5})),
        ("gm", "grant Ilsa five temp hp", ("temp_hp_grant", {"target_id": "pc-1", "amount": 5})),
        (
            "player",
            "give me twenty temp hp",
            ("temp_hp_grant", {"target_id": "pc-1", "amount": 20}),
        ),
        (
            "player",
            "check perception dc fifteen",
            ("ability_check", {"character_id": "pc-1", "dc": 15, "skill": "perception"}),
        ),
        (
            "player",
            "save dex dc twenty-one",
            ("saving_throw", {"character_id": "pc-1", "dc": 21, "ability": "dex"}),
        ),
    ],
)
def test_an_amount_in_words_is_its_number(live_domains, gm, player, seat, text, sent):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=8)  # room to heal
    calls, _output = _sent(table, {"gm": gm, "player": player}[seat], text)
    assert calls == [sent]


def test_a_creature_numbered_in_words_is_healed_with_a_potion(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, gm, "heal goblin two")
    assert calls == [("heal", {"target_id": "mon-3"})]
