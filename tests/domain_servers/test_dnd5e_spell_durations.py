"""Spell durations in combat (SRD 5.1 "Duration": 1 minute is 10 rounds): a concentration
spell cast in combat ends at the start of its caster's turn 10 rounds (Shield of Faith's 10
minutes: 100) after the turn it was cast, as any lost concentration ends, and the end_turn
that reached that moment says what ended. One cast before the fight counts from round 1."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_bless import BLESS, _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party

SUBS = (GM, PLAYER, OTHER)
WARD = {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2}


def _fight(dnd: Game, monkeypatch, ids: dict[str, str]) -> None:
    """Ash, Bram and the goblin, every d20 a 10: the goblin (DEX 14) goes first, then Bram (DEX
    13), then Ash (DEX 10), so Ash's turns are at index 2."""
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})


def _end_turns_to(dnd: Game, char_id: str, round_: int) -> list[dict[str, Any]]:
    """End turns until `char_id`'s turn in `round_` starts; every end_turn result."""
    results = []
    for _ in range(400):
        status = dnd.read("combat_status")["combat"]
        if (status["current"], status["round"]) == (char_id, round_):
            return results
        results.append(dnd.write("combat_end_turn"))
    raise AssertionError(f"{char_id}'s turn in round {round_} never came")


def _ended(results: list[dict[str, Any]]) -> list[Any]:
    return [r["spells_ended"] for r in results if "spells_ended" in r]


def _blessed_in_round_1(dnd: Game, monkeypatch) -> dict[str, str]:
    """Ash blesses itself and Bram on its turn in round 1."""
    ids = _party(dnd)
    _fight(dnd, monkeypatch, ids)
    _end_turns_to(dnd, ids["ash"], 1)
    _bless(dnd, ids["ash"], ids["ash"], ids["bram"])
    return ids


def _miss(dnd: Game, monkeypatch, attacker: str, target: str, *dice: int) -> dict[str, Any]:
    _dice(monkeypatch, *dice)
    return dnd.write("attack", {"attacker_id": attacker, "target_id": target})["to_hit"]


def _bless_ended(ids: dict[str, str]) -> dict[str, Any]:
    return {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "bless",
        "spell_name": "Bless",
        "target_ids": [ids["ash"], ids["bram"]],
        "target_names": ["Ash", "Bram"],
        "duration": "1 minute",
    }


def test_bless_cast_in_round_1_ends_as_its_casters_turn_starts_in_round_11(
    dnd: Game, monkeypatch
) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)
    before = _end_turns_to(dnd, ids["ash"], 10)
    # Ash's 10th turn: still blessed (2 + 3 + 1 = 6 against AC 15, a miss).
    assert _miss(dnd, monkeypatch, ids["ash"], ids["goblin"], 2, 1)["bless"] == {"roll": 1}
    before += _end_turns_to(dnd, ids["bram"], 11)
    # Bram's turn in round 11 comes before Ash's: 10 rounds have not passed yet.
    assert _miss(dnd, monkeypatch, ids["bram"], ids["goblin"], 2, 1)["bless"] == {"roll": 1}
    assert _ended(before) == []

    ended = dnd.write("combat_end_turn")

    receipt = ended.pop("receipt")
    assert ended == {
        "ended": ids["bram"],
        "current": ids["ash"],
        "round": 11,
        "spells_ended": [_bless_ended(ids)],
    }
    assert (receipt["changed_scopes"], receipt["entity_ids"]) == (
        [f"character:{ids['ash']}", f"character:{ids['bram']}", "combat"],
        sorted([ids["ash"], ids["bram"]]),
    )
    stored = dnd.state()["characters"]
    assert [
        ("effects" in stored[ids[c]], "concentration" in stored[ids[c]]) for c in ("ash", "bram")
    ] == [
        (False, False),
        (False, False),
    ]
    # Ash's attack in round 11 rolls no d4: the one die drawn is its d20 (5 against AC 15).
    to_hit = _miss(dnd, monkeypatch, ids["ash"], ids["goblin"], 2)
    assert ("bless" in to_hit, to_hit["total"]) == (False, 5)


def test_shield_of_faith_lasts_past_10_rounds_and_ends_after_100(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _fight(dnd, monkeypatch, ids)
    _end_turns_to(dnd, ids["ash"], 1)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    results = _end_turns_to(dnd, ids["ash"], 11)
    bram = _char(dnd, ids["bram"])
    assert (_ended(results), bram["ac"], bram["effects"]) == (
        [],
        18,
        [{**WARD, "from": ids["ash"], "rounds_left": 90}],
    )
    results = _end_turns_to(dnd, ids["bram"], 101)
    assert (_ended(results), _char(dnd, ids["bram"])["ac"]) == ([], 18)

    ended = dnd.write("combat_end_turn")

    assert (ended["round"], ended["spells_ended"]) == (
        101,
        [
            {
                "caster_id": ids["ash"],
                "caster_name": "Ash",
                "spell": "shield_of_faith",
                "spell_name": "Shield of Faith",
                "target_id": ids["bram"],
                "target_name": "Bram",
                "duration": "10 minutes",
            }
        ],
    )
    bram = _char(dnd, ids["bram"])
    assert (bram["ac"], "effects" in bram) == (16, False)


def test_reads_in_combat_show_the_rounds_left(dnd: Game, monkeypatch) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)

    for sub in SUBS:
        ash = _char(dnd, ids["ash"], sub)
        assert ash["effects"] == [{**BLESS, "from": ids["ash"], "rounds_left": 10}]
        assert ash["concentration"] == {
            "spell": "bless",
            "name": "Bless",
            "target_ids": [ids["ash"], ids["bram"]],
            "target_names": ["Ash", "Bram"],
            "rounds_left": 10,
        }
    # Past Ash's turn, part of round 2 is still to come before the 10th round starts.
    _end_turns_to(dnd, ids["goblin"], 2)
    assert _char(dnd, ids["bram"], OTHER)["effects"][0]["rounds_left"] == 10
    _end_turns_to(dnd, ids["ash"], 2)
    order = dnd.read("combat_status", sub=PLAYER)["combat"]["order"]
    assert {e["id"]: e["character"].get("effects") for e in order} == {
        ids["goblin"]: None,
        ids["bram"]: [{**BLESS, "from": ids["ash"], "rounds_left": 9}],
        ids["ash"]: [{**BLESS, "from": ids["ash"], "rounds_left": 9}],
    }
    _end_turns_to(dnd, ids["goblin"], 11)
    assert _char(dnd, ids["ash"])["concentration"]["rounds_left"] == 1


def test_a_spell_cast_before_the_fight_lasts_its_first_10_rounds(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["ash"], ids["bram"])
    _fight(dnd, monkeypatch, ids)
    assert _char(dnd, ids["bram"])["effects"][0]["rounds_left"] == 10

    results = _end_turns_to(dnd, ids["ash"], 10)
    last = dnd.write("combat_end_turn")  # round 11 starts with the goblin's turn

    assert (_ended(results), last["round"], last["current"]) == ([], 11, ids["goblin"])
    assert last["spells_ended"] == [_bless_ended(ids)]
    assert "effects" not in _char(dnd, ids["bram"])


def test_a_fight_ended_and_begun_again_keeps_the_rounds_left(dnd: Game, monkeypatch) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)
    _end_turns_to(dnd, ids["ash"], 4)
    assert _char(dnd, ids["ash"])["concentration"]["rounds_left"] == 7

    dnd.write("combat_end")
    assert "rounds_left" not in _char(dnd, ids["ash"])["concentration"]  # no rounds out of it
    _fight(dnd, monkeypatch, ids)

    assert _char(dnd, ids["ash"])["concentration"]["rounds_left"] == 7
    results = _end_turns_to(dnd, ids["goblin"], 8)
    assert _ended(results) == [[_bless_ended(ids)]]
    assert results[-1]["round"] == 8


def test_concentration_broken_earlier_is_not_ended_again(dnd: Game, monkeypatch) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)
    _end_turns_to(dnd, ids["goblin"], 3)
    _dice(monkeypatch, 2, 1)  # 2 + 2 + 1 (Ash is blessed) = 5 against DC 10
    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})
    assert (hurt["concentration"]["spell"], hurt["concentration"]["kept"]) == ("Bless", False)

    results = _end_turns_to(dnd, ids["ash"], 12)

    assert _ended(results) == []
    assert dnd.state()["durations"] == {}  # the stale entry is pruned, not kept forever


def test_bless_cast_again_counts_from_its_new_casting(dnd: Game, monkeypatch) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)
    _end_turns_to(dnd, ids["ash"], 4)
    _bless(dnd, ids["ash"], ids["ash"], ids["bram"])

    results = _end_turns_to(dnd, ids["ash"], 14)

    assert _ended(results) == [[_bless_ended(ids)]]
    assert results[-1]["round"] == 14


def test_the_end_turn_that_ended_a_spell_replays_its_result(dnd: Game, monkeypatch) -> None:
    ids = _blessed_in_round_1(dnd, monkeypatch)
    _end_turns_to(dnd, ids["bram"], 11)
    args = {"expected_revision": dnd.revision, "idempotency_key": "round-11-ash"}
    first = dnd.call("combat_end_turn", args)
    dnd.revision += 1
    state = dnd.state()

    again = dnd.call("combat_end_turn", args)

    assert again.structured_content == first.structured_content
    assert again.structured_content["spells_ended"] == [_bless_ended(ids)]
    assert again.meta["idempotent_replay"] is True
    assert dnd.state() == state


def test_a_death_save_that_passes_the_turn_says_what_ended(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _fight(dnd, monkeypatch, ids)
    _end_turns_to(dnd, ids["ash"], 1)
    _bless(dnd, ids["ash"], ids["ash"])
    _end_turns_to(dnd, ids["ash"], 10)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # to 0 HP: dying
    for _ in range(2):
        dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 1})  # a failure each
    _end_turns_to(dnd, ids["bram"], 11)
    _dice(monkeypatch, 1)  # two more failures: dead, and the turn passes to Ash

    save = dnd.write("death_save", {"character_id": ids["bram"]})

    assert (save["outcome"], save["current"], save["round"]) == ("dead", ids["ash"], 11)
    assert save["spells_ended"] == [
        {
            "caster_id": ids["ash"],
            "caster_name": "Ash",
            "spell": "bless",
            "spell_name": "Bless",
            "target_ids": [ids["ash"]],
            "target_names": ["Ash"],
            "duration": "1 minute",
        }
    ]
    assert "effects" not in _char(dnd, ids["ash"])
