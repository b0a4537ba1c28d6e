""" "again" and "twice" are read, not taken as part of a name: "attack the goblin again" is an
attack on the goblin, "attack the goblin twice" (or "roll 1d20 3 times") is answered one at a
time with the command once offered (nothing is sent), and "advance clock Doom twice" advances
it by 2."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent
from tests.turns.test_scripted_narrative import _writes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seat", "text", "sent"),
    [
        ("player", "attack the goblin again", {"attacker_id": "pc-1", "target_id": "mon-2"}),
        ("player", "I attack goblin 2 again!", {"attacker_id": "pc-1", "target_id": "mon-3"}),
        (
            "gm",
            "goblin 2 attacks Ilsa once more",
            {"attacker_id": "mon-3", "target_id": "pc-1"},
        ),
    ],
)
def test_again_is_the_same_attack(live_domains, gm, player, seat, text, sent):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, {"gm": gm, "player": player}[seat], text)
    assert calls == [("attack", sent)]


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("check stealth again", ("ability_check", {"character_id": "pc-1", "skill": "stealth"})),
        ("roll a d20 again", ("dice_roll", {"expression": "1d20"})),
        (
            "attack the goblin with advantage again",
            ("attack", {"attacker_id": "pc-1", "target_id": "mon-2", "advantage": True}),
        ),
    ],
)
def test_again_is_the_same_command(live_domains, gm, player, text, sent):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    tool, arguments = sent
    assert [(t, {k: a[k] for k in arguments}) for t, a in calls] == [sent]


def test_again_with_no_target_is_read_as_attack(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    plain = table.run(player, "attack", job_id="plain")
    again = table.run(player, "attack again", job_id="plain")
    # Both goblins stand as near: which one is asked, not a creature called "again".
    assert (
        again.texts
        == plain.texts
        == [("Which one does Ilsa attack: Goblin 2 or Goblin?", "requester")]
    )


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("attack the goblin twice", "attack the goblin"),
        ("attack goblin 2 with my longsword 2 times", "attack goblin 2 with my longsword"),
        ("I attack twice", "I attack"),
        ("roll 1d20 twice", "roll 1d20"),
        ("check stealth 3 times", "check stealth"),
    ],
)
def test_twice_is_answered_one_at_a_time(live_domains, gm, player, text, command):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="twice")
    assert run.texts == [(f"One at a time: say “{command}”, then say it again.", "requester")]
    assert run.output.suggestions == (command,)
    assert "attack" not in run.tools
    assert table.revision() == before


@pytest.fixture
def story(story, gm):
    table = story  # the narrative table in play (tests/turns/conftest.py), and:
    table.run(gm, "create clock Doom with 6 segments", job_id="doom")
    return table


@pytest.mark.parametrize(
    ("text", "ticks"),
    [
        ("advance clock Doom twice", 2),
        ("advance the Doom clock twice.", 2),
        ("tick Doom thrice", 3),
        ("advance clock Doom again", 1),
        ("advance Doom once more", 1),
    ],
)
def test_a_clock_advanced_twice_or_again_moves_that_far(story, text, ticks):
    clock = story.call(story.gm, "story_get").structured["clocks"][0]
    assert _writes(story, story.gm, text) == [
        ("clock_advance", {"clock_id": clock["id"], "ticks": ticks})
    ]


@pytest.mark.parametrize(
    ("text", "command"),
    [("roll 1d20 twice", "roll 1d20"), ("roll 2d6 for damage 3 times", "roll 2d6 for damage")],
)
def test_a_narrative_roll_said_twice_is_answered_one_at_a_time(story, text, command):
    run = story.run(story.player, text, job_id="twice")
    assert run.texts == [(f"One at a time: say “{command}”, then say it again.", "requester")]
    assert run.output.suggestions == (command,)
    assert run.tools == []


def test_a_fact_said_twice_keeps_its_words(story):
    assert _writes(story, story.gm, "record fact The bell rang twice") == [
        ("fact_add", {"text": "The bell rang twice", "audience": "public"})
    ]
