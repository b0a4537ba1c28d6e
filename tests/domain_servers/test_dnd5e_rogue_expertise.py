"""dnd5e: a rogue's Expertise (SRD 5.1) doubles the proficiency bonus of two proficient skills
chosen at 1st level and two more at 6th; the rogue template picks them when none are given."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game


def _rogue(dnd: Game, level: int = 1, **args) -> dict:
    created = dnd.write(
        "character_create",
        {"name": "Rin", "template": "rogue", "level": level, **args},
        sub=PLAYER,
    )
    return created["character"]


def _check(dnd: Game, rogue: dict, skill: str) -> dict:
    return dnd.write(
        "ability_check", {"character_id": rogue["id"], "skill": skill, "dc": 10}, sub=PLAYER
    )


def test_a_rogues_stealth_check_doubles_the_proficiency_bonus(dnd: Game, monkeypatch) -> None:
    rin = _rogue(dnd)
    dnd.write("phase_set", {"phase": "play"})
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)

    stealth = _check(dnd, rin, "stealth")
    acrobatics = _check(dnd, rin, "acrobatics")

    assert rin["skill_expertise"] == ["perception", "stealth"]
    # d20 10 + DEX 15 (+2) + twice the proficiency bonus 2; acrobatics adds it once.
    assert (stealth["proficiency"], stealth["total"]) == (4, 16)
    assert (acrobatics["proficiency"], acrobatics["total"]) == (2, 14)


def test_a_6th_level_rogue_has_expertise_in_four_skills(dnd: Game, monkeypatch) -> None:
    rin = _rogue(dnd, level=6)
    dnd.write("phase_set", {"phase": "play"})
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)

    assert rin["skill_expertise"] == ["acrobatics", "perception", "sleight_of_hand", "stealth"]
    assert _check(dnd, rin, "acrobatics")["proficiency"] == 6  # twice +3


def test_a_rogue_chooses_expertise_among_proficient_skills(dnd: Game) -> None:
    rin = _rogue(dnd, skill_expertise=["sleight_of_hand", "stealth"])
    assert rin["skill_expertise"] == ["sleight_of_hand", "stealth"]

    unskilled = dnd.fail(
        "character_create",
        {"name": "Vex", "template": "rogue", "skill_expertise": ["athletics", "stealth"]},
        sub=PLAYER,
    )
    assert unskilled["message"] == "Expertise needs proficiency: Vex is not proficient in athletics"
    too_many = dnd.fail(
        "character_create",
        {
            "name": "Vex",
            "template": "rogue",
            "skill_expertise": ["acrobatics", "perception", "stealth"],
        },
        sub=PLAYER,
    )
    assert too_many["message"] == "a level 1 rogue has Expertise in 2 skills, not 3"
    fighter = dnd.fail(
        "character_create",
        {"name": "Ash", "template": "fighter", "skill_expertise": ["athletics"]},
        sub=PLAYER,
    )
    assert fighter["message"] == "only a rogue has Expertise here, not a fighter"


def test_a_rogue_stored_before_expertise_was_kept_has_the_templates() -> None:
    """A rogue created before characters carried skill_expertise gets the template's picks."""
    stored = {
        "kind": "pc",
        "template": "rogue",
        "level": 6,
        "skill_proficiencies": ["acrobatics", "perception", "sleight_of_hand", "stealth"],
    }

    assert rules.skill_expertise(stored) == [
        "acrobatics",
        "perception",
        "sleight_of_hand",
        "stealth",
    ]
    assert rules.skill_expertise({**stored, "level": 1}) == ["perception", "stealth"]
    assert rules.skill_expertise({**stored, "template": "fighter"}) == []


def test_a_rogue_without_the_templates_skills_still_has_two_expertise_picks(dnd: Game) -> None:
    rin = _rogue(dnd, skill_proficiencies=["athletics", "insight", "perception", "persuasion"])

    # Perception, the template's first pick it is proficient in, then its first other skill.
    assert rin["skill_expertise"] == ["athletics", "perception"]
