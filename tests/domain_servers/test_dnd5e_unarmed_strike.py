"""dnd5e: every player character can make an unarmed strike (SRD 5.1), listed or not: a melee
attack it is proficient with, STR modifier + proficiency bonus to hit, and 1 + STR modifier
bludgeoning damage with no die to roll (nor to double on a critical hit). A monster attacks
with what its stat block lists."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _pair(dnd: Game, template: str, level: int = 1) -> tuple[str, str]:
    """A player's character of the template and a sturdy target for it (AC 10, 40 HP)."""
    ash = dnd.write(
        "character_create", {"name": "Ash", "template": template, "level": level}, sub=PLAYER
    )["character"]["id"]
    dummy = dnd.write(
        "character_create", {"name": "Dummy", "template": "fighter", "max_hp": 40, "ac": 10}
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    return ash, dummy


def _punch(dnd: Game, ash: str, dummy: str, name: str = "Unarmed Strike") -> dict:
    return dnd.write(
        "attack", {"attacker_id": ash, "target_id": dummy, "attack_name": name}, sub=PLAYER
    )


def test_a_fighters_unarmed_strike_hits_for_one_plus_its_strength(dnd: Game, monkeypatch) -> None:
    ash, dummy = _pair(dnd, "fighter")
    # Every die rolls 7: 7 + 4 hits AC 10, and no die is rolled for the damage.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 7)

    hit = _punch(dnd, ash, dummy)

    # STR 15 (+2) and proficiency +2 to hit; 1 + 2 bludgeoning.
    assert (hit["attack"], hit["to_hit"]["bonus"], hit["to_hit"]["total"], hit["hit"]) == (
        "Unarmed Strike", 4, 11, True,
    )  # fmt: skip
    assert (hit["damage"]["expression"], hit["damage"]["total"], hit["damage"]["rolls"]) == (
        "1+2", 3, [],
    )  # fmt: skip
    assert hit["damage"]["damage_type"] == "bludgeoning"
    assert hit["damage"]["effect"]["hp_after"]["current"] == 37


def test_a_critical_unarmed_strike_has_no_dice_to_double(dnd: Game, monkeypatch) -> None:
    ash, dummy = _pair(dnd, "fighter", level=5)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 20)

    hit = _punch(dnd, ash, dummy, "unarmed strike")

    # 5th level: proficiency +3.
    assert (hit["critical"], hit["to_hit"]["bonus"]) == (True, 5)
    assert (hit["damage"]["expression"], hit["damage"]["total"]) == ("1+2", 3)


def test_a_weak_wizards_unarmed_strike_deals_one_minus_one(dnd: Game, monkeypatch) -> None:
    """The wizard lists only Fire Bolt, and may still punch: STR 8 (-1) + proficiency +2 to
    hit, 1 - 1 damage."""
    ash, dummy = _pair(dnd, "wizard")
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 15)

    hit = _punch(dnd, ash, dummy)

    assert (hit["to_hit"]["bonus"], hit["hit"]) == (1, True)
    assert (hit["damage"]["expression"], hit["damage"]["total"]) == ("1-1", 0)
    assert hit["damage"]["effect"]["hp_after"]["current"] == 40


def test_an_unarmed_strike_is_a_melee_attack_on_the_grid(dnd: Game, monkeypatch) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})  # the goblin first
    dnd.write("combat_end_turn")
    dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    refused = dnd.fail(
        "attack", {"attacker_id": ash, "target_id": goblin, "attack_name": "Unarmed Strike"},
        sub=PLAYER,
    )  # fmt: skip

    assert refused["message"] == (
        "Goblin is 15 ft away from Ash; Unarmed Strike reaches 5 ft. Move closer first."
    )


def test_the_first_listed_attack_stays_the_default(dnd: Game, monkeypatch) -> None:
    ash, dummy = _pair(dnd, "fighter")
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 7)

    hit = dnd.write("attack", {"attacker_id": ash, "target_id": dummy}, sub=PLAYER)

    assert hit["attack"] == "Longsword"


def test_a_player_characters_unknown_attack_is_refused_naming_its_unarmed_strike(
    dnd: Game,
) -> None:
    ash, dummy = _pair(dnd, "fighter")

    refused = dnd.fail(
        "attack", {"attacker_id": ash, "target_id": dummy, "attack_name": "Bow"}, sub=PLAYER
    )

    assert refused["message"] == "Ash has no attack named 'Bow'; attacks: Longsword, Unarmed Strike"


def test_a_monster_attacks_only_with_its_stat_blocks_attacks(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    before, revision = dnd.state(), dnd.revision

    refused = dnd.fail(
        "attack", {"attacker_id": goblin, "target_id": ash, "attack_name": "Unarmed Strike"}
    )

    assert refused["message"] == (
        "Goblin has no attack named 'Unarmed Strike'; attacks: Scimitar, Shortbow"
    )
    assert (dnd.state(), dnd.revision) == (before, revision)
