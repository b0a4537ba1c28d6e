""" "I punch the goblin": an Unarmed Strike is told as a punch (a kick, a head-butt, as said),
not as a weapon swung ("Steel meets flesh. … from Ilsa's Unarmed Strike"), in the module's
seeded variants."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_scripted_opportunity_attacks import _Recorder, _turn

pytestmark = pytest.mark.django_db

ORDER = [
    _combatant("pc-1", "Ilsa", "pc"),
    _combatant("mon-2", "Goblin", "monster", monster_key="goblin"),
]
MISS = {"hit": False, "critical": False, "to_hit": {"total": 9, "natural": 5}}
HIT = {
    "hit": True,
    "critical": False,
    "to_hit": {"total": 15, "natural": 12},
    "damage": {"total": 3, "damage_type": "bludgeoning", "effect": {}},
}


def _said(text: str, attack: dict) -> set[str]:
    said = set()
    for n in range(24):
        stub = _Recorder(
            {
                "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": ORDER}},
                "attack": {**attack, "attack": "Unarmed Strike"},
            }
        )
        turn = _turn(text, role="player", character_id="pc-1", job_id=f"unarmed-{n}")
        output = ScriptedAgent().run_turn(turn, stub)
        assert [c for c in stub.calls if c[0] == "attack"] == [
            (
                "attack",
                {"attacker_id": "pc-1", "target_id": "mon-2", "attack_name": "Unarmed Strike"},
            )
        ]
        said.add(output.messages[0].text)
    return said


def _hits(blow: str) -> set[str]:
    bodies = (
        f"Ilsa lands a {blow} on Goblin for 3 bludgeoning damage.",
        f"Ilsa's {blow} connects with Goblin (15 to hit): 3 bludgeoning.",
        f"Goblin takes 3 bludgeoning damage from Ilsa's {blow}.",
    )
    openers = ("A solid hit.", "A clean blow.", "It lands.")
    return {f"{opener} {body}" for opener in openers for body in bodies}


def _misses(blow: str) -> set[str]:
    return {
        f"Ilsa throws a {blow} at Goblin but misses (9 to hit).",
        f"Goblin evades Ilsa's {blow} (rolled 9).",
        f"Ilsa's {blow} finds only air; 9 is not enough.",
    }


@pytest.mark.parametrize(
    ("text", "blow"),
    [
        ("I punch the goblin", "punch"),
        ("attack the goblin with my fists", "punch"),
        ("attack the goblin unarmed", "punch"),
        ("kick the goblin", "kick"),
        ("I headbutt the goblin", "head-butt"),
    ],
)
def test_an_unarmed_hit_is_told_as_the_blow_said(text, blow):
    said = _said(text, HIT)

    # Every variant is told over the seeds, and none other.
    assert said == _hits(blow)


@pytest.mark.parametrize(
    ("text", "blow"), [("I punch the goblin", "punch"), ("kick the goblin", "kick")]
)
def test_an_unarmed_miss_is_told_as_the_blow_said(text, blow):
    assert _said(text, MISS) == _misses(blow)
