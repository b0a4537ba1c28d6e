"""A check or save said in the first person ("I make a perception check", "I roll a dex
save") is the player's own, not a skill named "I make a perception"."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("I make a perception check", "ability_check"),
        ("I make a wisdom saving throw dc 12", "saving_throw"),
        ("I roll a dex save", "saving_throw"),
        ("I roll stealth", "ability_check"),
    ],
)
def test_a_first_person_check_or_save_is_the_players_own(live_domains, gm, player, text, tool):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    run = table.run(player, text, job_id=text)
    assert [o.tool for o in run.caller.outcomes if o.tool == tool] == [tool], run.texts
    assert len(run.texts) == 1 and "Ilsa's" in run.texts[0][0], run.texts
