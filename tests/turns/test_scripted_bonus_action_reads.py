"""A bonus action costs no read of the combat beyond the one its turn makes anyway: whether
the action is left is read after it, in the read that offers the turn's next steps."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_combat_actions import _rin_in_combat

pytestmark = pytest.mark.django_db


def test_a_players_bonus_action_reads_the_combat_once(live_domains, gm, player):
    table, _rin = _rin_in_combat(gm, player)

    run = table.run(player, "I dash as my bonus action", job_id="cunning")

    assert run.tools == ["combat_action", "combat_status"]
    assert run.texts[0] == (
        "Rin dashes: 30 ft more movement this turn (60 ft left). That was a bonus action: "
        "Rin's action is left.",
        "trigger",
    )


def test_a_bonus_action_after_the_action_still_says_it_is_spent(live_domains, gm, player):
    table, _rin = _rin_in_combat(gm, player)
    table.run(player, "I dash", job_id="dash")

    run = table.run(player, "I disengage as a bonus action", job_id="cunning")

    assert run.tools == ["combat_action", "combat_status"]
    assert run.texts[0] == (
        "Rin disengages: moving this turn provokes no opportunity attacks (60 ft of movement "
        "left). That was a bonus action; Rin's action is already spent.",
        "trigger",
    )
