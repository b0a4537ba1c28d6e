""" "Ilsa rolls a dex save", "Ilsa rolls perception": a check or save named with who rolls it,
as "Ilsa makes a dex save" names it, instead of "“Ilsa rolls a dex” is not an ability"."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat


@pytest.mark.parametrize(
    ("text", "handler", "groups"),
    [
        ("Ilsa rolls a dex save", s.dnd_save, {"target": "Ilsa", "what": "dex", "dc": None}),
        (
            "Ilsa rolls a stealth check dc 12",
            s.dnd_check,
            {"target": "Ilsa", "what": "stealth", "dc": "12"},
        ),
        ("Ilsa rolls perception", s.dnd_check, {"target": "Ilsa", "what": "perception"}),
        ("Ilsa rolls dex save", s.dnd_save, {"target": "Ilsa", "what": "dex"}),
        ("goblin 2 rolls for stealth", s.dnd_check, {"target": "goblin 2", "what": "stealth"}),
        (
            "the goblin rolls a wisdom saving throw DC 13.",
            s.dnd_save,
            {"target": "the goblin", "what": "wisdom", "dc": "13"},
        ),
    ],
)
def test_a_check_or_save_named_with_who_rolls_it(text, handler, groups):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is handler, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


@pytest.mark.django_db
def test_the_gm_has_a_named_creature_roll_its_save(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "Ilsa rolls a dex save dc 12", job_id="ilsa-rolls")
    assert [(o.tool, o.structured["character_id"]) for o in run.caller.outcomes
            if o.tool == "saving_throw"] == [("saving_throw", "pc-1")]  # fmt: skip
    assert run.output.declined is False
