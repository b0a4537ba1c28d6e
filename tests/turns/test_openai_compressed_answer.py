"""The openai provider's answer size cap holds on the decompressed answer: a small gzip or
deflate body that inflates far past it fails the turn without being inflated whole. (httpx2
inflates a network chunk in pieces of at most 1 MiB, each checked against the cap.)"""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zlib

import pytest

from apps.turns.agents.openai import MAX_ANSWER_BYTES
from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
INFLATED = 64 * 1024 * 1024


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [("gzip", gzip.compress), ("deflate", zlib.compress)],
)
def test_an_answer_inflating_past_the_cap_is_refused_before_it_is_inflated(
    table, llm, encoding, compress
):
    raw = compress(b" " * INFLATED)
    assert len(raw) < 128 * 1024

    class Inflating(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading

    llm.server.RequestHandlerClass = Inflating
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as caught:
            run(table, llm)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    classified = classify_error(caught.value)
    assert (classified.code, classified.message) == (
        "agent_protocol_error",
        "The agent endpoint's answer is not a chat completion: the answer is too large",
    )
    # Inflated whole, the answer alone would take 64 MiB; read a piece at a time, the turn
    # holds a few times the cap at most (an answer under the cap takes about 3 MiB).
    assert peak < 8 * MAX_ANSWER_BYTES
