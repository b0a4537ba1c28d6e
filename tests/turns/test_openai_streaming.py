"""The openai provider asks for a whole answer (`"stream": false`), and an endpoint that
streams it all the same (server-sent events) fails the turn saying so, not as JSON that does
not parse."""

from __future__ import annotations

import json

import pytest

from apps.turns.errors import classify_error
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_every_request_asks_for_the_answer_unstreamed(table, llm):
    calls = [tool_call("c1", "dice_roll", {"expression": "1d4"})]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    assert [r["stream"] for r in llm.requests] == [False, False]


@pytest.mark.parametrize("content_type", ["text/event-stream", "Text/Event-Stream; charset=utf-8"])
def test_an_endpoint_that_streams_anyway_fails_saying_it_streamed(table, llm, content_type):
    delta = {"index": 0, "delta": {"content": "The"}, "finish_reason": None}
    chunk = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "choices": [delta]}

    class Streaming(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            raw = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    llm.server.RequestHandlerClass = Streaming
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_protocol_error",
        False,
        "The agent endpoint streamed its answer (text/event-stream) though the request asked "
        "for a whole one: it must answer with stream set to false.",
    )
    assert len(llm.requests) == 1
