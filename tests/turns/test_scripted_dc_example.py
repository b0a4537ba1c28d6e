"""A DC that is no number is refused with an example of the command to send: the check or
save alone, not how its d20 was asked to be rolled."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "example"),
    [
        ("check athletics with advantage dc abc", "check athletics dc 12"),
        ("save dex at disadvantage dc x", "save dex dc 12"),
    ],
)
def test_a_bad_dc_is_answered_with_a_clean_example(live_domains, gm, player, text, example):
    """ "check athletics with advantage dc abc" was answered with the example `check athletics
    with advantage dc 12`, the mode echoed as part of what is checked."""
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end combat", job_id="end")
    before = table.revision()
    run = table.run(player, text, job_id="bad dc")
    assert run.texts == [(f"The DC must be a number, like `{example}`.", "requester")]
    assert run.tools == []
    assert table.revision() == before
