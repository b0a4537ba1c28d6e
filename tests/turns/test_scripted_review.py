"""The scripted GM's names and numbers: a monster's hit points stay the GM's when the GM heals
it, a named creature is that creature, names with symbols resolve, free text is kept."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_a_gm_heal_of_a_monster_never_shows_its_hp_to_the_room(live_domains, gm, player):
    table, _ = dnd_table_in_combat(gm, player)
    table.run(player, "attack goblin 2", job_id="hit")
    for n, text in enumerate(["heal goblin 2 for 3", "heal Goblin 2 for 1"]):
        run = table.run(gm, text, job_id=f"heal-{n}")
        public = [t for t, audience in run.texts if audience == "trigger"]
        gm_only = [t for t, audience in run.texts if audience == "gm"]
        assert public == ["Goblin 2 is healed."]
        assert len(gm_only) == 1 and "HP (now" in gm_only[0]


def test_heal_goblin_2_is_goblin_2_not_two_hit_points(live_domains, gm, player):
    table, _ = dnd_table_in_combat(gm, player)
    table.run(player, "attack goblin 2", job_id="hit")
    run = table.run(gm, "heal goblin 2", job_id="heal")
    (heal,) = [o for o in run.caller.outcomes if o.tool == "heal"]
    assert (heal.ok, heal.structured["target_id"], heal.structured["source"]) == (
        True, "mon-3", "potion_of_healing"
    )  # fmt: skip


def test_a_gm_naming_a_monster_exactly_acts_as_that_one(live_domains, gm, player):
    table, _ = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2 is up
    run = table.run(gm, "mon-2 attacks Ilsa", job_id="attack")
    # Goblin (mon-2) is named by its id: it is not its turn, so nobody attacks ("goblin
    # attacks Ilsa", the kind, is the goblin that is up).
    assert [o.tool for o in run.caller.outcomes if o.tool == "attack" and o.ok] == []
    assert run.texts == [("That cannot happen: it is Goblin 2's turn, not Goblin's.", "requester")]


def test_a_character_whose_name_has_an_emoji_can_be_looked_at(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    made = table.call(player, "character_create", name="🐉 Drake", template="fighter")
    table.characters[principal_for(player)] = made.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="phase")
    run = table.run(gm, "look at 🐉 Drake", job_id="look")
    assert "Did you mean" not in run.texts[0][0]
    assert "Drake" in run.texts[0][0]


def test_a_recorded_fact_keeps_its_question_mark(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="phase")
    run = table.run(gm, "record fact Who poisoned the king?", job_id="fact")
    assert run.texts[0][0].endswith("Who poisoned the king?")


def test_a_gm_does_not_spend_a_players_turn_without_naming_their_character(
    live_domains, gm, player
):
    table, start = dnd_table_in_combat(gm, player)  # Ilsa (the player's) is up
    run = table.run(gm, "attack goblin", job_id="gm-attack")
    assert run.texts == [(
        "It is Ilsa's turn: their player acts. To act for them, name them "
        "(“Ilsa attacks the goblin”).",
        "requester",
    )]  # fmt: skip
    assert [o.tool for o in run.caller.outcomes if o.tool == "attack"] == []
    named = table.run(gm, "Ilsa attacks goblin", job_id="gm-named")
    assert [o.ok for o in named.caller.outcomes if o.tool == "attack"] == [True]


def test_help_with_an_exclamation_mark_is_asked_for_not_misunderstood(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    (text, audience) = table.run(player, "help!", job_id="help").texts[0]
    assert (text.startswith("I did not understand"), audience) == (False, "requester")


def test_a_clock_name_keeps_its_own_punctuation(live_domains, gm, player):
    """A clock called Doom! keeps its "!": only the quotes around a name and the sentence's
    own stop go."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="phase")
    sent = []
    for n, text in enumerate([
        "create clock Doom! with 4 segments",
        "Create a clock Ruin! with 4 segments!",
        'create clock "Who knows?!" with 4 segments.',
        "create clock Last breath... with 4 segments",
        "create a clock called The Long Night with 6 segments",
        "create clock named Havoc! with 3 segments",
    ]):  # fmt: skip
        turn = table.context(gm, text, job_id=f"clock-{n}")
        caller = table.caller(gm, turn)

        def recording(tool, arguments, caller=caller):
            if tool != "story_get":  # read first, for a namesake
                sent.append((tool, dict(arguments)))
            return caller(tool, arguments)

        ScriptedAgent().run_turn(turn, recording)
    assert sent == [
        ("clock_create", {"name": "Doom!", "segments": 4}),
        ("clock_create", {"name": "Ruin!", "segments": 4}),
        ("clock_create", {"name": "Who knows?!", "segments": 4}),
        ("clock_create", {"name": "Last breath...", "segments": 4}),
        ("clock_create", {"name": "The Long Night", "segments": 6}),
        ("clock_create", {"name": "Havoc!", "segments": 3}),
    ]
    story = table.call(gm, "story_get").structured
    names = ["Doom!", "Ruin!", "Who knows?!", "Last breath...", "The Long Night", "Havoc!"]
    assert [c["name"] for c in story["clocks"]] == names
    assert table.run(gm, "advance clock doom!", job_id="advance").texts == [
        ("Doom!: 1 of 4 segments filled.", "trigger")
    ]
    # Named as it was created.
    assert table.run(gm, "advance the clock called Long Night by 2", job_id="called").texts == [
        ("The Long Night: 2 of 6 segments filled.", "trigger")
    ]


def _spawned(run):
    return [
        (o.structured["character"]["id"], o.structured["character"]["name"])
        for o in run.caller.outcomes
        if o.tool == "monster_spawn"
    ]


def test_a_new_fight_numbers_its_monsters_from_those_still_standing(live_domains, gm, player):
    """Once the goblins of a fight are dead, the next fight's goblin is "Goblin" again, not
    "Goblin 3": only a living creature keeps a name from being given."""
    table, _start = dnd_table_in_combat(gm, player)  # Goblin (mon-2), Goblin 2 (mon-3)

    def kill(*ids):
        for monster in ids:
            table.call(gm, "damage_apply", target_id=monster, amount=50,
                       expected_revision=table.revision(), idempotency_key=monster)  # fmt: skip

    kill("mon-2", "mon-3")
    table.run(gm, "end combat", job_id="end-1")
    fresh = table.run(gm, "start combat with goblin", job_id="fight-2")
    assert _spawned(fresh) == [("mon-4", "Goblin")]
    assert fresh.texts[0] == ("Weapons are drawn. Initiative: Goblin (16), Ilsa (5).", "trigger")
    table.run(gm, "end combat", job_id="end-2")
    # "the goblin" is the one standing, not its dead namesake (which needs no telling apart).
    run = table.run(player, "look at the goblin", job_id="look")
    assert run.texts[0][0] in ("Ilsa studies the Goblin: unhurt.",
                               "Ilsa looks the Goblin over: unhurt.")  # fmt: skip
    # A goblin still standing keeps its name: the new ones take the lowest free ones.
    two = table.run(gm, "start combat with 2 new goblins", job_id="fight-3")
    assert _spawned(two) == [("mon-5", "Goblin 2"), ("mon-6", "Goblin 3")]
    kill("mon-4", "mon-6")
    table.run(gm, "end combat", job_id="end-3")
    again = table.run(gm, "start combat with 2 new goblins", job_id="fight-4")
    assert _spawned(again) == [("mon-7", "Goblin"), ("mon-8", "Goblin 3")]


def _kill(table, gm, *ids):
    for monster in ids:
        table.call(gm, "damage_apply", target_id=monster, amount=50,
                   expected_revision=table.revision(), idempotency_key=monster)  # fmt: skip


def test_a_dead_namesake_from_an_earlier_fight_never_puts_an_id_before_players(
    live_domains, gm, player
):
    """The dead Goblin of the first fight is no reason to call the new one "Goblin (mon-4)":
    the domain's way to tell them apart never reaches the table."""
    table, _start = dnd_table_in_combat(gm, player)  # Goblin (mon-2), Goblin 2 (mon-3)
    _kill(table, gm, "mon-2", "mon-3")
    table.run(gm, "end combat", job_id="end-1")
    fresh = table.run(gm, "start combat with goblin", job_id="fight-2")  # Goblin (mon-4) is up
    check = table.run(gm, "check perception dc 12", job_id="check")
    assert len(check.texts) == 1 and "(mon-" not in check.texts[0][0]
    assert "Goblin's perception check" in check.texts[0][0]
    out_of_turn = table.run(player, "attack goblin", job_id="out-of-turn")
    assert out_of_turn.texts == [
        ("That cannot happen: it is Goblin's turn, not Ilsa's.", "requester")
    ]
    assert fresh.texts[0][0].startswith("Weapons are drawn.")
    table.run(gm, "end combat", job_id="end-2")
    # Out of combat the dead of earlier fights are not present, and force no id on the living.
    missing = table.run(player, "look at the dragon", job_id="missing")
    assert missing.texts == [
        ("I cannot find “the dragon” here. Present: Goblin, Ilsa.", "requester")
    ]
    look = table.run(player, "look at the goblin", job_id="look")
    assert look.texts[0][0] in ("Ilsa studies the Goblin: unhurt.",
                                "Ilsa looks the Goblin over: unhurt.")  # fmt: skip


def test_two_living_namesakes_are_told_apart_by_number_never_by_id(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Goblin (mon-2), Goblin 2 (mon-3)
    _kill(table, gm, "mon-3")
    table.run(gm, "end combat", job_id="end-1")
    # A second living "Goblin" (named so by hand): the later one reads as the next free number.
    table.call(gm, "monster_spawn", monster_key="goblin", name="Goblin",
               expected_revision=table.revision(), idempotency_key="twin")  # fmt: skip
    missing = table.run(player, "look at the dragon", job_id="missing")
    assert missing.texts == [
        ("I cannot find “the dragon” here. Present: Goblin, Goblin 2, Ilsa.", "requester")
    ]
    # "goblin 2" is the living one so called, not the dead Goblin 2 of the fight.
    look = table.run(player, "look at goblin 2", job_id="look")
    assert look.texts[0][0] in ("Ilsa studies Goblin 2: unhurt.",
                                "Ilsa looks Goblin 2 over: unhurt.")  # fmt: skip


def test_a_long_unknown_name_is_cut_in_the_refusal(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    name = "goblin attack goblin " * 200  # 4200 characters
    run = table.run(player, "attack " + name.strip(), job_id="long")
    (text, audience) = run.texts[0]
    assert audience == "requester"
    assert text.startswith("I cannot find “" + name[:59] + "…” here.")
    assert len(text) < 200
    clock = make_table("narrative", gm, player)
    clock.run(gm, "set phase play", job_id="phase")
    advanced = clock.run(gm, "advance clock " + "x" * 4000, job_id="advance")
    assert advanced.texts == [("There is no clock “" + "x" * 59 + "…”. Clocks: none.", "requester")]
