"""Wording found in a hands-on pass at the table: what a reply offers fits who asks, and says
things the way the table does."""

from __future__ import annotations

import uuid

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db
GM_ONLY = "I did not understand that. Only the GM can %s (say “help” for what you can do)."


def test_a_typo_is_corrected_only_to_a_command_the_requester_may_use(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    # "advance clock" is the GM's: a player is not offered what they would be refused, only
    # told whose it is.
    run = table.run(player, "advnce clock Tide rises", job_id="p-typo")
    assert run.texts == [(GM_ONLY % "create or advance a clock", "requester")]
    assert run.output.suggestions == ()
    gm_run = table.run(gm, "advnce clock Tide rises", job_id="g-typo")
    assert gm_run.texts == [("Did you mean: advance clock Tide rises?", "requester")]
    assert gm_run.output.suggestions == ("advance clock Tide rises",)
    dnd = make_table("dnd5e", gm, player)
    assert dnd.run(player, "strat combat with 2 goblins", job_id="p-start").texts == [
        (GM_ONLY % "start or end combat", "requester")
    ]


def test_each_hand_over_says_who_ended_who_acts_next_and_the_round(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ended = table.run(player, "end turn", job_id="p-end")
    assert ended.texts == [("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")]
    monster = table.run(gm, "end turn", job_id="g-end")
    assert monster.texts == [("Goblin 2 ends the turn. Goblin acts next (round 1).", "trigger")]
    back = table.run(gm, "end turn", job_id="g-end-2")
    assert back.texts == [("Goblin ends the turn. Ilsa acts next (round 2).", "trigger")]


def test_a_roll_with_dice_dropped_is_said_as_the_table_said_it(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    for text, said in [
        (
            "roll 4d6 drop lowest for strength",
            "4d6, drop lowest (strength): 16 (6 + 6 + 4, dropped 1).",
        ),
        ("roll 1d20+5 with advantage", "1d20+5 with advantage: 18 (13 + 5, dropped 4)."),
        ("roll 2d20 with disadvantage", "2d20 with disadvantage: 13 (dropped 16)."),
        ("roll 4d6 keep highest 2", "4d6, keep highest 2: 10 (5 + 5, dropped 1 and 1)."),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts == [(said, "trigger")], text


def test_a_gm_only_fact_is_not_labelled_gm_only_twice(live_domains, gm, player):
    """The room badges a GM-only message "GM only" (static/js/room.js): its text does not say
    it again."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.call(
        gm, "fact_add", text="The abbot knows", audience="gm",
        expected_revision=table.revision(), idempotency_key=uuid.uuid4().hex,
    )  # fmt: skip
    assert table.run(gm, "look around", job_id="gm-look").texts == [
        ("No scene is set.", "trigger"),
        ("Known: The abbot knows.", "gm"),
    ]


def test_a_command_with_nothing_after_it_says_what_is_missing(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    for text, answer in [
        ("open scene", "Give the scene a title, like: open scene The Drowned Chapel"),
        ("record fact", "Say what the fact is, like: record fact The duke is a vampire gm only"),
        ("create clock", "Give the clock a name, like: create clock Doom with 6 segments"),
        ("create a clock.", "Give the clock a name, like: create clock Doom with 6 segments"),
        ("open thread", "Give the thread a title, like: open thread Who lit the beacon?"),
        (
            "ask the oracle",
            "Ask the oracle a yes-or-no question, like: ask the oracle “Is it locked?” likely",
        ),
    ]:
        run = table.run(gm, text, job_id=text)
        assert (run.texts, run.output.suggestions) == ([(answer, "requester")], ()), text
    # A player is told whose command it is; the oracle is theirs to ask.
    assert table.run(player, "open scene", job_id="p-scene").texts == [
        ("Only the GM can open a scene.", "requester")
    ]
    assert table.run(player, "ask the oracle:", job_id="p-oracle").texts == [
        (
            "Ask the oracle a yes-or-no question, like: ask the oracle “Is it locked?” likely",
            "requester",
        )
    ]
    assert table.revision() == before


def test_a_free_action_in_dnd_is_offered_the_check_that_decides_it(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    for text, check in [
        ("I search the room", "check investigation"),
        ("I investigate the altar", "check investigation"),
        ("I look for traps", "check perception"),
        ("I listen at the door", "check perception"),
        ("I try to spot the archer", "check perception"),
        ("I climb the wall", "check athletics"),
        ("I jump across the gap", "check athletics"),
        ("I swim to the boat", "check athletics"),
        ("I sneak past the guard", "check stealth"),
        ("I persuade the guard to let us in", "check persuasion"),
        ("I convince the mayor", "check persuasion"),
        ("I lie to the guard", "check deception"),
        ("I bluff my way in", "check deception"),
        ("I intimidate the prisoner", "check intimidation"),
        ("I threaten the innkeeper", "check intimidation"),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts == [
            (f"The GM here can't judge free actions; try: {check}.", "requester")
        ], text
        assert run.output.suggestions == (check,), text
        assert run.output.declined, text
    # Thieves' tools are not tracked: said so, and the ability their check uses is offered.
    for text in ("I pick the lock", "I try to disarm the trap"):
        run = table.run(player, text, job_id=text)
        assert run.texts == [
            (
                "The GM here can't judge free actions, and thieves' tools are not tracked; "
                "the nearest is: check dexterity.",
                "requester",
            )
        ], text
        assert run.output.suggestions == ("check dexterity",), text
    # Nothing a skill decides: not understood, pointed to "help".
    dance = table.run(player, "I dance a jig", job_id="jig")
    assert dance.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
    # Each suggestion works as written.
    rolled = table.run(player, "check investigation", job_id="check")
    assert rolled.tools[-1] == "ability_check"
    assert table.revision() > before
