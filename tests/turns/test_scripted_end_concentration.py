"""A player ends their cleric's concentration at will ("end concentration", "drop shield of
faith", "stop concentrating"): spell_cast with end_concentration, the spell and its target
read from the character; a character concentrating on nothing is told so and nothing changes."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_shield_of_faith import _ash_and_bram, _read

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "said",
    ["end concentration", "drop shield of faith", "stop concentrating", "I drop my concentration",
     "stop concentrating on shield of faith"],
)  # fmt: skip
def test_ending_concentration_ends_the_spell_and_its_ward(live_domains, gm, player, said):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(player, said, job_id="end")
    assert run.tools == ["character_get", "spell_cast"]
    assert run.texts == [("Ash stops concentrating: Shield of Faith on Bram ends.", "trigger")]
    assert "concentration" not in _read(table, "pc-1")
    assert (_read(table, "pc-2")["ac"], "effects" in _read(table, "pc-2")) == (16, False)
    # Free: no slot back, none spent.
    assert _read(table, "pc-1")["spell_slots"]["1"] == {"current": 3, "max": 4}


def test_ending_a_ward_on_oneself_names_no_target(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith", job_id="ward")
    run = table.run(player, "end concentration", job_id="end")
    assert run.texts == [("Ash stops concentrating: Shield of Faith ends.", "trigger")]


def test_concentrating_on_nothing_is_refused_and_nothing_changes(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    before = table.revision()
    run = table.run(player, "stop concentrating", job_id="none")
    assert run.texts == [("Ash is concentrating on no spell.", "requester")]
    assert run.tools == ["character_get"] and table.revision() == before
    said = table.run(player, "drop shield of faith", job_id="named")
    assert said.texts == [
        ("Ash is not concentrating on Shield of Faith: on no spell at all.", "requester")
    ]


def test_in_combat_ending_it_spends_nothing_of_the_turn(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(gm, "start combat with a goblin", job_id="start")
    current = table.call(gm, "combat_status").structured["combat"]["current"]
    while current != "pc-1":
        _gm_write(table, "combat_end_turn")
        current = table.call(gm, "combat_status").structured["combat"]["current"]
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(player, "end concentration", job_id="end")
    assert run.texts[0] == ("Ash stops concentrating: Shield of Faith on Bram ends.", "trigger")
    budget = {
        e["id"]: e["budget"] for e in table.call(gm, "combat_status").structured["combat"]["order"]
    }["pc-1"]
    assert (budget["action"], budget["bonus_action"]) == (1, 0)
    assert _read(table, "pc-2")["ac"] == 16


def test_the_gm_is_told_the_casters_player_ends_it(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    before = table.revision()
    run = table.run(gm, "end concentration", job_id="gm")
    assert run.texts == [
        ("A caster's player ends its concentration (“end concentration”); the rules end it "
         "when the caster fails a concentration save or drops to 0 HP.", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before
