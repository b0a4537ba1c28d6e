"""dnd5e: hiding ends when the hidden creature can no longer keep still and quiet: dropped to
0 HP (unconscious, dying), killed, or incapacitated. It stays ended when the creature comes
to: hiding again takes another Hide action."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _hidden_rin(dnd: Game, monkeypatch, max_hp: int = 40) -> tuple[str, str]:
    """Rin the rogue, hidden from the goblin beside her (every die rolls 10)."""
    rin = dnd.write(
        "character_create", {"name": "Rin", "template": "rogue", "max_hp": max_hp}, sub=PLAYER
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [rin, goblin]})
    assert started["combat"]["current"] == rin
    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER)
    assert hid["hidden"] is True
    dnd.write("combat_end_turn", {"character_id": rin}, sub=PLAYER)
    return rin, goblin


def _entry(dnd: Game, char_id: str) -> dict:
    order = dnd.read("combat_status")["combat"]["order"]
    return next(e for e in order if e["id"] == char_id)


def test_a_hidden_creature_dropped_to_0_hp_is_hidden_no_more(dnd: Game, monkeypatch) -> None:
    rin, goblin = _hidden_rin(dnd, monkeypatch)

    dnd.write("damage_apply", {"target_id": rin, "amount": 40})
    entry = _entry(dnd, rin)
    struck = dnd.write("attack", {"attacker_id": goblin, "target_id": rin})
    dnd.write("heal", {"target_id": rin, "amount": 5})

    assert "unconscious" in entry["character"]["conditions"]
    assert "hidden" not in entry
    assert struck["to_hit"]["disadvantage_reasons"] == []
    # Coming to does not bring the hiding back.
    assert "hidden" not in _entry(dnd, rin)
    assert dnd.state()["combat"]["hidden"] == []


def test_an_attack_that_drops_a_hidden_creature_ends_its_hiding(dnd: Game, monkeypatch) -> None:
    # The goblin's scimitar deals 10 + 2 here.
    rin, goblin = _hidden_rin(dnd, monkeypatch, max_hp=12)

    struck = dnd.write("attack", {"attacker_id": goblin, "target_id": rin})

    assert struck["to_hit"]["disadvantage_reasons"] == ["Rin is hidden"]
    assert "unconscious" in _entry(dnd, rin)["character"]["conditions"]
    assert "hidden" not in _entry(dnd, rin)
    assert struck["receipt"]["changed_scopes"] == [
        f"character:{goblin}",
        f"character:{rin}",
        "combat",
    ]


def test_an_incapacitated_creature_is_hidden_no_more(dnd: Game, monkeypatch) -> None:
    rin, _goblin = _hidden_rin(dnd, monkeypatch)

    dnd.write("condition_add", {"target_id": rin, "condition": "incapacitated"})
    while_incapacitated = _entry(dnd, rin)
    dnd.write("condition_remove", {"target_id": rin, "condition": "incapacitated"})

    assert "hidden" not in while_incapacitated
    assert "hidden" not in _entry(dnd, rin)


def test_a_hidden_monster_killed_is_hidden_no_more(dnd: Game, monkeypatch) -> None:
    rin, goblin = _hidden_rin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": goblin, "action": "hide"})
    assert _entry(dnd, goblin)["hidden"] is True

    dnd.write("damage_apply", {"target_id": goblin, "amount": 100})

    assert "hidden" not in _entry(dnd, goblin)
    assert dnd.state()["combat"]["hidden"] == [rin]


def test_a_hidden_creatures_shove_gives_it_away_win_or_lose(dnd: Game, monkeypatch) -> None:
    # SRD 5.1: a shove is a special melee attack, and an attack gives away where its hidden
    # attacker is, hit or miss. Every die a 10: Rin's Athletics (+0) loses to the goblin's
    # Acrobatics (+2).
    rin, goblin = _hidden_rin(dnd, monkeypatch)
    dnd.write("combat_end_turn", {"character_id": goblin})

    shoved = dnd.write(
        "combat_action", {"character_id": rin, "action": "shove", "target_id": goblin}, sub=PLAYER
    )

    assert shoved["success"] is False
    assert "hidden" not in _entry(dnd, rin)
    assert dnd.state()["combat"]["hidden"] == []
