"""On a player's turn in combat the GM is offered what a GM does then: a look at the field,
ending that character's turn (named, so it never ends a later one), calling a dying
character's death save, and ending a fight nobody is left to fight. Every option is a command
the GM can send as it is."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_turn_handover_suggestions import _end_turn

pytestmark = pytest.mark.django_db


def _understood(table, text: str, job_id: str):
    """Sends `text` as the GM's action; it must not get the help reply."""
    run = table.run(table.gm, text, job_id=job_id)
    assert not run.output.help_only, text
    assert not any("I did not understand" in said for said, _audience in run.texts), text
    return run


def test_the_gm_is_offered_a_look_and_ending_the_players_turn_and_both_work(
    live_domains, gm, player
):
    table, start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    ilsa = table.characters[principal_for(player)]
    assert start.output.suggestions == ("describe", "end Ilsa's turn")
    # Ilsa's own options are unchanged.
    assert start.output.suggestions_for == {ilsa: ("attack goblin 2", "end turn")}
    look = _understood(table, "describe", "look")
    assert look.tools == ["combat_status"]
    ended = _understood(table, "end Ilsa's turn", "end-ilsa")
    assert ended.texts == [("The GM ends Ilsa's turn. Goblin 2 acts next (round 1).", "trigger")]
    assert ended.output.suggestions == ("goblin 2 attacks Ilsa", "end turn")
    # Sent again (a second click, a stale page), it ends nobody else's turn.
    before = table.revision()
    again = table.run(gm, "end Ilsa's turn", job_id="end-ilsa-again")
    assert again.texts == [("It is Goblin 2's turn, not Ilsa's.", "requester")]
    assert (again.output.declined, table.revision()) == (True, before)
    # Round again to Ilsa: the GM's options come back with her turn.
    table.run(gm, "end turn", job_id="end-goblin-2")
    handed = table.run(gm, "end turn", job_id="end-goblin")
    assert handed.output.suggestions == ("describe", "end Ilsa's turn")


def test_a_player_may_end_their_own_turn_by_name_but_no_one_elses(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    refused = table.run(player, "end goblin's turn", job_id="not-mine")
    assert refused.texts == [("It is Ilsa's turn, not Goblin's.", "requester")]
    ended = table.run(player, "end Ilsa's turn", job_id="mine")
    assert ended.texts == [("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")]


def test_a_dying_player_with_no_foe_left_offers_the_gm_the_death_save_and_the_end_of_combat(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    for goblin in ("mon-2", "mon-3"):
        _gm_write(table, "damage_apply", target_id=goblin, amount=50)
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    # Nobody else stands: the turn comes straight back to Ilsa, dying. It starts with her
    # death save, so the rules will not end it before the save: it is not offered.
    back = table.run(gm, "end Ilsa's turn", job_id="round")
    assert back.output.suggestions == ("death save for Ilsa", "end combat", "describe")
    held = table.run(gm, "end Ilsa's turn", job_id="held")
    assert held.texts[0][0].endswith("Ilsa is dying: make the death save first.")
    tools = {
        "describe": "combat_status",
        "death save for Ilsa": "death_save",
        "end Ilsa's turn": "combat_end_turn",
        "end combat": "combat_end",
    }
    for text, tool in tools.items():
        assert tool in _understood(table, text, f"gm-{text}").tools, text
    assert table.campaign()["phase"] == "play"


def test_a_player_handing_the_turn_to_another_player_sends_the_gm_their_options():
    order = [
        _combatant("pc-1", "Ash", "pc"),
        _combatant("pc-2", "Bram", "pc"),
        _combatant("mon-3", "Wolf", "monster"),
    ]
    output = _end_turn("player", "pc-1", order, ended="pc-1", current="pc-2")
    assert output.suggestions == ()
    assert output.suggestions_for == {"pc-2": ("attack the wolf", "end turn")}
    assert output.gm_suggestions == ("describe", "end Bram's turn")


def test_a_stable_character_offers_the_gm_no_death_save():
    order = [
        _combatant("mon-3", "Wolf", "monster"),
        _combatant("pc-2", "Bram", "pc", status="down", conditions=["stable", "unconscious"]),
    ]
    output = _end_turn("gm", None, order, ended="mon-3", current="pc-2")
    assert output.suggestions == ("describe", "end Bram's turn")
