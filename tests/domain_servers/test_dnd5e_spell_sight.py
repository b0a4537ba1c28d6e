"""dnd5e: Magic Missile, Sacred Flame and Healing Word target "a creature (of your choice) that
you can see" (SRD 5.1). A hidden monster, an invisible creature, or any creature while the
caster is blinded, is no such target: the cast is refused, spending nothing, and saying nothing
of where a hidden monster is. Cure Wounds is cast by touch and Fire Bolt is an attack roll (at
disadvantage against what it cannot see): neither is refused."""

from __future__ import annotations

import pytest

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _turn_of(dnd: Game, char_id: str) -> None:
    while dnd.read("combat_status")["combat"]["current"] != char_id:
        dnd.write("combat_end_turn")


def _fight(dnd: Game, monkeypatch, template: str) -> tuple[str, str, str]:
    """A caster of `template`, an ally fighter and a goblin in combat; every die rolls 10."""
    caster = dnd.write(
        "character_create", {"name": "Vex", "template": template, "max_hp": 30}, sub=PLAYER
    )["character"]["id"]
    ally = dnd.write("character_create", {"name": "Ash", "template": "fighter", "max_hp": 30})
    ally = ally["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [caster, ally, goblin]})
    return caster, ally, goblin


def _goblin_hides(dnd: Game, goblin: str, caster: str) -> None:
    _turn_of(dnd, goblin)
    # 10 + Stealth 6 against the party's best passive Perception (Ash's 13).
    hid = dnd.write("combat_action", {"character_id": goblin, "action": "hide"})
    assert hid["hidden"] is True
    _turn_of(dnd, caster)


def _spent(dnd: Game, caster: str) -> tuple:
    state = dnd.state()
    return (
        state["characters"][caster].get("spell_slots"),
        state["combat"]["budgets"][caster],
        state["combat"].get("hidden"),
    )


@pytest.mark.parametrize(
    ("template", "spell", "name"),
    [("wizard", "magic_missile", "Magic Missile"), ("cleric", "sacred_flame", "Sacred Flame")],
)
def test_a_spell_at_a_hidden_goblin_is_refused_spending_nothing(
    dnd: Game, monkeypatch, template: str, spell: str, name: str
) -> None:
    caster, _ash, goblin = _fight(dnd, monkeypatch, template)
    _goblin_hides(dnd, goblin, caster)
    before = _spent(dnd, caster)

    refused = dnd.fail(
        "spell_cast", {"caster_id": caster, "target_id": goblin, "spell": spell}, sub=PLAYER
    )

    assert refused["message"] == (
        f"Goblin is hidden: Vex cannot see it, and {name} targets a creature Vex can see"
    )
    assert _spent(dnd, caster) == before


def test_healing_word_on_an_invisible_ally_is_refused_spending_nothing(
    dnd: Game, monkeypatch
) -> None:
    cleric, ash, _goblin = _fight(dnd, monkeypatch, "cleric")
    dnd.write("damage_apply", {"target_id": ash, "amount": 5})
    dnd.write("condition_add", {"target_id": ash, "condition": "invisible"})
    _turn_of(dnd, cleric)
    before = _spent(dnd, cleric)

    refused = dnd.fail(
        "spell_cast",
        {"caster_id": cleric, "target_id": ash, "spell": "healing_word"},
        sub=PLAYER,
    )

    assert refused["message"] == (
        "Ash is invisible: Vex cannot see it, and Healing Word targets a creature Vex can see"
    )
    assert _spent(dnd, cleric) == before


def test_a_blinded_wizard_cannot_target_the_goblin_with_magic_missile(
    dnd: Game, monkeypatch
) -> None:
    wizard, _ash, goblin = _fight(dnd, monkeypatch, "wizard")
    dnd.write("condition_add", {"target_id": wizard, "condition": "blinded"})
    _turn_of(dnd, wizard)
    before = _spent(dnd, wizard)

    refused = dnd.fail(
        "spell_cast",
        {"caster_id": wizard, "target_id": goblin, "spell": "magic_missile"},
        sub=PLAYER,
    )

    assert refused["message"] == (
        "Vex is blinded: Vex cannot see Goblin, and Magic Missile targets a creature Vex can see"
    )
    assert _spent(dnd, wizard) == before


def test_a_hidden_ally_is_seen_by_its_party_and_healing_word_reaches_it(
    dnd: Game, monkeypatch
) -> None:
    cleric, ash, _goblin = _fight(dnd, monkeypatch, "cleric")
    dnd.write("damage_apply", {"target_id": ash, "amount": 5})
    _turn_of(dnd, ash)
    dnd.write("combat_action", {"character_id": ash, "action": "hide"})
    assert ash in dnd.state()["combat"]["hidden"]
    _turn_of(dnd, cleric)

    healed = dnd.write(
        "spell_cast",
        {"caster_id": cleric, "target_id": ash, "spell": "healing_word"},
        sub=PLAYER,
    )

    assert (healed["spell_name"], healed["hp_after"]) == ("Healing Word", 30)


def test_cure_wounds_by_touch_heals_an_invisible_ally(dnd: Game, monkeypatch) -> None:
    cleric, ash, _goblin = _fight(dnd, monkeypatch, "cleric")
    dnd.write("damage_apply", {"target_id": ash, "amount": 5})
    dnd.write("condition_add", {"target_id": ash, "condition": "invisible"})
    _turn_of(dnd, cleric)

    healed = dnd.write(
        "spell_cast",
        {"caster_id": cleric, "target_id": ash, "spell": "cure_wounds"},
        sub=PLAYER,
    )

    assert (healed["spell_name"], healed["hp_after"]) == ("Cure Wounds", 30)


def test_fire_bolt_at_a_hidden_goblin_is_cast_with_disadvantage(dnd: Game, monkeypatch) -> None:
    wizard, _ash, goblin = _fight(dnd, monkeypatch, "wizard")
    _goblin_hides(dnd, goblin, wizard)

    cast = dnd.write(
        "spell_cast",
        {"caster_id": wizard, "target_id": goblin, "spell": "fire_bolt"},
        sub=PLAYER,
    )

    assert "Goblin is hidden" in cast["to_hit"]["disadvantage_reasons"]
