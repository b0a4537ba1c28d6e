"""narrative rules: oracle table, clocks, scenes, threads, tags, facts."""

from __future__ import annotations

import pytest

from domain_servers.narrative.tools import oracle
from tests.domain_servers.conftest import OTHER, PLAYER, Game


@pytest.mark.parametrize(
    ("roll", "likelihood", "result"),
    [
        (1, "even", "yes, and"),
        (10, "even", "yes, and"),
        (11, "even", "yes"),
        (46, "even", "yes, but"),
        (50, "even", "yes, but"),
        (51, "even", "no, but"),
        (55, "even", "no, but"),
        (56, "even", "no"),
        (90, "even", "no"),
        (91, "even", "no, and"),
        (100, "even", "no, and"),
        (95, "certain", "yes, but"),
        (96, "certain", "no, but"),
        (5, "impossible", "yes, but"),
        (1, "impossible", "yes, and"),
        (6, "impossible", "no, but"),
        (12, "impossible", "no"),
        (82, "likely", "no"),
        (95, "likely", "no, and"),
    ],
)
def test_oracle_table(roll: int, likelihood: str, result: str) -> None:
    assert oracle(roll, likelihood)["result"] == result


def test_story_lifecycle(narrative: Game) -> None:
    char = narrative.write("character_create", {"name": "Ilse", "tags": ["sailor"]}, sub=PLAYER)[
        "character"
    ]
    assert char == {
        "id": "ch-1",
        "name": "Ilse",
        "controller": PLAYER,
        "tags": ["sailor"],
        "conditions": [],
    }
    assert narrative.fail("scene_start", {"title": "Docks"})["code"] == "phase_denied"
    narrative.write("phase_set", {"phase": "play"})
    updated = narrative.write(
        "character_update",
        {"character_id": "ch-1", "add_conditions": ["soaked"], "remove_tags": ["sailor"]},
        sub=PLAYER,
    )
    assert updated["character"]["conditions"] == ["soaked"]
    assert updated["character"]["tags"] == []
    assert (
        narrative.fail("character_update", {"character_id": "ch-1", "add_tags": ["x"]}, sub=OTHER)[
            "code"
        ]
        == "authorization_denied"
    )
    # A delegation acting for no character (or another one) may not update this one.
    for acting in ("", "ch-9"):
        refused = narrative.call(
            "character_update",
            {"character_id": "ch-1", "add_tags": ["x"], "expected_revision": narrative.revision,
             "idempotency_key": f"as-{acting}"},
            PLAYER, character=acting,
        )  # fmt: skip
        assert refused.structured_content["error"]["code"] == "authorization_denied"
    first = narrative.write("scene_start", {"title": "Docks", "gm_notes": "ambush"})
    second = narrative.write("scene_start", {"title": "Tavern"})
    assert second["ended_scene_id"] == first["scene_id"]
    story = narrative.read("story_get", sub=PLAYER)
    assert story["scene"] == {
        "id": second["scene_id"],
        "title": "Tavern",
        "description": "",
        "status": "active",
    }
    clock = narrative.write("clock_create", {"name": "Storm", "segments": 4})["clock_id"]
    advanced = narrative.write("clock_advance", {"clock_id": clock, "ticks": 6})
    assert (advanced["filled"], advanced["complete"]) == (4, True)
    assert (
        "already complete"
        in narrative.fail("clock_advance", {"clock_id": clock, "ticks": 1})["message"]
    )
    assert narrative.write("clock_advance", {"clock_id": clock, "ticks": -9})["filled"] == 0
    thread = narrative.write("thread_open", {"title": "Missing captain"})["thread_id"]
    narrative.write("thread_resolve", {"thread_id": thread, "resolution": "found"})
    assert "already resolved" in narrative.fail("thread_resolve", {"thread_id": thread})["message"]
    asked = narrative.write(
        "oracle_ask", {"question": "Is it raining?", "likelihood": "likely"}, sub=PLAYER
    )
    assert asked["random_stream_receipt"]["draw_count"] == 1
    assert asked["result"] == oracle(asked["roll"], "likely")["result"]
    assert (
        narrative.fail("fact_add", {"text": "x", "audience": "player:user:nobody"})["code"]
        == "invalid_request"
    )


def test_emptying_an_empty_clock_is_refused_and_changes_nothing(narrative: Game) -> None:
    """Like filling a complete clock: a call that would change nothing is refused, so the
    room does not narrate (and charge for) "0 of 4 segments filled" as if time ran back."""
    narrative.write("phase_set", {"phase": "play"})
    clock = narrative.write("clock_create", {"name": "Storm", "segments": 4})["clock_id"]
    revision = narrative.read("campaign_get")["authority_revision"]
    error = narrative.fail("clock_advance", {"clock_id": clock, "ticks": -2})
    assert (error["code"], error["message"]) == (
        "invalid_request",
        "the Storm clock is already empty",
    )
    assert narrative.read("campaign_get")["authority_revision"] == revision
    narrative.write("clock_advance", {"clock_id": clock, "ticks": 1})
    assert narrative.write("clock_advance", {"clock_id": clock, "ticks": -3})["filled"] == 0


def test_refusals_name_clocks_threads_and_characters(narrative: Game) -> None:
    narrative.write("character_create", {"name": "Ilse", "tags": ["sailor"]}, sub=PLAYER)
    narrative.write("phase_set", {"phase": "play"})
    clock = narrative.write("clock_create", {"name": "Storm", "segments": 2})["clock_id"]
    narrative.write("clock_advance", {"clock_id": clock, "ticks": 2})
    thread = narrative.write("thread_open", {"title": "Missing captain"})["thread_id"]
    narrative.write("thread_resolve", {"thread_id": thread})
    cases = [
        ("clock_advance", {"clock_id": clock, "ticks": 1}, "the Storm clock is already complete"),
        ("thread_resolve", {"thread_id": thread},
         "the thread “Missing captain” is already resolved"),
        ("character_update", {"character_id": "ch-1", "remove_tags": ["pirate"]},
         "Ilse has no tag 'pirate'"),
    ]  # fmt: skip
    for tool, args, message in cases:
        assert narrative.fail(tool, args)["message"] == message
    denied = narrative.fail("character_update", {"character_id": "ch-1", "add_tags": ["x"]}, OTHER)
    assert denied["message"] == "the requester does not control Ilse"


def test_an_open_thread_or_a_fact_of_the_same_words_is_refused(narrative: Game) -> None:
    """Threads are resolved by title: a second open one of the same title could not be told
    apart; a fact recorded twice would be listed twice. (A clock's name may repeat.)"""
    narrative.write("phase_set", {"phase": "play"})
    thread = narrative.write("thread_open", {"title": "Who lit the beacon"})["thread_id"]
    narrative.write("fact_add", {"text": "The docks are flooded"})
    narrative.write("fact_add", {"text": "The docks are flooded", "audience": "gm"})
    revision = narrative.read("campaign_get")["authority_revision"]
    cases = [
        ("thread_open", {"title": "Who lit the Beacon"},
         "the thread “Who lit the Beacon” is already open"),
        ("fact_add", {"text": "the docks are flooded"}, "that fact is already recorded"),
    ]  # fmt: skip
    for tool, args, message in cases:
        error = narrative.fail(tool, args)
        assert (error["code"], error["message"]) == ("invalid_request", message)
    assert narrative.read("campaign_get")["authority_revision"] == revision
    # A resolved thread's title may be opened again.
    narrative.write("thread_resolve", {"thread_id": thread})
    narrative.write("thread_open", {"title": "Who lit the beacon"})


def test_clock_bounds_stay_in_the_schema(narrative: Game) -> None:
    """The scripted agent answers these bounds in player words; the server still enforces them."""
    narrative.write("phase_set", {"phase": "play"})
    for segments, message in [
        (0, "arguments.segments must be at least 2"),
        (1_000_000, "arguments.segments must be at most 12"),
    ]:
        error = narrative.fail("clock_create", {"name": "Huge", "segments": segments})
        assert error["message"] == message
