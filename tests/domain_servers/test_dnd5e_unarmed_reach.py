"""dnd5e: every player character can make an Unarmed Strike (SRD 5.1), so it has a 5 ft reach
for opportunity attacks even with no melee weapon listed: a wizard whose only listed attack is
Fire Bolt threatens the goblin beside it, and strikes it unarmed as it leaves. A monster's
reach is its stat block's."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game


def _goblin_leaves(dnd: Game, monkeypatch, template: str = "wizard") -> tuple[str, str, dict]:
    vex = dnd.write(
        "character_create", {"name": "Vex", "template": template, "max_hp": 30}, sub=PLAYER
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [vex, goblin]})
    if started["combat"]["current"] != goblin:
        dnd.write("combat_end_turn")
    # Face to face at the start; three squares away is out of any 5 ft reach.
    moved = dnd.write("combat_move", {"character_id": goblin, "x": 9, "y": 0})
    return vex, goblin, moved


def test_a_wizard_with_only_fire_bolt_has_the_unarmed_strikes_5_ft_reach() -> None:
    wizard = {"kind": "pc", "attacks": [dict(a) for a in rules.TEMPLATES["wizard"]["attacks"]]}

    assert rules.melee_reach(wizard) == 5


def test_a_monster_with_only_a_ranged_attack_has_no_reach() -> None:
    archer = {"kind": "monster", "attacks": [{"name": "Shortbow", "bonus": 4, "damage": "1d6"}]}

    assert rules.melee_reach(archer) is None


def test_a_goblin_leaving_the_wizards_side_gives_the_wizard_an_opportunity_attack(
    dnd: Game, monkeypatch
) -> None:
    vex, _goblin, moved = _goblin_leaves(dnd, monkeypatch)

    assert moved["opportunity_attacks"] == [{"attacker_id": vex, "attacker_name": "Vex"}]


def test_the_wizards_opportunity_attack_is_an_unarmed_strike(dnd: Game, monkeypatch) -> None:
    vex, goblin, _moved = _goblin_leaves(dnd, monkeypatch)

    struck = dnd.write(
        "attack", {"attacker_id": vex, "target_id": goblin, "as_reaction": True}, sub=PLAYER
    )

    assert (struck["attack"], struck["range"]["kind"], struck["opportunity_attack"]) == (
        "Unarmed Strike",
        "melee",
        True,
    )


def test_fire_bolt_as_the_wizards_opportunity_attack_points_at_the_unarmed_strike(
    dnd: Game, monkeypatch
) -> None:
    vex, goblin, _moved = _goblin_leaves(dnd, monkeypatch)
    before = dnd.read("combat_status")["combat"]

    refused = dnd.fail(
        "attack",
        {"attacker_id": vex, "target_id": goblin, "attack_name": "Fire Bolt", "as_reaction": True},
        sub=PLAYER,
    )

    assert refused["message"] == (
        "an opportunity attack is a melee attack: Fire Bolt has a range of 120 ft; "
        "Vex makes it with Unarmed Strike"
    )
    assert dnd.read("combat_status")["combat"] == before


def test_a_fighters_opportunity_attack_is_made_with_its_listed_longsword(
    dnd: Game, monkeypatch
) -> None:
    vex, goblin, moved = _goblin_leaves(dnd, monkeypatch, "fighter")
    assert moved["opportunity_attacks"] == [{"attacker_id": vex, "attacker_name": "Vex"}]

    struck = dnd.write(
        "attack", {"attacker_id": vex, "target_id": goblin, "as_reaction": True}, sub=PLAYER
    )

    assert (struck["attack"], struck["opportunity_attack"]) == ("Longsword", True)
