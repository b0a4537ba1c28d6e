"""A check or save with no DC named is rolled against DC 10: the narration says so, so nobody
takes it for a DC the GM set."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

DEFAULT_NOTE = "No DC was named, so the default DC 10 was used."


@pytest.fixture
def ilsa_table(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    return table


def test_a_check_or_save_with_no_dc_named_says_it_used_the_default(ilsa_table):
    table = ilsa_table
    for text, answer in [
        ("check perception", "A roll of 7 is not enough for DC 10: Ilsa's perception check fails."),
        ("dex save", "Ilsa's dex save succeeds with 17 (DC 10)."),
        ("roll stealth", "Ilsa's stealth check succeeds with 20 (DC 10)."),
    ]:
        run = table.run(table.player, text, job_id=text)
        assert run.texts == [(f"{answer} {DEFAULT_NOTE}", "trigger")], text
    # A DC that was named, 10 too, is said as before, with no note.
    for text, answer in [
        ("check perception dc 10", "A roll of 17 beats DC 10: Ilsa's perception check succeeds."),
        ("dex save dc 12", "Ilsa's dex save: 5 against DC 12. It fails."),
    ]:
        run = table.run(table.player, text, job_id=text)
        assert run.texts == [(answer, "trigger")], text
