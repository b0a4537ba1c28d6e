"""An answer whose bytes are not all UTF-8 (a real local fake chat-completions server and a
live dnd5e server). Some servers send the bytes of a character cut in two when the token bound
stops a model inside it, or a model's stray byte: the answer is read with U+FFFD in their place,
so a cut answer is corrected as cut rather than the turn failing as no chat completion."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
MARK = "\u2603"  # stands for the bytes below in the JSON text, then is replaced by them


def raw_answers(llm, answers: list[bytes]) -> None:
    """The fake server answers the next requests with these bodies, byte for byte."""

    class Raw(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            raw = answers.pop(0)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    llm.server.RequestHandlerClass = Raw


def answer(content: str, broken: bytes, finish_reason: str = "stop") -> bytes:
    body = completion(content=content)
    body["choices"][0]["finish_reason"] = finish_reason
    return json.dumps(body, ensure_ascii=False).encode().replace(MARK.encode(), broken)


def test_an_answer_cut_inside_a_character_is_corrected_as_cut(table, llm):
    cut = answer('{"messages": [{"text": "The wolf ' + MARK, b"\xf0\x9f\x90", "length")
    raw_answers(llm, [cut, json.dumps(completion(content=FINAL)).encode()])
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-2:] == [
        {"role": "assistant", "content": '{"messages": [{"text": "The wolf \ufffd'},
        {
            "role": "user",
            "content": "Your answer was invalid: the answer was cut off at the limit of 8192 "
            "tokens; give a shorter one. Reply with only the JSON object described in the "
            "instructions.",
        },
    ]


def test_a_stray_byte_in_an_answer_is_read_as_a_replacement_character(table, llm):
    text = {"messages": [{"text": f"The d{MARK}e lands.", "audience": "trigger"}]}
    final = json.dumps(text, ensure_ascii=False)
    raw_answers(llm, [answer(final, b"\xef")])
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The d\ufffde lands."),)
