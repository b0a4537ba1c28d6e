"""The openai provider's suggestions for a player character (`suggestions_for`): a model may
offer the player of a character an action handed the turn to their next actions, as the
scripted agent does. The ids are checked against the campaign's bound characters, which the
worker reads from Django's bindings, never against what the model or a tool result says."""

from __future__ import annotations

import dataclasses
import json

import pytest

from apps.turns.agents.openai import OpenAIAgent
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL
from tests.turns.test_turn_handover_suggestions import _run, _suggestion_events

pytestmark = pytest.mark.django_db
PARTY = {"pc-1": "Ilsa", "pc-2": "Bram"}


def answer(**extra) -> str:
    return json.dumps({"messages": [{"text": "Bram is up."}], **extra})


def run(table, llm, *, bound_characters=PARTY):
    turn = table.context(table.player, "end turn", job_id="j1")
    turn = dataclasses.replace(turn, bound_characters=bound_characters)
    caller = table.caller(table.player, turn)
    agent = OpenAIAgent(base_url=llm.base_url, model="m-1", api_key="sk-test")
    return agent.run_turn(turn, caller)


def test_a_turn_may_offer_a_bound_characters_player_their_next_actions(table, llm):
    wanted = {"pc-2": [" attack the wolf ", "end turn"], "pc-1": []}
    llm.script = [(200, completion(content=answer(suggestions_for=wanted)))]
    output = run(table, llm)
    assert (output.messages, output.suggestions, output.suggestions_for) == (
        (AgentMessage("Bram is up."),),
        (),
        {"pc-2": ("attack the wolf", "end turn")},
    )
    prompt = llm.requests[0]["messages"][0]["content"]
    assert 'The player characters, by id: {"pc-1": "Ilsa", "pc-2": "Bram"}.' in prompt
    assert '"suggestions_for"' in prompt


def correction(llm) -> str:
    return llm.requests[1]["messages"][-1]["content"]


@pytest.mark.parametrize(
    ("wanted", "reason"),
    [
        (
            {"pc-9": ["attack"]},
            'suggestions_for names "pc-9", which is no player character of this campaign; '
            "use an id the instructions list",
        ),
        (
            {"mon-1": ["attack"]},
            'suggestions_for names "mon-1", which is no player character of this campaign; '
            "use an id the instructions list",
        ),
        (
            {"pc-\u0000" + "x" * 100: ["attack"]},
            f'suggestions_for names "pc-\ufffd{"x" * 60}", which is no player character of this '
            "campaign; use an id the instructions list",
        ),
        (
            ["pc-2", "attack"],
            "suggestions_for must be an object of character ids to lists of suggestions",
        ),
        (
            {"pc-2": ["a"] * 5},
            'suggestions_for["pc-2"] must be a list of at most 4 non-empty strings of at most '
            "200 characters",
        ),
        (
            {"pc-2": "attack"},
            'suggestions_for["pc-2"] must be a list of at most 4 non-empty strings of at most '
            "200 characters",
        ),
        (
            {"pc-2": ["attack\u0000"]},
            'suggestions_for["pc-2"][0] holds a character no message may hold (U+0000)',
        ),
    ],
)
def test_invalid_suggestions_for_are_sent_back_to_the_model(table, llm, wanted, reason):
    llm.script = [
        (200, completion(content=answer(suggestions_for=wanted))),
        (200, completion(content=FINAL)),
    ]
    output = run(table, llm)
    assert (output.messages, output.suggestions_for) == ((AgentMessage("The die lands."),), {})
    assert correction(llm) == (
        f"Your answer was invalid: {reason}. Reply with only the JSON object described in the "
        "instructions."
    )


def test_a_misspelt_suggestions_for_is_corrected_naming_the_field(table, llm):
    llm.script = [
        (200, completion(content=answer(suggestion_for={"pc-2": ["attack"]}))),
        (200, completion(content=FINAL)),
    ]
    run(table, llm)
    assert correction(llm) == (
        'Your answer was invalid: unknown keys "suggestion_for"; use messages, suggestions, '
        "gm_suggestions and suggestions_for. Reply with only the JSON object described in the "
        "instructions."
    )


def test_a_turn_of_a_campaign_without_characters_offers_none(table, llm):
    llm.script = [
        (200, completion(content=answer(suggestions_for={"pc-1": ["attack"]}))),
        (200, completion(content=FINAL)),
    ]
    output = run(table, llm, bound_characters={})
    assert output.suggestions_for == {}
    assert "suggestions_for" not in llm.requests[0]["messages"][0]["content"]
    assert correction(llm) == (
        'Your answer was invalid: suggestions_for names "pc-1", which is no player character of '
        "this campaign; use an id the instructions list. Reply with only the JSON object "
        "described in the instructions."
    )


def test_the_worker_gives_the_model_the_campaigns_bound_characters(
    dnd_room, llm, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Read from the campaign's active bindings of a controlling member; the suggestions reach
    the character's player alone."""
    from apps.campaigns.models import ActorBinding
    from apps.campaigns.services.characters import binding_set
    from tests.turns.test_jobs import _fighter

    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    room = dnd_room
    ilsa = _fighter(room, room.player, "Ilsa").character_id
    # A pregenerated character the GM made and gave nobody, and one whose binding was removed.
    _fighter(room, room.gm, "Spare")
    gone = _fighter(room, room.player, "Gone")
    ActorBinding.objects.filter(pk=gone.pk).update(status=ActorBinding.Status.REMOVED)
    spare = ActorBinding.objects.get(campaign=room.campaign, character_name="Spare")
    binding_set(campaign=room.campaign, actor=room.gm, user=room.player,
                character_id=spare.character_id)  # fmt: skip
    ActorBinding.objects.filter(campaign=room.campaign, character_id=spare.character_id).update(
        can_control=False
    )
    wanted = {ilsa: ["attack the goblin", "end turn"]}
    llm.script = [(200, completion(content=answer(suggestions_for=wanted)))]
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "The goblin falls back.")
    prompt = llm.requests[0]["messages"][0]["content"]
    assert f'The player characters, by id: {{"{ilsa}": "Ilsa"}}.' in prompt
    assert _suggestion_events(job) == [
        ("private", [str(room.player.pk)], ["attack the goblin", "end turn"]),
    ]


def test_the_scripted_agent_is_given_no_bound_characters(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """The scripted agent learns whose turn it is from the domain: its turns read no bindings
    for it."""
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    _fighter(room, room.player, "Ilsa")
    seen = []
    scripted_run_turn = ScriptedAgent.run_turn

    def run_turn(self, turn, call_tool):
        seen.append(turn.bound_characters)
        return scripted_run_turn(self, turn, call_tool)

    monkeypatch.setattr(ScriptedAgent, "run_turn", run_turn)
    with django_capture_on_commit_callbacks(execute=False):
        _run(room, room.player, "roll 1d20")
    assert seen == [{}]
