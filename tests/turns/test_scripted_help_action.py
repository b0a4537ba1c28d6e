"""In combat "I help Bram" takes the rules' Help action for the speaker's character: Bram's next
attack on the foe beside the helper has advantage ("I help Bram against the goblin" names it),
where it was left to the GM."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _ilsas_turn(gm, player):
    """Ilsa and Bram (both the player's) against a goblin, on Ilsa's turn."""
    table = make_table("dnd5e", gm, player)
    ilsa = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.call(player, "character_create", name="Bram", template="rogue")
    table.characters[principal_for(player)] = ilsa.structured["character"]["id"]
    table.run(gm, "Start combat with a goblin", job_id="start")
    for n in range(3):
        if table.call(gm, "combat_status").structured["combat"]["current"] == "pc-1":
            break
        table.call(gm, "combat_end_turn", idempotency_key=f"end-{n}",
                   expected_revision=table.revision())  # fmt: skip
    return table


@pytest.mark.parametrize("text", ["I help Bram", "I help Bram attack the goblin"])
def test_helping_an_ally_gives_its_next_attack_advantage(live_domains, gm, player, text):
    table = _ilsas_turn(gm, player)

    run = table.run(player, text, job_id="help")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["ally_name"], t["target_name"]) for t in taken] == [
        ("help", "Bram", "Goblin")
    ], run.texts
    assert run.texts[0] == (
        "Ilsa helps Bram: Bram's next attack on the goblin has advantage, until Ilsa's next turn.",
        "trigger",
    )


def test_helping_oneself_is_refused(live_domains, gm, player):
    table = _ilsas_turn(gm, player)
    before = table.revision()

    run = table.run(player, "I help Ilsa", job_id="self")

    assert run.texts == [("You cannot help yourself: name an ally.", "requester")]
    assert table.revision() == before
