"""Hiding is a Dexterity (Stealth) check by the speaker's character ("I hide", "I try to hide
behind the crate"), as "roll stealth" is, not a line the GM here cannot read. Outside combat,
with no DC given, it is rolled with no DC: who is watching, and their Perception, the rules do
not hold (there is no scene), so the total is said for the GM to compare, not judged against a
default DC 10 nothing set."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

COMPARES = "The GM compares it with the Perception of whoever is watching."


def _ilsa_in_play(gm, player):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="rogue")
    ilsa = created.structured["character"]["id"]
    table.characters[principal_for(player)] = ilsa
    return table, ilsa


@pytest.mark.parametrize(
    "text", ["I hide", "I try to hide behind the crate", "hide behind the barrels!"]
)
def test_hiding_is_the_speakers_stealth_check_with_no_dc_for_the_gm_to_compare(
    live_domains, gm, player, text
):
    table, ilsa = _ilsa_in_play(gm, player)

    run = table.run(player, text, job_id=text)

    checks = [o for o in run.caller.outcomes if o.tool == "ability_check"]
    assert [(o.ok, o.structured["character_id"], o.structured["skill"]) for o in checks] == [
        (True, ilsa, "stealth")
    ], run.texts
    (check,) = checks
    assert (check.structured["ability"], "dc" in check.structured) == ("dex", False)
    assert "success" not in check.structured
    # Its total, and who judges it: no DC, no success or failure said.
    assert run.texts == [
        (f"Ilsa hides: Stealth {check.structured['total']}. {COMPARES}", "trigger")
    ]


def test_a_poisoned_characters_hiding_says_why_it_was_rolled_with_disadvantage(
    live_domains, gm, player
):
    table, _ilsa = _ilsa_in_play(gm, player)
    table.run(gm, "poison Ilsa", job_id="poison")

    run = table.run(player, "I hide", job_id="hide")

    (check,) = [o.structured for o in run.caller.outcomes if o.tool == "ability_check"]
    assert check["mode"] == "disadvantage"
    assert run.texts == [
        (
            f"Ilsa hides: Stealth {check['total']}. {COMPARES} (Disadvantage: Ilsa is poisoned.)",
            "trigger",
        )
    ]


def test_a_stealth_check_with_no_dc_still_uses_the_default_dc(live_domains, gm, player):
    """Only hiding changes: "check stealth" is judged against the default DC, and says so."""
    table, _ilsa = _ilsa_in_play(gm, player)

    run = table.run(player, "check stealth", job_id="check")

    (check,) = [o.structured for o in run.caller.outcomes if o.tool == "ability_check"]
    assert check["dc"] == 10
    ((said, _audience),) = run.texts
    assert said.endswith(" No DC was named, so the default DC 10 was used."), said
