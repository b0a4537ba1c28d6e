""" "help" typed by a GM with the composer in Narration mode: the line was posted to the players
as the GM's narration (only the help list itself went to the GM), and "help combat" was left
as narration with no answer at all. A GM's help request is posted to the GMs alone and is
answered privately, as it is for an action."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.agents.scripted import ScriptedAgent, help_text
from tests.turns.test_api import _act

pytestmark = pytest.mark.django_db


def test_a_gm_narrating_help_is_answered_privately_and_the_players_see_nothing(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=True):
        response = _act(room, room.gm, "narrated-help", body="help", task="narration")
    assert response.status_code == 202, response.content
    posted = Message.objects.filter(room__campaign=room.campaign).order_by("created_at")
    assert [(m.kind, m.mode, m.audience, m.body) for m in posted] == [
        ("message", "narration", "gm", "help"),
        ("event", "", "private", help_text("dnd5e", gm=True)),
    ]
    assert [link.user_id for link in posted[1].recipient_links.all()] == [room.gm.pk]


@pytest.mark.parametrize(
    ("system_id", "text"),
    [
        ("dnd5e", "help"),
        ("dnd5e", "Help me!"),
        ("dnd5e", "help combat"),
        ("dnd5e", "help with spells"),
        ("narrative", "help clocks"),
        ("narrative", "help with the oracle"),
        ("narrative", "list commands"),
    ],
)
def test_a_gm_help_request_is_posted_to_the_gms_alone(system_id, text):
    assert ScriptedAgent.action_audience(system_id=system_id, text=text, audience="public") == "gm"


@pytest.mark.parametrize(
    "text", ["Help arrives from the north.", "The goblin cries for help.", "help Ilsa"]
)
def test_narration_that_only_mentions_help_stays_as_it_was_sent(text):
    assert (
        ScriptedAgent.action_audience(system_id="dnd5e", text=text, audience="public") == "public"
    )


@pytest.mark.parametrize("task", ["narration", "action"])
@pytest.mark.parametrize("text", ["help combat", "help with spells", "help me with moving"])
def test_help_with_a_part_of_the_game_is_the_help_list(table, gm, task, text):
    run = table.run(gm, text, job_id="help-topic", task=task)
    assert run.texts == [(help_text("dnd5e", gm=True), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
