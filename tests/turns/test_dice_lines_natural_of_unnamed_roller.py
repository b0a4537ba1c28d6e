"""A roll's natural d20 with its total gives away a monster's stat-block modifier, so a line the
players read shows it only for a roll that names a player character as its roller; a roll that
names no roller's kind (stored before attacks said whose they were) may be a monster's."""

from __future__ import annotations

from typing import Any

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from


def _attack(**changes: Any) -> dict[str, Any]:
    """An attack's result as stored before attacks named the attacker's kind."""
    return {
        "attacker_id": "mon-3", "attacker_name": "Goblin", "target_id": "pc-2",
        "target_name": "Lyra", "attack": "Scimitar", "hit": True, "critical": False,
        "to_hit": {"natural": 12, "rolls": [12], "mode": "normal", "total": 16},
        "damage": {"total": 5, "damage_type": "slashing"}, **changes,
    }  # fmt: skip


def _line(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    (line,) = dice_from([Operation(tool="attack", result={"structuredContent": result})], **kwargs)
    return line


def test_an_attack_that_names_no_attackers_kind_shows_the_players_no_natural_die() -> None:
    assert _line(_attack()) == {
        "tool": "attack",
        "label": "Scimitar",
        "attacker_id": "mon-3",
        "target_id": "pc-2",
        "attacker_name": "Goblin",
        "target_name": "Lyra",
        "natural": None,
        "total": 16,
        "mode": "normal",
        "hit": True,
        "critical": False,
        "damage": 5,
        "damage_type": "slashing",
    }


def test_an_attack_that_names_no_attackers_kind_shows_the_gm_its_natural_die() -> None:
    assert _line(_attack(), gm_only=True)["natural"] == 12


def test_an_attack_by_a_player_character_shows_the_players_its_natural_die() -> None:
    assert (
        _line(_attack(attacker_id="pc-2", target_id="mon-3", attacker_kind="pc"))["natural"] == 12
    )
