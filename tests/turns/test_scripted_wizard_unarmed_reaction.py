"""On the live rules, a wizard whose only listed attack is Fire Bolt still threatens the goblin
beside it with its Unarmed Strike: the goblin walking away offers the wizard's player an
opportunity attack, which strikes unarmed."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_goblin_leaving_a_wizard_is_struck_unarmed_as_a_reaction(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Vex", template="wizard")
    vex = created.structured["character"]["id"]
    table.characters[principal_for(player)] = vex
    table.run(gm, "Start combat with a goblin", job_id="start")
    if table.call(gm, "combat_status").structured["combat"]["current"] == vex:
        table.run(player, "end turn", job_id="vex-end")

    moved = table.run(gm, "goblin moves to 9,0", job_id="away")

    assert moved.output.suggestions_for == {vex: ("attack the goblin as a reaction",)}
    struck = table.run(player, "attack the goblin as a reaction", job_id="strike")
    attacks = [o for o in struck.caller.outcomes if o.tool == "attack"]
    assert [
        (o.ok, o.structured["attack"], o.structured["opportunity_attack"]) for o in attacks
    ] == [(True, "Unarmed Strike", True)]
