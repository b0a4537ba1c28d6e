"""A misspelt combat action is answered with the closest command, as any other command is:
the actions "help" lists (dodge, dash, disengage, hide, help, shove) are among those offered
to a player, and one mistyped or swapped letter in the first word is still close."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_misspelt_dodge_is_offered_dodge_and_a_misspelt_shove_the_shove_command(
    live_domains, gm, player
):
    table = make_table("dnd5e", gm, player)
    run = table.run(player, "dogde", job_id="dogde")
    assert run.texts == [
        (
            "I did not understand that. Closest: dodge. Say “help” for everything I understand.",
            "requester",
        )
    ]
    # Complete as it is: it can be pressed.
    assert run.output.suggestions == ("dodge",)
    run = table.run(player, "shuve goblin", job_id="shuve")
    assert run.texts == [
        (
            "I did not understand that. Closest: shove <target>. "
            "Say “help” for everything I understand.",
            "requester",
        )
    ]
    # A target to fill in: not pressable.
    assert run.output.suggestions == ()
