""" "start combat with seven goblins": any count under a hundred said in words is read (not
only up to six); "is Ilsa dying?", "is Ilsa stable?" are answered from her state."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    return table


def test_seven_goblins_in_words_are_seven(party):
    run = party.run(party.gm, "start combat with seven goblins", job_id="seven")
    assert run.tools.count("monster_spawn") == 7
    assert "combat_start" in run.tools


def test_too_many_in_words_is_refused_as_too_many(party):
    before = party.revision()
    run = party.run(party.gm, "start combat with twenty goblins", job_id="twenty")
    assert run.texts == [("At most 12 monsters per action.", "requester")]
    assert party.revision() == before


def test_dying_and_stable_are_answered(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=12)  # Ilsa drops, dying
    assert table.run(player, "is Ilsa dying?", job_id="dying").texts == [
        ("Yes: Ilsa is dying.", "requester")
    ]
    assert table.run(player, "is Ilsa stable?", job_id="stable").texts == [
        ("No: Ilsa is down, prone and unconscious.", "requester")
    ]
