"""When Sneak Attack applies (SRD 5.1): a finesse or ranged weapon, and advantage on the roll,
or another enemy of the target within 5 ft of it that isn't incapacitated and no disadvantage
(advantage and disadvantage that cancel leave neither)."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc


def _scripted(monkeypatch, *values: int) -> None:
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _rin_and_ash_beside_an_ogre(dnd: Game, monkeypatch, *rolls: int) -> dict[str, str]:
    """Rin (the player's 3rd-level rogue, Shortsword +4, 1d6+2) and Ash (a fighter) both
    within 5 ft of an ogre (AC 11), Rin's turn first; then `rolls` are the dice to come."""
    ids = {}
    for name, template, level in (("Rin", "rogue", 3), ("Ash", "fighter", 1)):
        made = dnd.write(
            "character_create", {"name": name, "template": template, "level": level}, sub=PLAYER
        )
        ids[name.lower()] = made["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ids["ogre"] = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    # Initiative all 10s: Rin (DEX 15), Ash, the ogre.
    _scripted(monkeypatch, 10, 10, 10, *rolls)
    started = dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    assert started["combat"]["current"] == ids["rin"]
    return ids


def _rin_attacks(dnd: Game, ids: dict[str, str], **flags: bool) -> dict:
    return dnd.write(
        "attack", {"attacker_id": ids["rin"], "target_id": ids["ogre"], **flags}, sub=PLAYER
    )


def test_an_incapacitated_ally_beside_the_target_gives_no_sneak_attack(
    dnd: Game, monkeypatch
) -> None:
    ids = _rin_and_ash_beside_an_ogre(dnd, monkeypatch, 12, 3)
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "stunned"}, sub=GM)

    hit = _rin_attacks(dnd, ids)

    assert (hit["hit"], hit["damage"]["total"], "sneak_attack" in hit) == (True, 5, False)


def test_an_ally_beside_the_target_gives_none_to_an_attack_with_disadvantage(
    dnd: Game, monkeypatch
) -> None:
    # Poisoned: d20s 15 and 12 keep 12, which still hits AC 11.
    ids = _rin_and_ash_beside_an_ogre(dnd, monkeypatch, 15, 12, 3)
    dnd.write("condition_add", {"target_id": ids["rin"], "condition": "poisoned"}, sub=GM)

    hit = _rin_attacks(dnd, ids)

    assert (hit["to_hit"]["mode"], hit["hit"]) == ("disadvantage", True)
    assert (hit["damage"]["total"], "sneak_attack" in hit) == (5, False)


def test_advantage_and_disadvantage_that_cancel_leave_the_ally_beside_enough(
    dnd: Game, monkeypatch
) -> None:
    ids = _rin_and_ash_beside_an_ogre(dnd, monkeypatch, 12, 3, 3, 3)
    dnd.write("condition_add", {"target_id": ids["rin"], "condition": "poisoned"}, sub=GM)

    hit = _rin_attacks(dnd, ids, advantage=True)

    # One d20 (12); 1d6 + DEX 2 + Sneak Attack 2d6, all 3s.
    assert (hit["to_hit"]["mode"], hit["to_hit"]["rolls"]) == ("normal", [12])
    assert (hit["damage"]["total"], hit["sneak_attack"]) == (11, "2d6")


def test_a_ranged_weapon_sneak_attacks_and_a_thrown_weapon_without_finesse_does_not() -> None:
    rogue = pc(kind="pc", template="rogue", level=3)
    shortbow = {"name": "Shortbow", "ability": "dex", "damage": "1d6", "damage_type": "piercing"}
    handaxe = {"name": "Handaxe", "ability": "str", "damage": "1d6", "damage_type": "slashing"}
    dagger = {"name": "Dagger", "ability": "str", "damage": "1d4", "damage_type": "piercing"}
    assert [rules.sneak_attack_dice(rogue, a) for a in (shortbow, handaxe, dagger)] == [
        "2d6", None, "2d6",
    ]  # fmt: skip


def test_a_critical_hit_doubles_the_sneak_attack_dice_too() -> None:
    rogue = pc(kind="pc", template="rogue", level=3)
    shortsword = {
        "name": "Shortsword",
        "ability": "dex",
        "damage": "1d6",
        "damage_type": "piercing",
    }
    target = pc(id="mon-1", kind="monster", ac=30, hp={"current": 40, "max": 40, "temp": 0})
    # Advantage: 20 and 5 keep the natural 20. The Shortsword's 1d6 and Sneak Attack's 2d6
    # roll twice as many dice (2d6 + 4d6, all 1s); STR +3 (a finesse weapon takes the higher
    # of STR 16 and DEX 14) is added once.
    hit = rules.resolve_attack(
        rogue,
        target,
        shortsword,
        ScriptedStream(20, 5, *[1] * 6),
        advantage=True,
        disadvantage=False,
        sneak_attack=rules.sneak_attack_dice(rogue, shortsword),
    )
    assert (hit["critical"], hit["sneak_attack"], hit["damage"]["total"]) == (True, "2d6", 9)
    assert [r["results"] for r in hit["damage"]["rolls"] if "results" in r] == [[1, 1], [1] * 4]
