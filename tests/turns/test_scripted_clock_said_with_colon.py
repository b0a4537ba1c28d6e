"""A clock made as a table says it: "start a clock: the storm arrives, 4 segments" was not
understood; only "create clock Storm 4" made one."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_narrative import _writes

pytestmark = pytest.mark.django_db


def test_a_clock_named_after_a_colon_is_created(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, name, segments in [
        ("start a clock: the storm arrives, 4 segments", "the storm arrives", 4),
        ("start a clock called Storm with 4 segments", "Storm", 4),
        ("new clock Gale, 6 segments", "Gale", 6),
        ("create clock: Flood with 5 segments", "Flood", 5),
    ]:
        assert _writes(table, gm, text) == [
            ("clock_create", {"name": name, "segments": segments})
        ], text
