"""In dnd5e, help with one part of the game ("help combat", "I need help with spells") was
the whole help list, taller than the timeline on a phone. It is the part's own lines of the
list, from the asker's seat, and a line naming "help" for every command; a part the list has
no lines of its own for ("help with the rules"), or none for the asker's seat, is still the
whole list."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted
from apps.turns.agents.scripted import ScriptedAgent, help_text, help_with_text
from tests.turns.test_scripted_help_action import on_the_turn_of
from tests.turns.test_scripted_help_asked import help_reply

MORE = "Say “help” for every command."

# The whole list, from each seat, as it reads: its sections are views of it, never edits.
PLAYERS_LIST = (
    "I understand:\n"
    "- attack [<target>] [with <weapon>] [with advantage | with disadvantage] [as a "
    "reaction]; <name> hits (or shoots, stabs) <target>; punch (or kick) <target>, "
    "an unarmed strike\n"
    "- check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] (or: "
    "roll stealth, roll a dex save)\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], e.g. roll 4d6 drop "
    "lowest, roll a d20 and a d6\n"
    "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
    "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in "
    "combat)\n"
    "- death save (at 0 HP); stand up (or <name> gets up); heal <target> or heal me "
    "(a potion)\n"
    "- dodge, dash, disengage or hide [as a bonus action]; help <name> [attack "
    "<target>]; shove <target> [away] (in combat: your character's action)\n"
    "- give me N temp hp (temporary hit points; they do not stack)\n"
    "- cast cure wounds or healing word [on <target>] [at level N] (a cleric)\n"
    "- cast magic missile at <target> [at level N] (a wizard)\n"
    "- cast fire bolt at <target> (a wizard) or sacred flame on <target> (a cleric)\n"
    "- cast shield of faith [on <target>] (a cleric; +2 AC while concentrating); end "
    "concentration\n"
    "- cast bless on <target>, <target> and me [at level N] (a cleric; +1d4 to "
    "attack rolls and saves while concentrating)\n"
    "- short rest, spend N hit dice (or: spend a hit die; out of combat)\n"
    "- describe, or look at <target>; whose turn is it?, who's next?, who's "
    "winning?; what's my hp?, show my character (or look at me)\n"
    "- what spells do I have?, how many spell slots do I have left?, what spells does "
    "<name> have?\n"
    "- is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, how "
    "hurt is <target>?, how many goblins are there?, who's here?, where am I?, how "
    "far can I move?, what can I do?"
)
GMS_LIST = (
    "I understand:\n"
    "- attack [<target>] [with <weapon>] [with advantage | with disadvantage]; "
    "<name> attacks [<target>] (or hits, shoots, stabs <target>); <name> attacks "
    "<target> as a reaction (an opportunity attack)\n"
    "- check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] (or: "
    "roll stealth, roll a dex save); for someone: perception check for <name>, dex "
    "save for <name> [dc N]\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], e.g. roll 4d6 drop "
    "lowest, roll a d20 and a d6\n"
    "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
    "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in "
    "combat)\n"
    "- death save for <name>; heal <target> N (a potion without N)\n"
    "- grant <target> N temp hp (temporary hit points; they do not stack)\n"
    "- damage <target> N [<type>], e.g. damage goblin 9 fire (or: deal 7 fire damage "
    "to <target>, <target> takes 4 piercing damage; in combat as narration)\n"
    "- a monster's spell: roll its dice, then damage <target> N [<type>] (in combat as "
    "narration; a concentrating target rolls its save) or heal <target> N; players cast "
    "their own spells\n"
    "- long rest [for <name>] (as narration: hit points and spell slots back)\n"
    "- short rest for <name>, N hit dice (as narration: Hit Dice heal)\n"
    "- poison <target> (or blind, charm, deafen, frighten, paralyze, petrify, "
    "restrain, stun); knock <target> prone; knock <target> unconscious (or <name> "
    "falls asleep, passes out, faints)\n"
    "- cure <target> of <condition> (or unpoison <target>, remove <condition> from "
    "<target>, <target> is no longer <condition>); stand up (whoever is up gets up), "
    "<name> stands up (or gets up); wake <target>\n"
    "- start combat [with goblin, 2 orcs, a new orc]; end combat; set phase "
    "<lobby|play>\n"
    "- describe, or look at <target>; whose turn is it?, who's next?, who's "
    "winning?; what's <target>'s hp? (a monster's: to you alone)\n"
    "- what spells does <name> have?, how many spell slots does <name> have left?\n"
    "- is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is "
    "<target>?, how many goblins are there?, who's here?, where am I?, how can I "
    "move?, what can I do?"
)


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
            "- what spells do I have?, how many spell slots do I have left?, what spells does "
            "<name> have?\n"
            "Say “help” for every command.",
            "requester",
        )
    ]


# (what is asked, the section's title, its rows of the player's list, of the GM's list)
TOPICS = [
    ("help combat", "Combat:", [0, 3, 4, 5, 13, 15], [0, 3, 4, 6, 10, 12, 13, 15]),
    ("I need help with combat", "Combat:", [0, 3, 4, 5, 13, 15], [0, 3, 4, 6, 10, 12, 13, 15]),
    ("help me with attacks", "Combat:", [0, 3, 4, 5, 13, 15], [0, 3, 4, 6, 10, 12, 13, 15]),
    ("help with spells", "Spells:", [7, 8, 9, 10, 11, 14], [7, 8, 14]),
    ("can you help me with magic?", "Spells:", [7, 8, 9, 10, 11, 14], [7, 8, 14]),
    ("help checks", "Checks and rolls:", [1, 2], [1, 2]),
    ("help with saving throws", "Checks and rolls:", [1, 2], [1, 2]),
    ("help dice", "Checks and rolls:", [1, 2], [1, 2]),
    ("help me with moving", "Moving:", [3], [3]),
    ("help rests", "Rests:", [12], [8, 9]),
    ("help conditions", "Conditions:", [4], [4, 10, 11]),
    ("can you help me with the conditions?", "Conditions:", [4], [4, 10, 11]),
]


@pytest.mark.parametrize(("text", "title", "player_rows", "gm_rows"), TOPICS)
def test_help_with_a_part_of_the_game_is_that_parts_help(text, title, player_rows, gm_rows):
    assert help_reply(text, role="player") == [
        (_section(title, player_rows, gm=False), "requester")
    ]
    assert help_reply(text, role="gm") == [(_section(title, gm_rows, gm=True), "requester")]


@pytest.mark.parametrize("text", ["help with the rules", "help commands"])
def test_help_with_a_part_without_its_own_help_is_the_help_list(text):
    assert help_reply(text, role="player") == [(help_text("dnd5e", gm=False), "requester")]
    assert help_reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]


def test_the_help_list_reads_as_it_did_from_both_seats():
    assert help_text("dnd5e", gm=False) == PLAYERS_LIST
    assert help_text("dnd5e", gm=True) == GMS_LIST


def test_a_players_help_with_moving_is_the_moves():
    assert help_reply("help moving", role="player") == [
        (
            "Moving:\n"
            "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
            "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in "
            "combat)\n"
            "Say “help” for every command.",
            "requester",
        )
    ]


def test_a_part_with_no_rows_for_the_askers_seat_is_that_seats_whole_list(monkeypatch):
    # The conditions' rows kept for the GM alone: the player has no Conditions section.
    rows = [
        (topics, None if "conditions" in topics else player_line, gm_line)
        for topics, player_line, gm_line in scripted._dnd_help_rows()
    ]
    monkeypatch.setattr(scripted, "_dnd_help_rows", lambda: rows)
    players_list = help_text("dnd5e", gm=False)

    assert help_with_text("dnd5e", "help conditions", gm=False) == players_list
    assert players_list.splitlines()[0] == "I understand:"
    assert help_with_text("dnd5e", "help conditions", gm=True).splitlines()[0] == "Conditions:"


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

    assert run.texts == [(_section("Combat:", [0, 3, 4, 5, 13, 15], gm=False), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before
