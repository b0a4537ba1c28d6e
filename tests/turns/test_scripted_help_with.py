""" "help Ilsa with the goblin": the foe the help is against, said after "with" as after
"against", is the Help action's target ("help Ilsa attack the goblin" names it too); the whole
"Ilsa with the goblin" was looked for as the ally."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_help_action import on_the_turn_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("help Ilsa with the goblin", {"ally": "Ilsa", "target": "the goblin"}),
        ("I help Ilsa with goblin 2", {"ally": "Ilsa", "target": "goblin 2"}),
        ("help Ilsa attack the goblin", {"ally": "Ilsa", "target": "the goblin"}),
        ("help Ilsa against the goblin", {"ally": "Ilsa", "target": "the goblin"}),
    ],
)
def test_the_foe_helped_against_is_the_target(text, groups):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_help, text
    assert {k: match.groupdict().get(k) for k in groups} == groups


def _brams_turn(gm, player):
    """Ilsa and Bram (both the player's, Bram speaking) against a goblin, on Bram's turn."""
    return on_the_turn_of(gm, player, "Bram")


@pytest.mark.parametrize("text", ["help Ilsa with the goblin", "help Ilsa attack the goblin"])
def test_helping_an_ally_with_a_foe_aids_its_attack_on_it(live_domains, gm, player, text):
    table = _brams_turn(gm, player)

    run = table.run(player, text, job_id="help")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["ally_name"], t["target_name"]) for t in taken] == [
        ("help", "Ilsa", "Goblin")
    ], run.texts
    assert run.texts[0] == (
        "Bram helps Ilsa: Ilsa's next attack on the goblin has advantage, until Bram's next turn.",
        "trigger",
    )
