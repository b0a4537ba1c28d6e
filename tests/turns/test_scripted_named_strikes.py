""" "goblin 2 hits Ilsa", "Goblin 2 shoots Ilsa with its shortbow", "goblin 2 swings at Ilsa":
who strikes whom, named, is "<name> attacks <target>", as "hit the goblin" is "attack the
goblin"."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("goblin 2 hits Ilsa", {"attacker": "goblin 2", "target": "Ilsa", "weapon": None}),
        (
            "Goblin 2 shoots Ilsa with its shortbow",
            {"attacker": "Goblin 2", "target": "Ilsa", "weapon": "its shortbow"},
        ),
        ("goblin 2 swings at Ilsa", {"attacker": "goblin 2", "target": "Ilsa"}),
        (
            "the goblin swings its scimitar at Ilsa",
            {"attacker": "the goblin", "target": "Ilsa", "weapon": "its scimitar"},
        ),
        ("Ilsa stabs the goblin.", {"attacker": "Ilsa", "target": "the goblin"}),
        ("Ilsa strikes goblin 2 with advantage", {"attacker": "Ilsa", "mode": "advantage"}),
    ],
)
def test_who_strikes_whom_is_an_attack(text, groups):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_attack, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


@pytest.mark.django_db
def test_the_gm_has_the_monster_up_shoot_a_character(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end Ilsa's turn", job_id="to-goblin-2")
    run = table.run(gm, "Goblin 2 shoots Ilsa with its shortbow!", job_id="shoot")
    attacks = [o.structured for o in run.caller.outcomes if o.tool == "attack"]
    assert [(a["attacker_id"], a["target_id"], a["attack"]) for a in attacks] == [
        ("mon-3", "pc-1", "Shortbow")
    ]
