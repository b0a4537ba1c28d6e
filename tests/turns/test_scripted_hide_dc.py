"""Hiding against a DC the GM gave ("I hide dc 15") is the speaker's Stealth check at that DC,
as "check stealth dc 15" is, not a free action left to the GM."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["I hide dc 15", "I try to hide behind the crate DC 15"])
def test_hiding_against_a_dc_given_is_the_stealth_check_at_that_dc(live_domains, gm, player, text):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="rogue")
    ilsa = created.structured["character"]["id"]
    table.characters[principal_for(player)] = ilsa

    run = table.run(player, text, job_id=text)

    checks = [o for o in run.caller.outcomes if o.tool == "ability_check"]
    assert [(o.ok, o.structured["character_id"], o.structured["skill"]) for o in checks] == [
        (True, ilsa, "stealth")
    ], run.texts
    assert checks[0].structured["dc"] == 15
    ((said, audience),) = run.texts
    # The DC said is the one given; no default is spoken of.
    assert (audience, said.count("Ilsa's stealth check"), said.count("DC"), "DC 15" in said) == (
        "trigger", 1, 1, True,
    ), said  # fmt: skip


def test_in_combat_hiding_against_a_dc_is_refused_the_hide_action_sets_its_own_bar(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    before = table.revision()

    run = table.run(player, "I hide dc 15", job_id="hide")

    assert run.texts == [
        (
            "In combat, hiding is the Hide action, against the foes' passive Perception: say "
            "“hide”, without a DC.",
            "requester",
        )
    ]
    # Only the turn's read of the combat: nothing taken.
    assert (run.tools, table.revision()) == (["combat_status"], before)
