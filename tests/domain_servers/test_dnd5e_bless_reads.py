"""What everyone reads of Bless: the effect on each blessed creature, the caster's
concentration naming all its targets, the sheet's entry saying how many it targets, and a
monster's blessed rolls narrowed as its rolls are (the total, never the dice)."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_bless import BLESS, _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party

SUBS = (GM, PLAYER, OTHER)


def test_each_blessed_creature_reads_the_effect(dnd: Game) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"], ids["goblin"])

    for sub in SUBS:
        for target in ("bram", "goblin"):
            assert _char(dnd, ids[target], sub)["effects"] == [{**BLESS, "from": ids["ash"]}]
        assert "effects" not in _char(dnd, ids["wren"], sub)


def test_the_caster_reads_every_creature_it_blesses(dnd: Game) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["ash"], ids["bram"], ids["goblin"])

    for sub in SUBS:
        ash = _char(dnd, ids["ash"], sub)
        assert ash["concentration"] == {
            "spell": "bless",
            "name": "Bless",
            "target_ids": [ids["ash"], ids["bram"], ids["goblin"]],
            "target_names": ["Ash", "Bram", "Goblin"],
        }
        assert (ash["sheet"]["concentration"], ash["ac"]) == ("Bless", 18)


def test_a_bless_on_a_monster_answers_a_player_as_it_does_the_gm(dnd: Game) -> None:
    ids = _party(dnd)

    cast = _bless(dnd, ids["ash"], ids["goblin"], ids["bram"], sub=PLAYER)

    cast.pop("receipt")
    assert cast == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "bless",
        "spell_name": "Bless",
        "slot_level": 1,
        "slots_left": 1,
        "casting": "action",
        "source": "spell",
        "dice": "1d4",
        "target_ids": [ids["goblin"], ids["bram"]],
        "target_names": ["Goblin", "Bram"],
        "target_id": ids["goblin"],
        "target_name": "Goblin",
    }


def test_a_blessed_goblins_save_shows_the_players_its_total_alone(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["goblin"])
    _dice(monkeypatch, 8, 3)

    shown = dnd.write(
        "saving_throw", {"character_id": ids["goblin"], "ability": "dex", "dc": 12}, view="public"
    )

    shown.pop("receipt")
    shown.pop("random_stream_receipt", None)
    assert shown == {
        "mode": "normal",
        "ability": "dex",
        "bonus": 0,
        "total": 13,
        "dc": 12,
        "success": True,
        "character_id": ids["goblin"],
        "character_name": "Goblin",
        "character_kind": "monster",
        "kind": "save",
        "skill": None,
    }


def test_a_blessed_goblins_save_against_sacred_flame_hides_its_die(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["goblin"])
    _dice(monkeypatch, 8, 3)

    flame = _cast(dnd, ids["ash"], ids["goblin"], "sacred_flame")

    assert ("bless" in flame["save"], flame["save"]["total"]) == (False, 13)


def test_a_blessed_goblins_attack_shows_the_players_its_total_alone(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["goblin"])
    _dice(monkeypatch, 9, 2, 3)  # 9 + 4 + 2 = 15 against Bram's AC 16: a miss

    shown = dnd.write(
        "attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]}, view="public"
    )

    assert shown["to_hit"] == {
        "mode": "normal",
        "total": 15,
        "target_ac": 16,
        "advantage_reasons": [],
        "disadvantage_reasons": [],
    }
