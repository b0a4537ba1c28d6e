"""An attack made as a reaction says so in its narration: an opportunity attack names the
reach that was left ("As Ilsa leaves Goblin 2's reach, Goblin 2 makes an opportunity
attack."), another reaction says it is one; the attack itself is told as any attack is, in
the module's seeded variants."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_scripted_opportunity_attacks import _Recorder, _turn

pytestmark = pytest.mark.django_db

ORDER = [
    _combatant("pc-1", "Ilsa", "pc"),
    _combatant("mon-2", "Goblin", "monster", monster_key="goblin"),
    _combatant("mon-3", "Goblin", "monster", monster_key="goblin"),
]
MISS = {"hit": False, "critical": False, "to_hit": {"total": 9, "natural": 5}}
HIT = {
    "hit": True,
    "critical": False,
    "to_hit": {"total": 15, "natural": 12},
    "damage": {"total": 4, "damage_type": "slashing", "effect": {}},
}
SEEDS = range(16)


def _texts(text: str, *, role: str, character_id: str | None, current: str, attack: dict) -> set:
    said = set()
    for n in SEEDS:
        stub = _Recorder(
            {
                "combat_status": {"combat": {"current": current, "round": 1, "order": ORDER}},
                "attack": attack,
            }
        )
        output = ScriptedAgent().run_turn(
            _turn(text, role=role, character_id=character_id, job_id=f"reaction-{n}"), stub
        )
        assert [c[1].get("as_reaction") for c in stub.calls if c[0] == "attack"] == [True]
        said.add(output.messages[0].text)
    return said


def _told(said: set[str], leads: tuple[str, ...], bodies: tuple[str, ...]) -> None:
    """Each text is one lead then one body; every lead is used over the seeds (the variety)."""
    pairs = {(lead, body) for lead in leads for body in bodies}
    assert said <= {f"{lead} {body}" for lead, body in pairs}
    assert {lead for lead in leads if any(t.startswith(lead) for t in said)} == set(leads)


MONSTER_LEADS = (
    "As Ilsa leaves Goblin 2's reach, Goblin 2 makes an opportunity attack.",
    "Goblin 2 seizes the opening as Ilsa pulls away, striking as a reaction.",
)
MONSTER_MISSES = (
    "Goblin 2 swings Scimitar at Ilsa but misses (9 to hit).",
    "Ilsa evades Goblin 2's Scimitar (rolled 9).",
    "Goblin 2's Scimitar finds only air; 9 is not enough.",
)


def test_the_gms_opportunity_attack_says_ilsa_left_the_goblins_reach():
    said = _texts(
        "goblin 2 attacks Ilsa as a reaction",
        role="gm",
        character_id=None,
        current="pc-1",
        attack={**MISS, "attack": "Scimitar", "opportunity_attack": True},
    )

    _told(said, MONSTER_LEADS, MONSTER_MISSES)


def test_a_hit_made_as_an_opportunity_attack_says_so_before_the_blow():
    said = _texts(
        "goblin 2 attacks Ilsa as a reaction",
        role="gm",
        character_id=None,
        current="pc-1",
        attack={**HIT, "attack": "Scimitar", "opportunity_attack": True},
    )

    bodies = tuple(
        f"{opener} {blow}"
        for opener in ("A solid hit.", "Steel meets flesh.", "It lands.")
        for blow in (
            "Goblin 2 strikes Ilsa with Scimitar for 4 slashing damage.",
            "Goblin 2's Scimitar hits Ilsa (15 to hit): 4 slashing.",
            "Ilsa takes 4 slashing damage from Goblin 2's Scimitar.",
        )
    )
    _told(said, MONSTER_LEADS, bodies)


def test_a_players_opportunity_attack_says_the_goblin_left_ilsas_reach():
    said = _texts(
        "attack goblin 2 as a reaction",
        role="player",
        character_id="pc-1",
        current="mon-3",
        attack={**MISS, "attack": "Longsword", "opportunity_attack": True},
    )

    _told(
        said,
        (
            "As Goblin 2 leaves Ilsa's reach, Ilsa makes an opportunity attack.",
            "Ilsa seizes the opening as Goblin 2 pulls away, striking as a reaction.",
        ),
        (
            "Ilsa swings Longsword at Goblin 2 but misses (9 to hit).",
            "Goblin 2 evades Ilsa's Longsword (rolled 9).",
            "Ilsa's Longsword finds only air; 9 is not enough.",
        ),
    )


def test_a_reaction_the_last_move_did_not_provoke_still_says_it_is_a_reaction():
    # The rules strike from where the target stands: no reach was left, a reaction all the same.
    said = _texts(
        "goblin 2 attacks Ilsa as a reaction",
        role="gm",
        character_id=None,
        current="pc-1",
        attack={**MISS, "attack": "Scimitar"},
    )

    _told(
        said,
        (
            "Goblin 2 attacks Ilsa as a reaction.",
            "Goblin 2 uses a reaction to strike at Ilsa.",
        ),
        MONSTER_MISSES,
    )


def test_an_attack_on_the_attackers_own_turn_says_nothing_of_reactions():
    said = set()
    for n in SEEDS:
        stub = _Recorder(
            {
                "combat_status": {"combat": {"current": "mon-3", "round": 1, "order": ORDER}},
                "attack": {**MISS, "attack": "Scimitar"},
            }
        )
        turn = _turn("goblin 2 attacks Ilsa", role="gm", character_id=None, job_id=f"own-{n}")
        said.add(ScriptedAgent().run_turn(turn, stub).messages[0].text)

    assert said == set(MONSTER_MISSES)
