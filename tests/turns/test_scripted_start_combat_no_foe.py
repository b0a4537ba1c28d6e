""" "start combat" with no monster standing or named: the GM is told there is no foe and how to
name one, and nothing changes (no fight of the party alone, no phase moved on)."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

NO_FOE = (
    "There is no foe to fight here: name one to start, e.g. “start combat with a goblin”.",
    "requester",
)


@pytest.mark.parametrize("text", ["start combat", "Begin the fight!"])
def test_the_gm_is_told_to_name_a_foe(live_domains, gm, player, text):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    before = table.revision()
    run = table.run(gm, text, job_id="alone")
    assert run.texts == [NO_FOE]
    assert run.output.declined is True
    assert "combat_start" not in run.tools and "phase_set" not in run.tools
    assert table.revision() == before


def test_a_foe_left_standing_from_before_is_fought(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "start combat with a goblin", job_id="first")
    table.run(gm, "end combat", job_id="end")
    again = table.run(gm, "start combat", job_id="again")
    assert "combat_start" in again.tools
    assert NO_FOE not in again.texts
