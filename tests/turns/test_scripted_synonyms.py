"""The words a table types for the commands the grammar has ("new clock Doom 6", "create
thread …", "begin combat"): each is that command, not "I did not understand that"."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _writes(run) -> list[str]:
    """The tools a turn sent, but for its reads."""
    return [tool for tool in run.tools if tool not in ("story_get", "campaign_get")]


@pytest.mark.parametrize(
    ("text", "tool", "made"),
    [
        ("create thread Find the warden", "thread_open", "Find the warden"),
        ("new thread Find the warden", "thread_open", "Find the warden"),
        ("start thread Find the warden", "thread_open", "Find the warden"),
        ("add a thread: Find the warden", "thread_open", "Find the warden"),
        ("create a new thread Find the warden", "thread_open", "Find the warden"),
        ("new clock Doom 6", "clock_create", "Doom"),
        ("start clock Doom 6", "clock_create", "Doom"),
        ("add clock Doom with 6 segments", "clock_create", "Doom"),
        ("make a clock called Doom, 6 segments", "clock_create", "Doom"),
        ("create a new clock Doom 6", "clock_create", "Doom"),
        ("new 6-segment clock called Doom", "clock_create", "Doom"),
        ("start scene The Mill", "scene_start", "The Mill"),
        ("begin scene The Mill", "scene_start", "The Mill"),
        ("new scene The Mill", "scene_start", "The Mill"),
        ("create a scene The Mill", "scene_start", "The Mill"),
        ("add fact The warden is dead", "fact_add", "The warden is dead"),
        ("note fact The warden is dead", "fact_add", "The warden is dead"),
        ("new fact The warden is dead", "fact_add", "The warden is dead"),
    ],
)
def test_a_gm_makes_a_story_item_in_the_words_a_table_types(
    live_domains, gm, player, text, tool, made
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    run = table.run(gm, text, job_id=text)
    assert _writes(run) == [tool], run.texts
    assert made in run.texts[0][0]
    assert not run.output.help_only


def test_a_thread_is_completed_as_it_is_resolved(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "new thread Find the warden", job_id="open")
    run = table.run(gm, "complete thread Find the warden: found in the crypt", job_id="done")
    assert run.texts == [
        ("The thread “Find the warden” is resolved: found in the crypt.", "trigger")
    ]


def test_a_player_typing_a_gm_synonym_is_told_it_is_the_gms(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    run = table.run(player, "new clock Doom 6", job_id="player-clock")
    assert run.texts == [("Only the GM can create a clock.", "requester")]
    assert table.revision() == before


def test_dnd5e_combat_is_begun_stopped_and_its_turns_passed_in_table_words(
    live_domains, gm, player
):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    begun = table.run(gm, "begin combat with a goblin", job_id="begin")
    assert begun.tools[-1] == "combat_start"
    assert table.campaign()["phase"] == "combat"
    passed = table.run(player, "next turn", job_id="next")
    assert "combat_end_turn" in passed.tools
    assert passed.texts == [("Ilsa ends the turn. Goblin acts next (round 1).", "trigger")]
    stopped = table.run(gm, "stop combat", job_id="stop")
    assert stopped.tools[-1] == "combat_end"
    assert table.campaign()["phase"] == "play"
