"""An endpoint that streams its answer (server-sent events) under an application/json label
(a real local fake chat-completions server and a live dnd5e server): the turn fails saying the
answer was streamed, as for one labelled text/event-stream, not as JSON that does not parse."""

from __future__ import annotations

import json

import pytest

from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
CHUNK = json.dumps(
    {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": "The"}, "finish_reason": None}],
    }
)


@pytest.mark.parametrize(
    "body",
    [
        f"data: {CHUNK}\n\ndata: [DONE]\n\n",
        f"\n\ndata:{CHUNK}\n\n",
        f": keep-alive\n\ndata: {CHUNK}\n\n",
        f"event: message\ndata: {CHUNK}\n\n",
    ],
)
def test_a_stream_labelled_json_fails_saying_it_streamed(table, llm, body):
    llm.script = [(200, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_protocol_error",
        False,
        "The agent endpoint streamed its answer (text/event-stream) though the request asked "
        "for a whole one: it must answer with stream set to false.",
    )
    assert caught.value.details == {"content_type": "application/json"}
    assert len(llm.requests) == 1
