"""Hiding is a Dexterity (Stealth) check by the speaker's character ("I hide", "I try to hide
behind the crate"), as "roll stealth" is, not a line the GM here cannot read."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text", ["I hide", "I try to hide behind the crate", "hide behind the barrels!"]
)
def test_hiding_is_the_speakers_stealth_check(live_domains, gm, player, text):
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
    assert checks[0].structured["ability"] == "dex"
    assert len(run.texts) == 1 and run.texts[0][0].count("Ilsa's stealth check") == 1, run.texts
