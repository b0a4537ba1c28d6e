"""A short rest at 0 hit points (SRD 5.1): only a long rest needs 1 hit point at its start. A
stable character at 0 HP spends Hit Dice as anyone does and comes to when they heal it; a
dying one cannot rest while its death saving throws go on."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, PLAYER, Game


def _scripted(monkeypatch, *values: int) -> None:
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _bram_at_zero(dnd: Game) -> str:
    """Bram, the player's 3rd-level fighter (28 HP, CON 14, three d10 Hit Dice), dropped to 0
    hit points out of combat: dying."""
    made = dnd.write(
        "character_create", {"name": "Bram", "template": "fighter", "level": 3}, sub=PLAYER
    )
    dnd.write("phase_set", {"phase": "play"})
    bram = made["character"]["id"]
    dnd.write("damage_apply", {"target_id": bram, "amount": 28})
    return bram


def _char(dnd: Game, char_id: str) -> dict[str, Any]:
    return dnd.read("character_get", {"character_id": char_id})["character"]


def test_a_stable_character_at_0_hp_spends_hit_dice_and_comes_to(dnd: Game, monkeypatch) -> None:
    bram = _bram_at_zero(dnd)
    # Three successful death saves the GM calls for: stable. Then the Hit Dice roll 5 and 3.
    _scripted(monkeypatch, 12, 12, 12, 5, 3)
    for _ in range(3):
        saved = dnd.write("death_save", {"character_id": bram})
    assert (saved["outcome"], saved["conditions"]) == ("stable", ["prone", "stable", "unconscious"])

    rest = dnd.write("short_rest", {"character_id": bram, "dice": 2}, sub=PLAYER)

    # (5 + 2) + (3 + 2): 12 hit points from 0.
    assert (rest["healed"], rest["hp_before"], rest["hp_after"], rest["revived"]) == (
        12, 0, 12, True,
    )  # fmt: skip
    assert rest["hit_dice"] == {"die": 10, "current": 1, "max": 3}
    view = _char(dnd, bram)
    # Conscious now, still prone until it stands up; no longer stable (it has hit points).
    assert (view["hp"]["current"], view["conditions"], view["death_saves"]) == (
        12, ["prone"], {"successes": 0, "failures": 0},
    )  # fmt: skip


def test_a_rest_that_heals_nothing_leaves_a_stable_character_stable(dnd: Game, monkeypatch) -> None:
    made = dnd.write(
        "character_create",
        {
            "name": "Cai",
            "abilities": {"str": 10, "dex": 10, "con": 8, "int": 10, "wis": 10, "cha": 10},
        },
        sub=PLAYER,
    )
    dnd.write("phase_set", {"phase": "play"})
    cai = made["character"]["id"]
    dnd.write("damage_apply", {"target_id": cai, "amount": _char(dnd, cai)["hp"]["max"]})
    # Stable; then the d8 Hit Die rolls 1, and CON -1 makes it 0 (never below 0 a die).
    _scripted(monkeypatch, 12, 12, 12, 1)
    for _ in range(3):
        dnd.write("death_save", {"character_id": cai})

    rest = dnd.write("short_rest", {"character_id": cai, "dice": 1}, sub=PLAYER)

    assert (rest["healed"], rest["hp_after"], "revived" in rest) == (0, 0, False)
    assert rest["hit_dice"] == {"die": 8, "current": 0, "max": 1}
    assert _char(dnd, cai)["conditions"] == ["prone", "stable", "unconscious"]


def test_a_dying_character_cannot_rest_and_nothing_changes(dnd: Game) -> None:
    bram = _bram_at_zero(dnd)
    before, revision = dnd.state(), dnd.revision

    error = dnd.fail("short_rest", {"character_id": bram, "dice": 1}, sub=PLAYER)

    assert error == {
        "code": "invalid_request",
        "message": (
            "Bram is dying (0 hit points, not stable) and cannot rest while death saving "
            "throws go on"
        ),
        "retryable": False,
        "recovery": (
            "Once Bram is stable (three successes) or healed, a short rest can spend Hit "
            "Dice, even at 0 hit points"
        ),
    }
    assert (dnd.state(), dnd.revision) == (before, revision)
    assert dnd.fail("short_rest", {"character_id": bram, "dice": 1}, sub=GM) == error
