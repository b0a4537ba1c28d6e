"""dnd5e: a hidden monster beside a ranged attacker sees it, and so puts its shot at disadvantage
(SRD 5.1, Ranged Attacks in Close Combat). Where the monster stands is the GM's: the GM reads
why ("hidden hostile within 5 ft"); the player and the public see the disadvantage with no
reason that says a foe is beside the attacker, as an unseen foe's would be felt and not seen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, PLAYER, Game
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

CROSSBOW = {
    "name": "Light Crossbow",
    "ability": "dex",
    "proficient": True,
    "damage": "1d8",
    "damage_type": "piercing",
    "range": 80,
    "long_range": 320,
}
BOLT = ("spell_cast", "fire_bolt")
SHOT = ("attack", "Light Crossbow")


def _wren_beside(dnd: Game, tmp_path: Path, monkeypatch, *, seen: bool = False) -> dict[str, str]:
    """Wren (the player's wizard, with a light crossbow) at (0, 0) on her turn, a hidden goblin
    beside her at (1, 0) (and with `seen` a second goblin, in sight, at (0, 1)), an ogre 30 ft
    off at (6, 0). Every d20 a 10."""
    wren = {"name": "Wren", "template": "wizard", "attacks": [CROSSBOW]}
    ids = {"wren": dnd.write("character_create", wren, sub=PLAYER)["character"]["id"]}
    dnd.write("phase_set", {"phase": "play"})
    ids["goblin"] = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ids["ogre"] = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    positions = {ids["wren"]: [0, 0], ids["goblin"]: [1, 0], ids["ogre"]: [6, 0]}
    if seen:
        ids["other"] = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
        positions[ids["other"]] = [0, 1]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": sorted(positions)})
    _turn_of(dnd, ids["wren"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"].update(hidden=[ids["goblin"]], positions=positions),
    )
    return ids


def _args(ids: dict[str, str], how: tuple[str, str]) -> dict[str, Any]:
    if how == BOLT:
        return {"caster_id": ids["wren"], "target_id": ids["ogre"], "spell": "fire_bolt"}
    return {"attacker_id": ids["wren"], "target_id": ids["ogre"], "attack_name": how[1]}


def _answer(dnd: Game, tool: str, args: dict[str, Any], sub: str, **claims: Any) -> dict:
    result = dnd.call(
        tool, {**args, "expected_revision": dnd.revision, "idempotency_key": "shot"}, sub, **claims
    )
    assert not result.is_error, result.structured_content
    return result.structured_content


@pytest.mark.parametrize("how", [BOLT, SHOT])
def test_the_gm_reads_that_a_hidden_monster_beside_the_shooter_gives_disadvantage(
    dnd: Game, tmp_path: Path, monkeypatch, how: tuple[str, str]
) -> None:
    ids = _wren_beside(dnd, tmp_path, monkeypatch)
    shot = _answer(dnd, how[0], _args(ids, how), GM)
    assert shot["range"] == {
        "distance_ft": 30, "kind": "ranged", "disadvantage": ["hidden hostile within 5 ft"],
    }  # fmt: skip
    assert (shot["to_hit"]["mode"], shot["to_hit"]["rolls"]) == ("disadvantage", [10, 10])
    assert shot["to_hit"]["disadvantage_reasons"] == ["hidden hostile within 5 ft"]


@pytest.mark.parametrize("how", [BOLT, SHOT])
@pytest.mark.parametrize(("sub", "claims"), [(PLAYER, {}), (PLAYER, {"view": "public"})])
def test_a_players_shot_beside_a_hidden_monster_has_disadvantage_saying_no_why(
    dnd: Game, tmp_path: Path, monkeypatch, how: tuple[str, str], sub: str, claims: dict
) -> None:
    ids = _wren_beside(dnd, tmp_path, monkeypatch)
    shot = _answer(dnd, how[0], _args(ids, how), sub, **claims)
    assert shot["range"] == {"distance_ft": 30, "kind": "ranged", "disadvantage": []}
    assert (shot["to_hit"]["mode"], shot["to_hit"]["rolls"]) == ("disadvantage", [10, 10])
    assert shot["to_hit"]["disadvantage_reasons"] == []


@pytest.mark.parametrize("how", [BOLT, SHOT])
def test_the_gms_shot_beside_a_hidden_monster_replayed_at_the_public_view_says_no_why(
    dnd: Game, tmp_path: Path, monkeypatch, how: tuple[str, str]
) -> None:
    ids = _wren_beside(dnd, tmp_path, monkeypatch)
    _answer(dnd, how[0], _args(ids, how), GM)
    public = _answer(dnd, how[0], _args(ids, how), GM, view="public")
    assert public["range"] == {"distance_ft": 30, "kind": "ranged", "disadvantage": []}
    assert public["to_hit"]["mode"] == "disadvantage"
    assert public["to_hit"]["disadvantage_reasons"] == []


@pytest.mark.parametrize("sub", [GM, PLAYER])
def test_a_seen_foe_beside_the_shooter_is_said_to_everyone_with_a_hidden_one_there_too(
    dnd: Game, tmp_path: Path, monkeypatch, sub: str
) -> None:
    ids = _wren_beside(dnd, tmp_path, monkeypatch, seen=True)
    shot = _answer(dnd, BOLT[0], _args(ids, BOLT), sub)
    assert shot["range"]["disadvantage"] == ["hostile within 5 ft"]
    assert shot["to_hit"]["disadvantage_reasons"] == ["hostile within 5 ft"]
