"""The whole model request, its headers as well as its body, is bounded by the configured
timeout (a real local fake chat-completions server and a live dnd5e server). Each read of a
server (or a proxy) that sends a byte now and then is quick, so the per-read timeouts alone
let a turn hang for as long as it keeps sending."""

from __future__ import annotations

import json
import time

import pytest

from apps.turns.types import Deadline
from tests.turns.fake_llm import completion
from tests.turns.test_openai_endpoint_answers import FINAL, failure

pytestmark = pytest.mark.django_db


def slow_headers(llm, seconds):
    """The fake endpoint sends its status line and headers a byte every tenth of a second,
    for `seconds`, and then its answer."""

    class Trickling(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            raw = json.dumps(completion(content=FINAL)).encode()
            padding = "x" * round(seconds * 10)
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(raw)}\r\nX-Padding: {padding}\r\n\r\n"
            ).encode()
            try:
                for index in range(len(head)):
                    self.wfile.write(head[index : index + 1])
                    self.wfile.flush()
                    if head[index : index + 1] == b"x":
                        time.sleep(0.1)
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up

    llm.server.RequestHandlerClass = Trickling


def test_headers_trickling_past_the_request_timeout_time_out(table, llm):
    slow_headers(llm, 3)
    started = time.monotonic()
    assert failure(table, llm, timeout=0.5) == ("agent_timeout", True)
    assert time.monotonic() - started < 1.5


def test_headers_trickling_past_the_turns_deadline_time_the_turn_out(table, llm):
    slow_headers(llm, 3)
    started = time.monotonic()
    assert failure(table, llm, deadline=Deadline.after(0.5)) == ("turn_timeout", False)
    assert time.monotonic() - started < 1.5
