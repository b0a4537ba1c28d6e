"""Oracle odds said as a table hedges them ("probably not"), against a live server."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _asked(run) -> list[tuple[str, str]]:
    return [
        (o.structured["question"], o.structured["likelihood"])
        for o in run.caller.outcomes
        if o.tool == "oracle_ask"
    ]


def test_the_oracle_reads_odds_said_as_probably_or_almost_certainly(live_domains, gm, player):
    """ "probably not" after an unquoted question used to be asked as part of it, at even
    odds; after a quoted one, "probably" was refused as no likelihood."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, asked in [
        ("ask the oracle will the boat sink, probably not", ("will the boat sink", "unlikely")),
        ("ask the oracle is the door locked? probably", ("is the door locked?", "likely")),
        ('ask the oracle "Is the keeper lying?" probably', ("Is the keeper lying?", "likely")),
        ('ask the oracle "Is he dead?" almost certainly', ("Is he dead?", "very_likely")),
        ("ask the oracle is he alive? almost certainly not", ("is he alive?", "very_unlikely")),
        ("ask the oracle does the rope hold? coin flip", ("does the rope hold?", "even")),
        # Words that only look like odds stay the question's.
        ("ask the oracle is it probably a trap", ("is it probably a trap", "even")),
    ]:
        run = table.run(player, text, job_id=text)
        assert _asked(run) == [asked], text
        assert [audience for _text, audience in run.texts] == ["trigger"], text
