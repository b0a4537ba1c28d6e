"""dnd5e: a creature aimed at itself is refused in words fit for it: a player character
"cannot attack themselves", a monster "cannot attack itself"."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _party


@pytest.mark.parametrize(
    ("spell", "caster"), [("fire_bolt", "wren"), ("magic_missile", "wren"), ("sacred_flame", "ash")]
)
def test_a_player_character_cannot_target_themselves_with_a_harmful_spell(
    dnd: Game, spell: str, caster: str
) -> None:
    ids = _party(dnd)
    args = {"caster_id": ids[caster], "target_id": ids[caster], "spell": spell}
    name = {"wren": "Wren", "ash": "Ash"}[caster]
    title = {"fire_bolt": "Fire Bolt", "magic_missile": "Magic Missile"}.get(spell, "Sacred Flame")
    before = dnd.state()
    assert dnd.fail("spell_cast", args, sub=PLAYER)["message"] == (
        f"{name} cannot target themselves with {title}"
    )
    assert dnd.state() == before


@pytest.mark.parametrize(
    ("who", "sub", "said"),
    [
        ("wren", PLAYER, "Wren cannot attack themselves"),
        ("goblin", GM, "Goblin cannot attack itself"),
    ],
)
def test_an_attack_on_oneself_is_refused_as_themselves_for_a_pc_and_itself_for_a_monster(
    dnd: Game, who: str, sub: str, said: str
) -> None:
    ids = _party(dnd)
    args = {"attacker_id": ids[who], "target_id": ids[who]}
    assert dnd.fail("attack", args, sub=sub)["message"] == said


@pytest.mark.parametrize(
    ("who", "sub", "said"),
    [("bram", OTHER, "Bram cannot shove themselves"), ("goblin", GM, "Goblin cannot shove itself")],
)
def test_a_shove_of_oneself_is_refused_as_themselves_for_a_pc_and_itself_for_a_monster(
    dnd: Game, who: str, sub: str, said: str
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["bram"], ids["goblin"]]})
    current = dnd.read("combat_status")["combat"]["current"]
    if current != ids[who]:
        dnd.write("combat_end_turn", {"character_id": current})
    args = {"character_id": ids[who], "action": "shove", "target_id": ids[who]}
    assert dnd.fail("combat_action", args, sub=sub)["message"] == said
