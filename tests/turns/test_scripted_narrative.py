"""The scripted agent's narrative intents as a table types them, against a live server."""

from __future__ import annotations

import uuid

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _writes(table, user, text: str) -> list[tuple[str, dict]]:
    """The writes one turn sends, with their arguments."""
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent = []

    def recording(tool, arguments):
        if tool != "story_get":
            sent.append((tool, dict(arguments)))
        return caller(tool, arguments)

    ScriptedAgent().run_turn(turn, recording)
    return sent


def _asked(run) -> list[tuple[str, str]]:
    return [
        (o.structured["question"], o.structured["likelihood"])
        for o in run.caller.outcomes
        if o.tool == "oracle_ask"
    ]


def test_the_oracle_reads_odds_and_questions_as_a_player_types_them(live_domains, gm, player):
    """ "50/50", "very-likely", "(likely)", single quotes or none at all: each is a question
    the oracle answers, not the help list."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, asked in [
        ('ask the oracle "Is it raining?" 50/50', ("Is it raining?", "even")),
        ('ask the oracle "Is it raining?" very-likely', ("Is it raining?", "very_likely")),
        ('ask the oracle "Is it raining?" (likely)', ("Is it raining?", "likely")),
        ('ask the oracle "Is it raining?", even odds', ("Is it raining?", "even")),
        ("ask the oracle 'Isn't it raining?' unlikely", ("Isn't it raining?", "unlikely")),
        ("ask the oracle is it raining?", ("is it raining?", "even")),
        ("Ask the oracle: is the door locked? likely.", ("is the door locked?", "likely")),
        ("ask the oracle is it raining, very unlikely", ("is it raining", "very_unlikely")),
        ("ask the oracle does the bridge hold (certain)", ("does the bridge hold", "certain")),
        # Words after the question that are no odds are part of it.
        ("ask the oracle is it raining? or snowing", ("is it raining? or snowing", "even")),
        ("ask the oracle is the guard likely to wake", ("is the guard likely to wake", "even")),
    ]:
        run = table.run(player, text, job_id=text)
        assert _asked(run) == [asked], text
        assert [audience for _text, audience in run.texts] == ["trigger"], text


def test_an_empty_oracle_question_is_answered_with_an_example_and_changes_nothing(
    live_domains, gm, player
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    example = "Ask the oracle a yes-or-no question, like: ask the oracle “Is it locked?” likely"
    for text in ('ask the oracle ""', "ask the oracle “  ” likely"):
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == ([(example, "requester")], []), text
    unknown = table.run(player, 'ask the oracle "Is it raining?" maybe', job_id="maybe")
    assert unknown.texts == [
        ("Likelihood “maybe” is not one of impossible, very unlikely, unlikely, even, likely, "
         "very likely, certain.", "requester"),
    ]  # fmt: skip
    assert table.revision() == before


def test_a_clock_or_thread_name_that_fits_several_is_asked_about_not_guessed(
    live_domains, gm, player
):
    """ "advance clock d" beside Doom and Dawn, or a name of marks alone, used to move the
    oldest clock: the wrong one, in front of everyone."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 4 segments", job_id="c1")
    table.run(gm, "create clock Dawn with 4 segments", job_id="c2")
    table.run(gm, "open thread Find the client", job_id="t1")
    table.run(gm, "open thread Find the money", job_id="t2")
    before = table.revision()
    for text, answer in [
        ("advance clock d", "Which clock do you mean: Doom or Dawn?"),
        ("advance clock !!!", "There is no clock “!!!”. Clocks: Doom, Dawn."),
        ("resolve thread find: paid",
         "Which thread do you mean: Find the client or Find the money?"),
    ]:  # fmt: skip
        run = table.run(gm, text, job_id=text)
        assert (run.texts, run.tools) == ([(answer, "requester")], ["story_get"]), text
    assert table.revision() == before
    # One name that fits, or the one of them that can still move, is not a guess.
    table.run(gm, "advance clock doom by 4", job_id="full")
    assert table.run(gm, "advance clock d", job_id="dawn").texts == [
        ("Dawn: 1 of 4 segments filled.", "trigger")
    ]
    assert table.run(gm, "resolve thread find the m", job_id="money").texts == [
        ("The thread “Find the money” is resolved.", "trigger")
    ]


def test_looking_around_tells_a_player_the_facts_told_to_them_alone(live_domains, gm, player):
    """A fact recorded for one player is theirs to read (said to them, never to the room);
    the GM reads it apart from the GM's own secrets, since its player knows it."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, audience in [
        ("The bridge is out", "public"),
        ("Your ring is cursed", f"player:{principal_for(player)}"),
        ("The abbot knows", "gm"),
    ]:
        table.call(
            gm, "fact_add", text=text, audience=audience,
            expected_revision=table.revision(), idempotency_key=uuid.uuid4().hex,
        )  # fmt: skip
    room = "No scene is set. Known: The bridge is out."
    assert table.run(player, "look around", job_id="player-look").texts == [
        (room, "trigger"),
        ("Known: Your ring is cursed.", "requester"),
    ]
    assert table.run(gm, "look around", job_id="gm-look").texts == [
        (room, "trigger"),
        ("Known: The abbot knows.", "gm"),
        ("Private to a player: Your ring is cursed.", "gm"),
    ]


def test_a_fact_of_nothing_but_the_gm_only_mark_is_asked_for_not_recorded(live_domains, gm, player):
    """ "record fact gm only" used to record the secret fact "gm only"."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    ask = "Say what the fact is, like: record fact The duke is a vampire gm only"
    for text in ("record fact gm only", "record fact (GM only)", 'record fact ""'):
        run = table.run(gm, text, job_id=text)
        assert (run.texts, run.tools) == ([(ask, "requester")], []), text
    assert table.revision() == before
    assert table.call(gm, "story_get").structured["facts"] == []


def test_the_gm_runs_clocks_scenes_threads_and_facts_in_the_words_a_table_uses(
    live_domains, gm, player
):
    """ "advance the Doom clock", "create a 6-segment clock called Doom", "start scene …",
    "add fact …" used to be answered with the help list."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, tool, arguments in [
        ("create a 6-segment clock called Doom.", "clock_create", {"name": "Doom", "segments": 6}),
        ("Create a 4 segment clock Ruin!", "clock_create", {"name": "Ruin!", "segments": 4}),
        ("advance the Doom clock", "clock_advance", {"clock_id": "clock-1", "ticks": 1}),
        ("advance the doom clock by 2", "clock_advance", {"clock_id": "clock-1", "ticks": 2}),
        ("tick the ruin clock", "clock_advance", {"clock_id": "clock-2", "ticks": 1}),
        ("start a new scene: The Docks", "scene_start", {"title": "The Docks"}),
        ("begin scene Night", "scene_start", {"title": "Night"}),
        ("start thread Who lit the beacon?", "thread_open", {"title": "Who lit the beacon?"}),
        ("add fact The bridge is out", "fact_add", {"text": "The bridge is out",
                                                    "audience": "public"}),
        ("note fact The abbot lies gm only", "fact_add", {"text": "The abbot lies",
                                                          "audience": "gm"}),
    ]:  # fmt: skip
        assert _writes(table, gm, text) == [(tool, arguments)], text
    story = table.call(gm, "story_get").structured
    assert [(c["name"], c["filled"], c["segments"]) for c in story["clocks"]] == [
        ("Doom", 3, 6),
        ("Ruin!", 1, 4),
    ]
    assert table.run(gm, "advance the clock", job_id="which").output.declined is True


def test_a_thread_title_with_its_own_colon_is_resolved_whole(live_domains, gm, player):
    """ "Act 1: The Heist: they won" used to resolve it with "The Heist: they won"."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "open thread Act 1: The Heist", job_id="t1")
    table.run(gm, "open thread Act 2: The Chase", job_id="t2")
    table.run(gm, "open thread Rescue", job_id="t3")
    assert table.run(gm, "resolve thread Act 1: The Heist: they won", job_id="r1").texts == [
        ("The thread “Act 1: The Heist” is resolved: they won.", "trigger")
    ]
    assert table.run(gm, "resolve thread act 2: the chase", job_id="r2").texts == [
        ("The thread “Act 2: The Chase” is resolved.", "trigger")
    ]
    # A title said only in part still ends at the first colon.
    assert table.run(gm, "resolve thread resc: found alive", job_id="r3").texts == [
        ("The thread “Rescue” is resolved: found alive.", "trigger")
    ]
    story = table.call(player, "story_get").structured
    assert [(t["title"], t["status"], t["resolution"]) for t in story["threads"]] == [
        ("Act 1: The Heist", "resolved", "they won"),
        ("Act 2: The Chase", "resolved", ""),
        ("Rescue", "resolved", "found alive"),
    ]


def test_a_clock_advances_by_segments_or_ticks_said_in_words(live_domains, gm, player):
    """ "advance clock Doom by 2 segments" was read as a clock named "Doom by 2 segments"."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 6 segments", job_id="c1")
    table.run(gm, "create clock Stand by Me with 4 segments", job_id="c2")
    for text, ticks in [
        ("advance clock Doom by 2 segments", 2),
        ("advance the doom clock by one segment", 1),
        ("tick clock doom by two ticks", 2),
        ("advance clock doom by -1 segment", -1),
    ]:
        assert _writes(table, gm, text) == [
            ("clock_advance", {"clock_id": "clock-1", "ticks": ticks})
        ], text
    # "by" in a name stays in it.
    assert _writes(table, gm, "advance clock Stand by Me") == [
        ("clock_advance", {"clock_id": "clock-2", "ticks": 1})
    ]


def test_an_empty_scene_thread_or_clock_name_is_answered_with_an_example(live_domains, gm, player):
    """Empty quotes used to reach the rules and come back as "the title is shorter than 1
    characters"."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    for text, answer in [
        ('open scene ""', "Give the scene a title, like: open scene The Drowned Chapel"),
        ("open thread “ ”", "Give the thread a title, like: open thread Who lit the beacon?"),
        ('create clock "" with 4 segments',
         "Give the clock a name, like: create clock Doom with 6 segments"),
    ]:  # fmt: skip
        run = table.run(gm, text, job_id=text)
        assert (run.texts, run.tools) == ([(answer, "requester")], []), text
    assert table.revision() == before


def test_a_scene_description_without_a_full_stop_does_not_run_into_the_clocks(
    live_domains, gm, player
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 4 segments", job_id="clock")
    table.call(
        gm, "scene_start", title="The Docks", description="Fog rolls over the piers ",
        expected_revision=table.revision(), idempotency_key=uuid.uuid4().hex,
    )  # fmt: skip
    assert table.run(player, "look", job_id="look").texts == [
        ("Scene: The Docks. Fog rolls over the piers. Clocks: Doom 0/4.", "trigger")
    ]


def test_the_gm_ends_a_scene_with_none_after_it(live_domains, gm, player):
    """ "end scene" was answered with the help list: a scene could only give way to another."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    assert table.run(gm, "end scene", job_id="none").texts == [
        ("No scene is running; “open scene <title>” starts one.", "requester")
    ]
    assert table.revision() == before
    table.run(gm, "open scene The Docks", job_id="open")
    assert table.run(player, "end the scene", job_id="player").texts == [
        ("Only the GM can end a scene.", "requester")
    ]
    ended = table.run(gm, "end the current scene", job_id="end")
    assert (ended.texts, ended.tools) == (
        [("The scene ends: The Docks.", "trigger")],
        ["story_get", "scene_end"],
    )
    assert table.call(player, "story_get").structured["scene"] is None
    assert table.run(player, "look", job_id="look").texts == [("No scene is set.", "trigger")]


def test_a_clock_size_is_read_in_words_or_brackets(live_domains, gm, player):
    """ "create clock Ruin with four segments" used to get the help list."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, name, segments in [
        ("create clock Ruin with four segments", "Ruin", 4),
        ("create clock Dawn (6 segments)", "Dawn", 6),
        ("create clock Dusk, 8 segments.", "Dusk", 8),
        ("create an eight-segment clock called Night", "Night", 8),
        ("create a clock called Siege with Twelve segments", "Siege", 12),
    ]:
        assert _writes(table, gm, text) == [
            ("clock_create", {"name": name, "segments": segments})
        ], text
    assert table.run(gm, "create clock Spark with one segment", job_id="one").texts == [
        ("A clock needs at least 2 segments.", "requester")
    ]


def test_a_clock_wound_back_is_not_said_to_tick_forward(live_domains, gm, player):
    """Emptying a clock used to read "The Doom clock ticks to 3/6", as if time ran on."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 6 segments", job_id="c")
    table.run(gm, "advance clock Doom by 5", job_id="a")
    texts = [table.run(gm, "advance clock Doom by -1", job_id=f"b{n}").texts for n in range(4)]
    assert texts == [
        [("Doom: 4 of 6 segments filled.", "trigger")],
        [("The Doom clock falls back to 3/6.", "trigger")],
        [("Doom: 2 of 6 segments filled.", "trigger")],
        [("The Doom clock falls back to 1/6.", "trigger")],
    ]


def test_an_unquoted_question_keeps_the_quotes_inside_it(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    run = table.run(player, "ask the oracle is the “ghost” real?", job_id="ghost")
    assert _asked(run) == [("is the “ghost” real?", "even")]
    run = table.run(player, 'ask the oracle did she say "run"', job_id="run")
    assert _asked(run) == [('did she say "run"', "even")]


def test_a_thread_is_closed_in_the_words_a_table_uses(live_domains, gm, player):
    """ "close thread …", "resolve the … thread" and "Rescue - found" got the help list or
    were read as part of the title."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for n, title in enumerate(("Rescue", "The Heist", "Act 1 - The Vault", "Escape")):
        table.run(gm, f"open thread {title}", job_id=f"t{n}")
    for text, thread_id, resolution in [
        ("close thread Rescue - found alive", "thread-1", "found alive"),
        ("resolve the heist thread: they got away", "thread-2", "they got away"),
        ("finish thread Act 1 - The Vault — emptied", "thread-3", "emptied"),
        ("end the Escape thread", "thread-4", ""),
    ]:
        assert _writes(table, gm, text) == [
            ("thread_resolve", {"thread_id": thread_id, "resolution": resolution})
        ], text


def test_a_clock_or_thread_named_with_an_emoji_is_found_by_its_words(live_domains, gm, player):
    """ "advance clock fire" did not find the "🔥 Fire" clock the GM had made."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock 🔥 Fire with 4 segments", job_id="clock")
    table.run(gm, "open thread The 👑 Crown", job_id="thread")
    assert _writes(table, gm, "advance clock fire") == [
        ("clock_advance", {"clock_id": "clock-1", "ticks": 1})
    ]
    assert _writes(table, gm, "resolve thread the crown: found") == [
        ("thread_resolve", {"thread_id": "thread-2", "resolution": "found"})
    ]
    # And a second one of those words is the same name.
    assert table.run(gm, "create clock Fire with 6 segments", job_id="again").texts == [
        ("There is already a clock “🔥 Fire” (1/4). Advance it, or give the new clock another "
         "name.", "requester"),
    ]  # fmt: skip


def test_a_secret_oracle_question_marked_gm_only_is_asked_not_refused(live_domains, gm, player):
    """The mark makes the action GM-only; it was read as odds ("Likelihood “gm only” is not
    one of …") or kept in the question."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, asked in [
        ('ask the oracle "Is the duke a vampire?" likely gm only',
         ("Is the duke a vampire?", "likely")),
        ('ask the oracle "Is the duke a vampire?" (GM only)', ("Is the duke a vampire?", "even")),
        ("ask the oracle is the duke a vampire? unlikely, gm only",
         ("is the duke a vampire?", "unlikely")),
        ("ask the oracle is the duke a vampire gm-only", ("is the duke a vampire", "even")),
    ]:  # fmt: skip
        audience = ScriptedAgent.action_audience(
            system_id="narrative", text=text, audience="public"
        )
        run = table.run(gm, text, job_id=text, trigger_audience=audience)
        assert (audience, _asked(run)) == ("gm", [asked]), text
        assert [audience for _text, audience in run.texts] == ["trigger"], text


def test_a_scene_or_thread_title_ending_the_sentence_loses_only_its_full_stop(
    live_domains, gm, player
):
    """ "open scene The Tavern." put "The Tavern." in the scene panel."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, tool, title in [
        ("open scene The Tavern.", "scene_start", "The Tavern"),
        ('open scene "The Docks".', "scene_start", "The Docks"),
        ("open scene Last light...", "scene_start", "Last light..."),
        ("open thread Find the heir.", "thread_open", "Find the heir"),
        ("open thread Who knows?", "thread_open", "Who knows?"),
    ]:
        assert _writes(table, gm, text) == [(tool, {"title": title})], text


def test_a_clock_name_is_matched_as_the_rules_match_it_whatever_its_case(live_domains, gm, player):
    """The rules compare names casefolded ("Straße" is "STRASSE"); lower() did not find it."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Straße with 4 segments", job_id="clock")
    assert _writes(table, gm, "advance clock STRASSE") == [
        ("clock_advance", {"clock_id": "clock-1", "ticks": 1})
    ]
