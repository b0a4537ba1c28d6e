""" "push through the crowd", "push the door open": "push" or "shove" is the rules' shove only
when what follows names a creature here; otherwise the line is not understood, never a search
for a creature called "through the crowd"."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

NOT_UNDERSTOOD = "I did not understand that."


@pytest.mark.parametrize(
    "text", ["push through the crowd", "I push the door open", "I shove my way through"]
)
def test_a_push_naming_no_creature_is_not_understood(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up, Goblin 2 beside her
    before = table.revision()

    run = table.run(player, text, job_id="push")

    assert [o.tool for o in run.caller.outcomes if o.tool == "combat_action"] == []
    assert len(run.texts) == 1 and run.texts[0][1] == "requester", run.texts
    assert run.texts[0][0].startswith(NOT_UNDERSTOOD), run.texts
    assert table.revision() == before


def test_a_push_naming_a_creature_is_still_a_shove(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)

    run = table.run(player, "push goblin 2 back", job_id="push")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["target_id"], t["shove"]) for t in taken] == [
        ("shove", "mon-3", "push")
    ], run.texts


def test_a_misspelt_creature_is_still_offered_as_the_shove_meant(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)

    run = table.run(player, "shove gobin 2", job_id="typo")

    assert run.texts[0][0].startswith("I cannot find “gobin 2” here. Did you mean: "), run.texts


def test_the_shove_grammar_still_reads_push(live_domains):
    intent, match = s._parse("dnd5e", "push through the crowd")
    assert intent is not None and intent.handler is s.dnd_shove
    assert match["target"] == "through the crowd"
