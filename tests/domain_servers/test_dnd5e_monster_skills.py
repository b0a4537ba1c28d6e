"""dnd5e: monsters' skill bonuses as the SRD 5.1 stat blocks give them."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import Game


@pytest.mark.parametrize(
    ("key", "skill", "modifier", "proficiency"),
    [
        ("goblin", "stealth", 2, 4),  # Stealth +6: expertise doubles the proficiency bonus
        ("wolf", "stealth", 2, 2),  # Stealth +4
        ("wolf", "perception", 1, 2),  # Perception +3
        ("orc", "intimidation", 0, 2),  # Intimidation +2
        ("goblin", "perception", -1, 0),  # no proficiency: the ability alone
    ],
)
def test_a_monsters_skill_check_adds_its_stat_block_bonus(
    dnd: Game, key: str, skill: str, modifier: int, proficiency: int
) -> None:
    dnd.write("phase_set", {"phase": "play"})
    monster = dnd.write("monster_spawn", {"monster_key": key})["character"]["id"]
    rolled = dnd.write("ability_check", {"character_id": monster, "skill": skill, "dc": 10})
    assert (rolled["ability_modifier"], rolled["proficiency"]) == (modifier, proficiency)
    assert rolled["total"] == rolled["natural"] + modifier + proficiency
