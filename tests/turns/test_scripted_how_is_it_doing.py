""" "How's the goblin?", "how is Ilsa doing?": a look at it, as "how hurt is the goblin?" is;
"how am I doing?" is your character's line. A "how is it going?" names no creature."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat


@pytest.mark.parametrize(
    ("text", "handler", "target"),
    [
        ("how's the goblin?", s.dnd_describe, "the goblin"),
        ("how is goblin 2 doing?", s.dnd_describe, "goblin 2"),
        ("How is Ilsa holding up", s.dnd_describe, "Ilsa"),
        ("hows the goblin looking", s.dnd_describe, "the goblin"),
        ("how am I doing?", s.dnd_sheet, None),
    ],
)
def test_how_a_creature_is_doing_is_a_look_at_it(text, handler, target):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None
    assert intent.handler is handler
    assert match.groupdict().get("target") == target


@pytest.mark.parametrize("text", ["how's it going?", "how is everyone doing?", "how are we doing"])
def test_how_it_is_going_names_no_creature(text):
    intent, _match = s._parse("dnd5e", text)
    assert intent is None


@pytest.mark.django_db
def test_hows_the_goblin_is_answered(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    asked = table.run(player, "how's the goblin?", job_id="asked")
    looked = table.run(player, "how hurt is the goblin?", job_id="asked")
    assert asked.texts == looked.texts
    assert asked.output.declined is False
