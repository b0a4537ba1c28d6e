""" "help" typed by a GM with the composer in Narration mode: the line was posted to the players
as the GM's narration (only the help list itself went to the GM), and "help combat" was left
as narration with no answer at all. A GM's help request is posted to the GMs alone and is
answered privately, as it is for an action."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.agents.scripted import ScriptedAgent, help_text, help_with_text
from tests.turns.test_api import _act
from tests.turns.test_scripted_help_action import on_the_turn_of

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


@pytest.mark.parametrize("text", ["I need help!", "Help me!", "What can I do?"])
def test_a_gm_narrating_a_plea_posts_it_to_everyone_with_no_reply(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks, text
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=True):
        response = _act(room, room.gm, "narrated-plea", body=text, task="narration")
    assert response.status_code == 202, response.content
    posted = Message.objects.filter(room__campaign=room.campaign).order_by("created_at")
    assert [(m.kind, m.mode, m.audience, m.body) for m in posted] == [
        ("message", "narration", "public", text),
    ]


@pytest.mark.parametrize(
    ("system_id", "text"),
    [
        ("dnd5e", "help"),
        ("dnd5e", "Help me!"),
        ("dnd5e", "What can I do?"),
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
@pytest.mark.parametrize("text", ["help combat", "help with spells", "help moving"])
def test_help_with_a_part_of_the_game_is_that_parts_help(table, gm, task, text):
    run = table.run(gm, text, job_id="help-topic", task=task)
    assert run.texts == [(help_with_text("dnd5e", text, gm=True), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])


# An NPC's plea or question narrated as a whole line is story: it reaches the players as the
# GM sent it, with no reply. In narration only the terse command forms ask the scripted GM for
# help ("help", "help spells", "?").
PLEAS = [
    "I need help!",
    "Somebody help me!",
    "Can anyone help?",
    "Help us!",
    "could you please help me?",
    "help us out",
    "need some help",
    "I need help with combat",
    "Help me!",
    "help me",
    "Help me, please!",
    "Can you help?",
    "What can I do?",
    "What can I say?",
    "Help me with the spells!",
]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", PLEAS)
def test_a_narrated_plea_stays_as_it_was_sent(system_id, text):
    audience = ScriptedAgent.action_audience(
        system_id=system_id, text=text, audience="public", task="narration"
    )
    assert audience == "public"


@pytest.mark.parametrize("text", PLEAS)
def test_a_narrated_plea_is_posted_with_no_reply(table, gm, text):
    run = table.run(gm, text, job_id="narrated-plea", task="narration")
    assert run.texts == []
    assert (run.output.help_only, run.tools) == (True, [])


@pytest.mark.parametrize(
    ("system_id", "text"),
    [
        ("dnd5e", "help"),
        ("dnd5e", "?"),
        ("dnd5e", "help please"),
        ("dnd5e", "pls help"),
        ("dnd5e", "help combat"),
        ("dnd5e", "help spells"),
        ("dnd5e", "help with spells"),
        ("dnd5e", "list commands"),
        ("dnd5e", "what can I type?"),
        ("narrative", "help"),
        ("narrative", "?"),
        ("narrative", "help clocks"),
        ("narrative", "help with the oracle"),
    ],
)
def test_a_narrated_help_command_is_posted_to_the_gms_alone(system_id, text):
    audience = ScriptedAgent.action_audience(
        system_id=system_id, text=text, audience="public", task="narration"
    )
    assert audience == "gm"


@pytest.mark.parametrize(
    "text", ["help", "?", "help please", "pls help", "list commands", "what can I type?"]
)
def test_a_narrated_help_command_is_the_help_list(table, gm, text):
    run = table.run(gm, text, job_id="narrated-help", task="narration")
    assert run.texts == [(help_text("dnd5e", gm=True), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])


@pytest.mark.parametrize(
    "text", ["I need help!", "Somebody help me!", "Can anyone help?", "Help me!", "Can you help?"]
)
def test_a_gms_plea_sent_as_an_action_is_still_a_help_request(table, gm, text):
    audience = ScriptedAgent.action_audience(
        system_id="dnd5e", text=text, audience="public", task="action"
    )
    run = table.run(gm, text, job_id="acted-plea", task="action")
    assert audience == "gm"
    assert run.texts == [(help_text("dnd5e", gm=True), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])


# In combat the grammar reads "what can I do?" as a question of the turn: narrated, it is a
# character's question, and the turn is neither read nor answered.
@pytest.mark.parametrize("text", ["What can I do?", "Help me!"])
def test_a_narrated_plea_in_combat_is_posted_with_no_reply(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()
    run = table.run(gm, text, job_id="narrated-plea", task="narration")
    assert run.texts == []
    assert (run.output.help_only, run.tools, run.output.suggestions) == (True, [], ())
    assert table.revision() == before
