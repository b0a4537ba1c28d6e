"""dnd5e: a combat action's result names the kind of the creature that took it, so a reader
of a Hide knows from the result alone whether the hider is a monster (whose DC is the party's
own passive Perception) or a player character (whose DC is a monster's, the GM's alone),
without guessing from its id."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_hide_action import _rin_beside


def test_a_player_characters_hide_says_the_hider_is_a_player_character(
    dnd: Game, monkeypatch
) -> None:
    rin, _goblin = _rin_beside(dnd, monkeypatch)

    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER)

    assert (hid["character_id"], hid["character_kind"], hid["hidden"]) == (rin, "pc", True)


def test_a_monsters_hide_says_the_hider_is_a_monster_to_every_audience(
    dnd: Game, monkeypatch
) -> None:
    _rin, goblin = _rin_beside(dnd, monkeypatch)
    dnd.write("combat_end_turn")  # Rin's: the goblin is up

    hid = dnd.write("combat_action", {"character_id": goblin, "action": "hide"}, view="public")

    assert (hid["character_id"], hid["character_kind"], hid["hidden"]) == (
        goblin,
        "monster",
        True,
    )


def test_every_combat_action_names_its_takers_kind(dnd: Game, monkeypatch) -> None:
    rin, _goblin = _rin_beside(dnd, monkeypatch)

    dodged = dnd.write("combat_action", {"character_id": rin, "action": "dodge"}, sub=PLAYER)

    assert (dodged["action"], dodged["character_kind"]) == ("dodge", "pc")
