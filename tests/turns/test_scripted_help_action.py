"""In combat "I help Bram" takes the rules' Help action for the speaker's character: Bram's next
attack on the foe beside the helper has advantage ("I help Bram against the goblin" names it),
where it was left to the GM."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import help_text
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def on_the_turn_of(gm, player, speaker: str):
    """Ilsa (pc-1) and Bram (pc-2), both the player's, against a goblin, on the turn of
    `speaker` ("Ilsa" or "Bram"), who speaks for the player."""
    table = make_table("dnd5e", gm, player)
    created = {
        name: table.call(player, "character_create", name=name, template=template)
        for name, template in (("Ilsa", "fighter"), ("Bram", "rogue"))
    }
    speaking = created[speaker].structured["character"]["id"]
    table.characters[principal_for(player)] = speaking
    table.run(gm, "Start combat with a goblin", job_id="start")
    for n in range(3):
        if table.call(gm, "combat_status").structured["combat"]["current"] == speaking:
            break
        table.call(gm, "combat_end_turn", idempotency_key=f"end-{n}",
                   expected_revision=table.revision())  # fmt: skip
    return table


@pytest.mark.parametrize("text", ["I help Bram", "I help Bram attack the goblin"])
def test_helping_an_ally_gives_its_next_attack_advantage(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")

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
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, "I help Ilsa", job_id="self")

    assert run.texts == [("You cannot help yourself: name an ally.", "requester")]
    assert table.revision() == before


def test_help_with_its_closing_mark_set_apart_is_the_help_list_in_combat(live_domains, gm, player):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, "help ?", job_id="help-list")

    assert run.texts == [(help_text("dnd5e", gm=False), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before
