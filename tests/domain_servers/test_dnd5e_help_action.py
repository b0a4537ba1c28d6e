"""dnd5e: the Help action in combat (SRD 5.1) spends the helper's action: the ally's next attack
roll against a foe within 5 ft of the helper has advantage, or, with no foe named, the ally's
next ability check; either lapses when the helper's next turn starts."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import OTHER, PLAYER, Game


def _party_and_goblin(dnd: Game, monkeypatch) -> tuple[str, str, str]:
    """Bram (helper, first), Ash, then the goblin: Bram and Ash both beside the goblin."""
    bram = dnd.write(
        "character_create",
        {"name": "Bram", "abilities": dict.fromkeys(("str", "con", "int", "wis", "cha"), 10)
         | {"dex": 18}},
        sub=OTHER,
    )["character"]["id"]  # fmt: skip
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [bram, ash, goblin]})
    assert [e["id"] for e in started["combat"]["order"]] == [bram, goblin, ash]
    return bram, ash, goblin


def test_helping_gives_the_allys_next_attack_on_that_foe_advantage(dnd: Game, monkeypatch) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)

    helped = dnd.write(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": goblin},
        sub=OTHER,
    )
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    dnd.write("combat_end_turn")  # the goblin's
    first = dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)

    assert (helped["ally_name"], helped["target_name"]) == ("Ash", "Goblin")
    assert first["to_hit"]["advantage_reasons"] == ["Bram helps Ash (the Help action)"]
    # Spent on that attack.
    assert dnd.state()["combat"]["helped"] == {}


def test_the_help_lapses_when_the_helpers_next_turn_starts(dnd: Game, monkeypatch) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)
    dnd.write(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": goblin},
        sub=OTHER,
    )
    for sub in (OTHER, "user:gm", PLAYER):  # Bram's, the goblin's and Ash's turns pass
        dnd.write("combat_end_turn", {}, sub=sub)
    dnd.write("combat_end_turn", {}, sub=OTHER)  # Bram's next turn started: the help lapsed
    dnd.write("combat_end_turn")

    late = dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)

    assert late["to_hit"]["advantage_reasons"] == []


def test_helping_with_a_check(dnd: Game, monkeypatch) -> None:
    bram, ash, _goblin = _party_and_goblin(dnd, monkeypatch)

    dnd.write("combat_action", {"character_id": bram, "action": "help", "ally_id": ash}, sub=OTHER)
    check = dnd.write(
        "ability_check", {"character_id": ash, "skill": "athletics", "dc": 10}, sub=PLAYER
    )

    assert (check["mode"], check["advantage_reasons"]) == (
        "advantage",
        ["Bram helps Ash (the Help action)"],
    )


def test_help_needs_an_ally_and_a_foe_within_5_ft(dnd: Game, monkeypatch) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)

    alone = dnd.fail("combat_action", {"character_id": bram, "action": "help"}, sub=OTHER)
    foe = dnd.fail(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": goblin, "target_id": ash},
        sub=OTHER,
    )
    dnd.write("combat_move", {"character_id": bram, "x": 2, "y": 0}, sub=OTHER)
    far = dnd.fail(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": goblin},
        sub=OTHER,
    )

    assert alone["message"] == "name the ally Bram helps (ally_id)"
    assert foe["message"] == "Goblin is no ally of Bram"
    assert far["message"] == (
        "Goblin is 20 ft away from Bram; the Help action aids an attack on a foe within 5 ft of "
        "the helper"
    )


def test_a_fallen_helpers_help_lapses_when_its_turn_would_have_started(
    dnd: Game, monkeypatch
) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)
    dnd.write(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": goblin},
        sub=OTHER,
    )
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    dnd.write("damage_apply", {"target_id": bram, "amount": 100})  # killed outright
    dnd.write("combat_end_turn")  # the goblin's
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)  # Bram's turn is passed over
    dnd.write("combat_end_turn")  # the goblin's again

    late = dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)

    assert late["to_hit"]["advantage_reasons"] == []
    assert dnd.state()["combat"]["helped"] == {}


def test_a_helped_ally_hides_with_advantage(dnd: Game, monkeypatch) -> None:
    bram, ash, _goblin = _party_and_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": bram, "action": "help", "ally_id": ash}, sub=OTHER)
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    dnd.write("combat_end_turn")  # the goblin's

    hid = dnd.write("combat_action", {"character_id": ash, "action": "hide"}, sub=PLAYER)

    assert (hid["check"]["mode"], hid["check"]["advantage_reasons"]) == (
        "advantage",
        ["Bram helps Ash (the Help action)"],
    )
    assert dnd.state()["combat"]["helped"] == {}


def test_a_helped_ally_shoves_with_advantage(dnd: Game, monkeypatch) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": bram, "action": "help", "ally_id": ash}, sub=OTHER)
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    dnd.write("combat_end_turn")  # the goblin's

    shoved = dnd.write(
        "combat_action",
        {"character_id": ash, "action": "shove", "target_id": goblin},
        sub=PLAYER,
    )

    assert shoved["contest"]["shover_check"]["advantage_reasons"] == [
        "Bram helps Ash (the Help action)"
    ]


def test_a_foe_outside_the_fight_is_no_target_to_help_against(dnd: Game, monkeypatch) -> None:
    bram, ash, _goblin = _party_and_goblin(dnd, monkeypatch)
    away = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]

    refused = dnd.fail(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": away},
        sub=OTHER,
    )

    assert (refused["code"], refused["message"]) == (
        "invalid_request",
        "Goblin 2 is not in this combat",
    )


def test_an_ally_outside_the_combat_cannot_be_helped(dnd: Game, monkeypatch) -> None:
    cara = dnd.write("character_create", {"name": "Cara", "template": "fighter"}, sub=OTHER)
    cara = cara["character"]["id"]
    bram, _ash, goblin = _party_and_goblin(dnd, monkeypatch)  # Cara stays out of the fight
    before = dnd.state()["combat"]

    attack = dnd.fail(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": cara, "target_id": goblin},
        sub=OTHER,
    )
    check = dnd.fail(
        "combat_action", {"character_id": bram, "action": "help", "ally_id": cara}, sub=OTHER
    )

    # Cara has no turn in this fight to attack or act on before Bram's next turn starts.
    assert (attack["code"], attack["message"]) == (
        "invalid_request",
        "Cara is not in this combat: Bram's Help aids an ally who takes part in it",
    )
    assert check["message"] == attack["message"]
    assert dnd.state()["combat"] == before
    assert before["budgets"][bram]["action"] == 1
    assert "helped" not in before


def _entry(dnd: Game, char_id: str, sub: str) -> dict:
    order = dnd.read("combat_status", sub=sub)["combat"]["order"]
    return next(e for e in order if e["id"] == char_id)


def test_the_combat_view_shows_who_helps_whom_against_which_foe(dnd: Game, monkeypatch) -> None:
    bram, ash, goblin = _party_and_goblin(dnd, monkeypatch)
    dnd.write(
        "combat_action",
        {"character_id": bram, "action": "help", "ally_id": ash, "target_id": goblin},
        sub=OTHER,
    )

    # Seen at the table: everyone reads why Ash's next attack on the goblin has advantage.
    for sub in ("user:gm", PLAYER, OTHER):
        assert _entry(dnd, ash, sub)["helped_by"] == [
            {
                "helper_id": bram,
                "helper_name": "Bram",
                "target_id": goblin,
                "target_name": "Goblin",
            }
        ]
        assert "helped_by" not in _entry(dnd, bram, sub)
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    dnd.write("combat_end_turn")  # the goblin's
    dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)
    assert "helped_by" not in _entry(dnd, ash, PLAYER)  # spent on that attack


def test_the_combat_view_shows_a_help_with_a_check(dnd: Game, monkeypatch) -> None:
    bram, ash, _goblin = _party_and_goblin(dnd, monkeypatch)

    dnd.write("combat_action", {"character_id": bram, "action": "help", "ally_id": ash}, sub=OTHER)

    assert _entry(dnd, ash, PLAYER)["helped_by"] == [
        {"helper_id": bram, "helper_name": "Bram", "target_id": None, "target_name": None}
    ]
