"""A concentration save the damage called for is narrated with its numbers, as any save is: the
total rolled against the DC the result gives ("Ash rolls 7 against DC 10 and loses
concentration: Shield of Faith ends."), in phrasings seeded by the job as the rest of the
narration is. A save made, each Magic Missile dart's and the GM's damage's are asserted with
their numbers beside the saves they test (test_scripted_concentration_saves.py,
test_scripted_gm_damage.py)."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_concentration_saves import _fire_bolt_at_ash, _party

pytestmark = pytest.mark.django_db


BOLT = "Wren casts Fire Bolt at Ash and hits (21 to hit): 13 fire damage (2d10 = 13). "


@pytest.mark.parametrize(
    ("job_id", "said"),
    [
        ("bolt", "Ash rolls 6 against DC 10 and loses concentration: Shield of Faith ends."),
        ("bolt-3", "Ash loses concentration, rolling 6 against DC 10: Shield of Faith ends."),
    ],
)
def test_a_lost_concentration_save_says_its_total_and_dc(live_domains, gm, player, job_id, said):
    table = _party(gm, player)
    run = _fire_bolt_at_ash(table, player, job_id)
    assert run.texts == [(BOLT + said, "trigger")]
