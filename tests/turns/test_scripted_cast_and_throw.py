""" "I cast ray of frost at the goblin" and "I throw my dagger at the goblin" are attacks with
that spell or weapon, as "attack the goblin with ray of frost" is, where they were not
understood. The cantrips the rules cast (Fire Bolt, Sacred Flame) are cast, not attacks."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "target", "weapon"),
    [
        ("I cast ray of frost at the goblin", "the goblin", "ray of frost"),
        ("cast Ray of Frost on goblin 2!", "goblin 2", "Ray of Frost"),
        ("I throw my dagger at the goblin", "the goblin", "my dagger"),
        ("throw a javelin at Goblin 2", "Goblin 2", "a javelin"),
    ],
)
def test_the_spell_or_weapon_is_the_attacks(text, target, weapon):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_attack, text
    assert (match["target"], match["weapon"]) == (target, weapon)


def test_a_wizard_casts_fire_bolt_at_a_goblin(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Wren", template="wizard")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "Start combat with a goblin", job_id="start")
    status = table.call(gm, "combat_status").structured["combat"]
    if status["current"] != table.characters[principal_for(player)]:
        table.run(gm, "end turn", job_id="goblin-end")

    run = table.run(player, "I cast fire bolt at the goblin", job_id="cast")

    # The cantrip, through the rules' spell_cast: an attack roll all the same.
    casts = [o for o in run.caller.outcomes if o.tool in ("attack", "spell_cast")]
    assert [(o.tool, o.ok, o.structured["attack"]) for o in casts] == [
        ("spell_cast", True, "Fire Bolt")
    ], run.texts
