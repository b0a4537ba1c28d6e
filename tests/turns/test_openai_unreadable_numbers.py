"""Numbers in a model's answer that Python's JSON reader will not read (whole numbers of more
digits than its limit) or that the journal cannot store (NaN and the infinities, which Python
reads but PostgreSQL's jsonb refuses), against a real local fake chat-completions server and a
live dnd5e server: a call's arguments holding one are refused to the model, which may correct
them, and a final answer holding one is corrected as any invalid answer, rather than failing
the turn unexpectedly."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_run
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_jobs import submit
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
LONG = "1" * 5000  # past the 4300 digits Python reads into an int


def test_arguments_holding_a_number_too_long_to_read_are_refused_to_the_model(table, llm):
    before = table.revision()
    calls = [tool_call("c1", "dice_roll", '{"expression": "1d4", "label": ' + LONG + "}")]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, caller.outcomes, table.revision()) == (
        (AgentMessage("The die lands."),), [], before
    )  # fmt: skip
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {
            "code": "invalid_arguments",
            "message": "the arguments hold a number too long to read (at most 4300 digits)",
        }
    }


def test_a_final_answer_holding_a_number_too_long_to_read_is_corrected(table, llm):
    answer = '{"messages": [{"text": "The die lands.", "audience": "trigger"}], "n": ' + LONG
    llm.script = [(200, completion(content=answer + "}")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "Your answer was invalid: the answer holds a number too long to read (at "
        "most 4300 digits). Reply with only the JSON object described in the instructions.",
    }


NOT_FINITE = {
    "error": {
        "code": "invalid_arguments",
        "message": "the arguments hold a number that is not finite (NaN, an infinity, or too "
        "large to store)",
    }
}


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_arguments_holding_a_number_that_is_not_finite_are_refused_to_the_model(table, llm, number):
    calls = [tool_call("c1", "heal", '{"target_id": "x", "amount": [' + number + "]}")]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, caller.outcomes) == ((AgentMessage("The die lands."),), [])
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == NOT_FINITE


def test_a_turn_whose_model_called_a_tool_with_nan_is_narrated(
    dnd_room, llm, settings, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    """The dispatched call is journaled before it is sent: on PostgreSQL a NaN there failed
    the turn."""
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    calls = [tool_call("c1", "dice_roll", '{"expression": "1d4", "label": NaN}')]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    assert (job.operations.count(), llm.requests[1]["messages"][-1]["content"]) == (
        0, json.dumps(NOT_FINITE)
    )  # fmt: skip
