"""The oracle addressed by name ("oracle: is the door locked?", "Oracle, will it rain?
likely") is asked, as "ask the oracle …" is."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("oracle: is the door locked?", {"question": "is the door locked?", "likelihood": "even"}),
        ("Oracle, will it rain? likely", {"question": "will it rain?", "likelihood": "likely"}),
        ("the oracle: is he lying?", {"question": "is he lying?", "likelihood": "even"}),
    ],
)
def test_the_oracle_addressed_by_name_is_asked(live_domains, gm, player, text, asked):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, output = _sent(table, player, text)
    assert calls == [("oracle_ask", asked)]
    assert output.declined is False
