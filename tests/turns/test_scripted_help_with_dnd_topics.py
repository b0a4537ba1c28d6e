"""In dnd5e, help with one part of the game ("help combat", "I need help with spells") was
the whole help list, taller than the timeline on a phone. It is the part's own lines of the
list, from the asker's seat, and a line naming "help" for every command; a part the list has
no lines of its own for ("help conditions") is still the whole list."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent, help_text
from tests.turns.test_scripted_help_action import on_the_turn_of
from tests.turns.test_scripted_help_asked import help_reply

MORE = "Say “help” for every command."


def _full(*, gm: bool) -> list[str]:
    return help_text("dnd5e", gm=gm).splitlines()[1:]


def _section(title: str, rows: list[int], *, gm: bool) -> str:
    full = _full(gm=gm)
    return "\n".join([title, *(full[row] for row in rows), MORE])


def test_a_players_help_with_spells_is_the_spells_alone():
    assert help_reply("help with spells", role="player") == [
        (
            "Spells:\n"
            "- cast cure wounds or healing word [on <target>] [at level N] (a cleric)\n"
            "- cast magic missile at <target> [at level N] (a wizard)\n"
            "- cast fire bolt at <target> (a wizard) or sacred flame on <target> (a cleric)\n"
            "- cast shield of faith [on <target>] (a cleric; +2 AC while concentrating); "
            "end concentration\n"
            "- cast bless on <target>, <target> and me [at level N] (a cleric; +1d4 to attack "
            "rolls and saves while concentrating)\n"
            "- what spells do I have?, how many spell slots do I have left?\n"
            "Say “help” for every command.",
            "requester",
        )
    ]


# (what is asked, the section's title, its rows of the player's list, of the GM's list)
TOPICS = [
    ("help combat", "Combat:", [0, 3, 4, 5, 13], [0, 3, 4, 6, 9, 11, 12]),
    ("I need help with combat", "Combat:", [0, 3, 4, 5, 13], [0, 3, 4, 6, 9, 11, 12]),
    ("help me with attacks", "Combat:", [0, 3, 4, 5, 13], [0, 3, 4, 6, 9, 11, 12]),
    ("help with spells", "Spells:", [7, 8, 9, 10, 11, 14], [7]),
    ("can you help me with magic?", "Spells:", [7, 8, 9, 10, 11, 14], [7]),
    ("help checks", "Checks and rolls:", [1, 2], [1, 2]),
    ("help with saving throws", "Checks and rolls:", [1, 2], [1, 2]),
    ("help dice", "Checks and rolls:", [1, 2], [1, 2]),
    ("help me with moving", "Moving:", [3], [3]),
    ("help rests", "Rests:", [12], [7, 8]),
]


@pytest.mark.parametrize(("text", "title", "player_rows", "gm_rows"), TOPICS)
def test_help_with_a_part_of_the_game_is_that_parts_help(text, title, player_rows, gm_rows):
    assert help_reply(text, role="player") == [
        (_section(title, player_rows, gm=False), "requester")
    ]
    assert help_reply(text, role="gm") == [(_section(title, gm_rows, gm=True), "requester")]


@pytest.mark.parametrize("text", ["help conditions", "help with the rules", "help commands"])
def test_help_with_a_part_without_its_own_help_is_the_help_list(text):
    assert help_reply(text, role="player") == [(help_text("dnd5e", gm=False), "requester")]
    assert help_reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]


@pytest.mark.parametrize("text", ["help", "help me", "what can I say?"])
def test_help_alone_is_still_the_whole_list(text):
    assert help_reply(text, role="player") == [(help_text("dnd5e", gm=False), "requester")]


@pytest.mark.parametrize("text", ["help combat", "help with spells", "help checks"])
def test_a_gms_help_with_a_part_is_posted_to_the_gms_alone(text):
    audience = ScriptedAgent.action_audience(system_id="dnd5e", text=text, audience="public")
    assert audience == "gm"


@pytest.mark.django_db
def test_help_with_combat_in_combat_is_the_combat_help(live_domains, gm, player):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, "help combat", job_id="help-topic")

    assert run.texts == [(_section("Combat:", [0, 3, 4, 5, 13], gm=False), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before
