""" "Ilsa, make a dex save": who is addressed is found in the read the line itself makes, so
the domain is read no more often than for "Ilsa makes a dex save", in combat or out of it."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_in_combat_the_combat_is_read_once_before_the_save(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "Ilsa, make a dex save", job_id="said")
    # The last read is for the options offered after it.
    assert run.tools == ["combat_status", "saving_throw", "combat_status"]
    assert [a for _t, a in run.texts] == ["trigger"]


def test_out_of_combat_the_roster_is_read_once_before_the_save(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    _gm_write(table, "phase_set", phase="play")
    told = table.run(player, "Ilsa makes a dex save", job_id="told")
    asked = table.run(player, "Ilsa, make a dex save", job_id="asked")
    assert asked.tools == told.tools == ["campaign_get", "character_get", "saving_throw"]
    assert asked.texts == [
        (
            "Ilsa's dex save succeeds with 17 (DC 10). "
            "No DC was named, so the default DC 10 was used.",
            "trigger",
        )
    ]
