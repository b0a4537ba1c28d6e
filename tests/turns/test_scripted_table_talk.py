"""The scripted agent reads what a real table types: clocks named and sized loosely, known
clocks advanced by name alone, reads asked as questions, and free actions it cannot judge
answered with a way forward instead of the help list."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_scripted_narrative import _writes
from tests.turns.test_scripted_phrasing import _Stub
from tests.turns.test_turn_handover_suggestions import _end_turn

pytestmark = pytest.mark.django_db
# Text naming no clock, answered with the closest command, not the whole list.
ADVANCE_CLOSEST = (
    "I did not understand that. Closest: advance clock <name> [by N]. "
    "Say “help” for everything I understand."
)


def _narrative_table(gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    return table


def test_a_clock_name_keeps_its_leading_article_as_typed(live_domains, gm, player):
    """ "create clock "The Cult Rises" with 4 segments" used to make a clock "Cult Rises"."""
    table = _narrative_table(gm, player)
    for text, name in [
        ('create clock "The Cult Rises" with 4 segments', "The Cult Rises"),
        ("create clock The Long Night with 4 segments", "The Long Night"),
        # Before "clock" the article is the sentence's, not the name's.
        ("create the clock Doom with 4 segments", "Doom"),
    ]:
        assert _writes(table, gm, text) == [("clock_create", {"name": name, "segments": 4})], text


def test_a_clock_size_needs_no_with(live_domains, gm, player):
    """ "create a clock Doom 6" and "create clock Doom 6 segments" got the help list."""
    table = _narrative_table(gm, player)
    for text, name, segments in [
        ("create a clock Doom 6", "Doom", 6),
        ('create clock "The Cult Rises" 4 segments', "The Cult Rises", 4),
        ("create clock Dawn 6 segments", "Dawn", 6),
        ("create clock Stand by Me 8", "Stand by Me", 8),
        ("create clock Night with 4 segments", "Night", 4),
    ]:
        assert _writes(table, gm, text) == [
            ("clock_create", {"name": name, "segments": segments})
        ], text
    assert _writes(table, gm, "create clock Ruin four segments") == [
        ("clock_create", {"name": "Ruin", "segments": 4})
    ]
    # A name that ends in a number word is no size without "segments".
    assert table.run(gm, "create clock Take Five", job_id="five").output.declined is True


def test_a_known_clock_is_advanced_by_its_name_alone(live_domains, gm, player):
    """ "advance Doom by 2", "tick doom", "advance the cult rises" got the help list."""
    table = _narrative_table(gm, player)
    table.run(gm, "create clock Doom with 6 segments", job_id="c1")
    table.run(gm, 'create clock "The Cult Rises" with 6 segments', job_id="c2")
    for text, clock, ticks in [
        ("advance Doom by 2", "clock-1", 2),
        ("tick doom", "clock-1", 1),
        ("advance the cult rises", "clock-2", 1),
        ("Advance The Cult Rises by two.", "clock-2", 2),
    ]:
        assert _writes(table, gm, text) == [
            ("clock_advance", {"clock_id": clock, "ticks": ticks})
        ], text
    # A name that is no clock is not taken for one: the closest command, nothing written.
    before = table.revision()
    unknown = table.run(gm, "advance the plot", job_id="plot")
    assert unknown.output.declined is True
    assert unknown.texts == [(ADVANCE_CLOSEST, "requester")]
    # A player's words are no clock's either; a player naming one is told whose it is.
    assert (
        table.run(player, "advance to the door", job_id="door")
        .texts[0][0]
        .startswith("I did not understand that.")
    )
    assert table.run(player, "tick doom", job_id="p-doom").texts == [
        ("Only the GM can advance a clock.", "requester")
    ]
    assert table.revision() == before


def test_a_scene_opened_at_a_place_is_titled_by_the_place(live_domains, gm, player):
    """ "open a scene at the old mill" used to open the scene "at the old mill"."""
    table = _narrative_table(gm, player)
    for text, title in [
        ("open a scene at the old mill", "The old mill"),
        ("start a scene at Blackwater Keep.", "Blackwater Keep"),
        # A quoted title is the title, its words as typed.
        ('open scene "at the gates"', "at the gates"),
        ("open scene The Drowned Chapel", "The Drowned Chapel"),
        ("open scene At World's End", "At World's End"),
    ]:
        assert _writes(table, gm, text) == [("scene_start", {"title": title})], text


def test_asking_what_is_there_is_answered_like_look(live_domains, gm, player):
    """ "what clocks are there?", "show the clocks", "list facts", "what's happening?" got the
    help list; each is a read of the scene, clocks and facts."""
    table = _narrative_table(gm, player)
    table.run(gm, "open scene The Docks", job_id="s")
    table.run(gm, "create clock Doom with 4 segments", job_id="c")
    table.run(gm, "record fact The bridge is out", job_id="f")
    before = table.revision()
    look = table.run(player, "look", job_id="look").texts
    assert look == [("Scene: The Docks. Clocks: Doom 0/4. Known: The bridge is out.", "trigger")]
    for text in [
        "what clocks are there?",
        "show the clocks",
        "list facts",
        "What's happening?",
        "what is going on",
        "show me the scene",
    ]:
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == (look, ["story_get"]), text
    assert table.revision() == before


def test_a_free_action_or_question_is_answered_with_a_way_forward(live_domains, gm, player):
    """ "I look around the mill", "describe the mill", "I search the room", "is the door
    locked?" got "I did not understand that" and the help list. Looking is a look; what only
    a GM could judge is put to the oracle, with an example in the player's words."""
    table = _narrative_table(gm, player)
    table.run(gm, "open scene The Mill", job_id="s")
    look = table.run(player, "look", job_id="look").texts
    for text in ["I look around the mill", "describe the mill", "look at the mill wheel"]:
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == (look, ["story_get"]), text
    for text, question in [
        ("I search the room", "Do I manage to search the room?"),
        ("I try to pick the lock!", "Do I manage to pick the lock?"),
        ("is the door locked?", "Is the door locked?"),
        ("Does the guard see me?", "Does the guard see me?"),
    ]:
        run = table.run(player, text, job_id=text)
        command = f"ask the oracle “{question}”"
        assert run.texts == [
            (
                f"That is for the GM or the oracle to judge. Ask the oracle, like: {command} "
                "(or say “help” for what I understand).",
                "requester",
            )
        ], text
        assert (run.tools, run.output.suggestions) == ([], (command,)), text
        # The suggestion works as written.
        asked = table.run(player, command, job_id=f"asked {text}")
        assert [o.structured["question"] for o in asked.caller.outcomes] == [question]
    # A question the oracle cannot answer yes or no gets a look and the oracle's example.
    where = table.run(player, "where is the miller?", job_id="where")
    assert where.texts == [
        (
            "That is for the GM or the oracle to judge: “look” describes the scene, and the "
            "oracle answers yes-or-no questions, like: ask the oracle “Is it locked?” likely "
            "(or say “help” for what I understand).",
            "requester",
        )
    ]
    assert (where.tools, where.output.suggestions) == ([], ("look",))


def _dnd_table(gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    return table


def test_rolling_a_skill_or_save_is_the_check_or_save(live_domains, gm, player):
    """ "roll stealth", "roll perception", "roll a dex save" got the help list: a skill or an
    ability after "roll" is no dice."""
    table = _dnd_table(gm, player)
    for text, tool, label in [
        ("roll stealth", "ability_check", "Ilsa's stealth check"),
        ("Roll perception dc 12", "ability_check", "Ilsa's perception check"),
        ("roll a dex save", "saving_throw", "Ilsa's dex save"),
        ("roll a stealth check", "ability_check", "Ilsa's stealth check"),
        ("roll for sleight of hand", "ability_check", "Ilsa's sleight of hand check"),
        ("roll wisdom saving throw dc 12", "saving_throw", "Ilsa's wisdom save"),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.tools == [tool], text
        assert label in run.texts[0][0] and run.texts[0][1] == "trigger", text
    assert table.run(player, "roll 1d20", job_id="dice").tools == ["dice_roll"]


def test_pass_ends_ones_turn(live_domains, gm, player):
    """ "pass" got the help list; at the table it ends one's turn."""
    table, _start = dnd_table_in_combat(gm, player)
    assert table.run(player, "pass", job_id="p-end").texts == [
        ("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")
    ]
    assert table.run(player, "I pass", job_id="again").texts == [
        ("It is Goblin 2's turn: wait for yours.", "requester")
    ]
    assert table.run(gm, "pass", job_id="gm").tools[-2:] == ["combat_end_turn", "combat_status"]


def test_asking_about_ones_character_or_the_fight_is_a_read(live_domains, gm, player):
    """ "what's my hp?", "show my character", "what's happening?" got the help list."""
    table = _dnd_table(gm, player)
    before = table.revision()
    sheet = (
        "Ilsa (fighter, level 1): 12/12 HP, AC 16, speed 30 ft; attacks: Longsword, Unarmed Strike."
    )
    for text in ["what's my hp?", "show my character", "What is my AC", "my character sheet"]:
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == ([(sheet, "requester")], ["character_get"]), text
    assert table.run(gm, "what's my hp?", job_id="gm-hp").texts == [
        ("As the GM you have no character: “look at <name>” reads anyone's.", "requester")
    ]
    happening = table.run(player, "what's happening?", job_id="happening")
    assert happening.texts == [("A quiet moment. Present: Ilsa (unhurt).", "trigger")]
    assert table.revision() == before


def _at(entity_id: str, name: str, kind: str, x: int, y: int) -> dict[str, Any]:
    entry = _combatant(entity_id, name, kind)
    entry["position"] = [x, y]
    return entry


def test_the_suggested_target_is_the_nearest_foe_not_the_first_in_initiative():
    """The suggestion named the first foe in initiative, however far across the field."""
    order = [
        _at("pc-1", "Ash", "pc", 0, 0),
        _at("mon-2", "Wolf", "monster", 9, 9),
        _at("pc-2", "Bram", "pc", 5, 5),
        _at("mon-3", "Goblin", "monster", 5, 6),
    ]
    output = _end_turn("player", "pc-1", order, ended="pc-1", current="pc-2")
    assert output.suggestions_for == {"pc-2": ("attack the goblin", "end turn")}
    # The GM's monster goes for the nearest character too.
    gm = _end_turn("gm", None, order, ended="pc-2", current="mon-2")
    assert gm.suggestions == ("wolf attacks Bram", "end turn")
    # Of two named alike, the nearer is named as the table reads it, so the command finds it.
    twins = [
        _at("pc-1", "Ash", "pc", 0, 0),
        _at("mon-2", "Goblin", "monster", 9, 9),
        _at("mon-3", "Goblin", "monster", 1, 1),
    ]
    output = _end_turn("gm", None, twins, ended="mon-3", current="pc-1")
    assert output.suggestions_for == {"pc-1": ("attack goblin 2", "end turn")}


def test_the_gm_names_only_the_attacker_when_the_target_is_plain(live_domains, gm, player):
    """ "the goblin attacks" got the help list: with one foe in sight it attacks that one."""
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    table.run(player, "end turn", job_id="p-end")
    bite = table.run(gm, "the goblin attacks with scimitar", job_id="g-attack")
    (attack,) = [o for o in bite.caller.outcomes if o.tool == "attack"]
    assert (attack.structured["attacker_id"], attack.structured["target_id"]) == ("mon-3", ilsa)


def test_the_gm_is_asked_which_foe_when_two_are_as_near():
    order = [
        _at("mon-3", "Goblin", "monster", 5, 5),
        _at("pc-1", "Ash", "pc", 4, 5),
        _at("pc-2", "Bram", "pc", 6, 6),
        _at("pc-3", "Cade", "pc", 9, 9),
    ]
    turn = TurnContext(
        job_id="which",
        system_id="dnd5e",
        phase="combat",
        role="gm",
        task="action",
        text="goblin attacks",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "attack")
        ),
    )
    stub = _Stub({"combat_status": {"combat": {"current": "mon-3", "order": order}}})
    output = ScriptedAgent().run_turn(turn, stub)
    assert [(m.text, m.audience) for m in output.messages] == [
        ("Which one does Goblin attack: Ash or Bram?", "requester")
    ]
    assert output.suggestions == ("goblin attacks Ash", "goblin attacks Bram")
    assert "attack" not in stub.calls


def _moves(table, user, text: str) -> list[dict]:
    """The combat_move arguments one turn sends, and its replies."""
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent = []

    def recording(tool, arguments):
        if tool == "combat_move":
            sent.append({k: arguments[k] for k in ("character_id", "x", "y")})
        return caller(tool, arguments)

    output = ScriptedAgent().run_turn(turn, recording)
    return sent, [(m.text, m.audience) for m in output.messages]


def test_moving_to_a_creature_moves_next_to_it(live_domains, gm, player):
    """ "move to the goblin" got the help list: it is the free square beside the goblin that
    is nearest to the mover (the rules still judge the move)."""
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    order = table.call(gm, "combat_status").structured["combat"]["order"]
    positions = {e["id"]: e["position"] for e in order}
    assert positions == {ilsa: [5, 0], "mon-2": [6, 1], "mon-3": [6, 0]}
    table.run(player, "move to 3,3", job_id="away")
    # Beside the goblin at (6, 1): (5, 1) and (5, 2) are both 2 squares away; (5, 2) is the
    # straighter way. (6, 0) is Goblin 2's.
    sent, texts = _moves(table, player, "move next to the goblin")
    assert sent == [{"character_id": ilsa, "x": 5, "y": 2}]
    assert texts[0][0].startswith("Ilsa ") and "(5, 2)" in texts[0][0]
    # Already beside it: she is told so, and nothing is moved.
    sent, texts = _moves(table, player, "I move to the goblin")
    assert sent == []
    assert texts == [("Ilsa is already beside Goblin.", "trigger")]
    # Coordinates are still coordinates; nobody by that name is said so.
    assert _moves(table, player, "move to 5,1")[0] == [{"character_id": ilsa, "x": 5, "y": 1}]
    assert _moves(table, player, "move to the dragon")[1] == [
        ("I cannot find “the dragon” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]


def test_a_misspelt_advance_is_not_offered_as_a_clock_it_may_not_be(live_domains, gm, player):
    """ "advnce the plot" was asked back as "Did you mean: advance the plot?", a command that
    names no clock: only the help list came of sending it."""
    table = _narrative_table(gm, player)
    run = table.run(gm, "advnce the plot", job_id="typo")
    assert run.texts == [(ADVANCE_CLOSEST, "requester")]
    assert run.output.suggestions == ()
    # With the word "clock" the command is one, and is asked about.
    assert table.run(gm, "advnce clock doom", job_id="typo-clock").texts == [
        ("Did you mean: advance clock doom?", "requester")
    ]
