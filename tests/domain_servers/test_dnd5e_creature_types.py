"""dnd5e: monsters have their SRD 5.1 creature type, and Cure Wounds and Healing Word "have no
effect on undead or constructs": such a cast is refused before anything is spent."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain_servers.common.errors import DomainError
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, PLAYER, Game
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

SRD_TYPES = {
    "bandit": "humanoid",
    "giant_rat": "beast",
    "goblin": "humanoid",
    "ogre": "giant",
    "orc": "humanoid",
    "skeleton": "undead",
    "wolf": "beast",
    "zombie": "undead",
}


def test_every_shipped_stat_block_has_its_srd_creature_type() -> None:
    assert {key: block["type"] for key, block in rules.monsters().items()} == SRD_TYPES


@pytest.mark.parametrize("key", sorted(SRD_TYPES))
def test_a_spawned_monster_keeps_its_stat_blocks_creature_type(dnd: Game, key: str) -> None:
    dnd.write("phase_set", {"phase": "play"})
    spawned = dnd.write("monster_spawn", {"monster_key": key})["character"]
    assert spawned["creature_type"] == SRD_TYPES[key]
    assert dnd.state()["characters"][spawned["id"]]["creature_type"] == SRD_TYPES[key]


def test_a_player_character_is_humanoid() -> None:
    assert rules.creature_type({"kind": "pc", "template": "cleric"}) == "humanoid"


def _undead_party(dnd: Game, key: str) -> dict[str, str]:
    """The party of test_dnd5e_spellcasting (Ash the player's 3rd-level cleric) and a wounded
    undead."""
    ids = _party(dnd, level=3)
    ids["undead"] = dnd.write("monster_spawn", {"monster_key": key})["character"]["id"]
    dnd.write("damage_apply", {"target_id": ids["undead"], "amount": 3, "damage_type": "fire"})
    return ids


@pytest.mark.parametrize(
    ("spell", "name"), [("cure_wounds", "Cure Wounds"), ("healing_word", "Healing Word")]
)
@pytest.mark.parametrize(("key", "monster"), [("skeleton", "Skeleton"), ("zombie", "Zombie")])
def test_a_healing_spell_on_undead_is_refused_and_spends_no_slot(
    dnd: Game, spell: str, name: str, key: str, monster: str
) -> None:
    ids = _undead_party(dnd, key)
    args = {"caster_id": ids["ash"], "target_id": ids["undead"], "spell": spell}
    for sub in (PLAYER, GM):
        error = _refused(dnd, args, sub)
        assert error == {
            "code": "invalid_request",
            "message": f"{name} has no effect on undead or constructs, and {monster} is undead",
            "retryable": False,
            "recovery": "fix the arguments and retry",
        }
    assert _char(dnd, ids["ash"])["spell_slots"]["1"] == {"current": 4, "max": 4}


def test_a_refused_healing_spell_on_undead_spends_no_action_in_combat(dnd: Game) -> None:
    ids = _undead_party(dnd, "skeleton")
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["undead"]]})
    _turn_of(dnd, ids["ash"])
    for spell in ("cure_wounds", "healing_word"):
        args = {"caster_id": ids["ash"], "target_id": ids["undead"], "spell": spell}
        assert _refused(dnd, args)["message"].endswith("Skeleton is undead")
    budget = next(
        e["budget"] for e in dnd.read("combat_status")["combat"]["order"] if e["id"] == ids["ash"]
    )
    assert (budget["action"], budget["bonus_action"]) == (1, 1)


def test_a_monster_stored_without_a_creature_type_reads_as_its_stat_blocks(
    dnd: Game, tmp_path: Path
) -> None:
    ids = _undead_party(dnd, "zombie")
    _rewrite(
        dnd, tmp_path / "d.sqlite3", lambda s: s["characters"][ids["undead"]].pop("creature_type")
    )
    assert "creature_type" not in dnd.state()["characters"][ids["undead"]]

    assert _char(dnd, ids["undead"])["creature_type"] == "undead"
    args = {"caster_id": ids["ash"], "target_id": ids["undead"], "spell": "cure_wounds"}
    assert _refused(dnd, args)["message"] == (
        "Cure Wounds has no effect on undead or constructs, and Zombie is undead"
    )


def test_a_construct_is_refused_healing_spells_too() -> None:
    golem = {"id": "mon-9", "name": "Clay Golem", "kind": "monster", "creature_type": "construct"}
    with pytest.raises(DomainError) as refused:
        rules.check_spell_affects(rules.SPELLS["healing_word"], golem)
    assert refused.value.message == (
        "Healing Word has no effect on undead or constructs, and Clay Golem is a construct"
    )
    # Magic Missile strikes any creature.
    rules.check_spell_affects(rules.SPELLS["magic_missile"], golem)


def test_healing_spells_still_heal_the_living(dnd: Game) -> None:
    ids = _undead_party(dnd, "skeleton")
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 3})
    healed = _cast(dnd, ids["ash"], ids["goblin"], "cure_wounds")
    assert (healed["target_id"], healed["slots_left"]) == (ids["goblin"], 3)


def test_the_gms_heal_mends_undead_as_it_is_no_healing_spell(dnd: Game) -> None:
    ids = _undead_party(dnd, "skeleton")
    healed = dnd.write("heal", {"target_id": ids["undead"], "amount": 2})
    assert (healed["source"], healed["healed"], healed["hp_after"]) == ("gm", 2, 12)
