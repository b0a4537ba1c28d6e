""" "how many spell slots?" ("… left?", "… do I have?") is the character's spells and slots
left, as "how many spell slots do I have left?" is; it was read as creatures counted ("There
are no spell slots here.")."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_spells_asked import CLERIC, _table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text", ["how many spell slots?", "how many spell slots left", "How many spell slots are left?"]
)
def test_spell_slots_counted_are_the_casters_slots_left(live_domains, gm, player, text):
    table = _table(gm, player, "cleric")
    _gm_write(table, "damage_apply", target_id="pc-1", amount=6)
    table.run(player, "cast cure wounds on me", job_id="cure")
    before = table.revision()
    run = table.run(player, text, job_id="slots")
    assert run.tools == ["character_get"]
    assert run.texts == [(CLERIC, "requester")]
    assert table.revision() == before
