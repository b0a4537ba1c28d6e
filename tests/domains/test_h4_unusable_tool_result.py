"""A tool result the MCP SDK cannot parse or validate (pydantic's ValidationError, or the
RuntimeError of its output-schema check) is the server breaking the contract: a classified,
non-retryable DomainProtocolError naming the tool, never an unclassified exception."""

from __future__ import annotations

import json
import logging
import threading
import urllib.request
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import override_settings
from pydantic_core import PydanticSerializationError

from apps.domains.client import domain_call, domain_connections_close
from apps.domains.errors import DomainProtocolError
from tests.domains.conftest import domains_setting

pytestmark = pytest.mark.django_db

Rewrite = Callable[[dict[str, Any]], dict[str, Any]]


class RewritingGateway:
    """Forwards every request to a real domain server, rewriting the JSON-RPC `result` of its
    answers to tool calls, as a broken or mismatched server would send them."""

    def __init__(self, upstream: str, rewrite: Rewrite) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                forwarded = {
                    k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")
                }
                request = urllib.request.Request(upstream, body, forwarded, method="POST")
                with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
                    status, headers, answer = response.status, response.headers, response.read()
                if json.loads(body).get("method") == "tools/call":
                    message = json.loads(answer)
                    message["result"] = rewrite(message["result"])
                    answer = json.dumps(message).encode()
                self.send_response(status)
                for name, value in headers.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/mcp"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


def unknown_content_block(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "content": [{"type": "hologram", "text": "?"}]}


def structured_content_a_list(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "structuredContent": ["not", "an", "object"]}


def structured_content_against_its_schema(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "structuredContent": {"unexpected": True}}


@pytest.mark.parametrize(
    "rewrite",
    [unknown_content_block, structured_content_a_list, structured_content_against_its_schema],
)
def test_an_unusable_tool_result_is_a_classified_protocol_error(domain_env, user, caplog, rewrite):
    gateway = RewritingGateway(domain_env.server.url, rewrite)
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url)):
            with caplog.at_level(logging.WARNING), pytest.raises(DomainProtocolError) as caught:
                domain_call(
                    system_id="dnd5e", tool="campaign_create", requester=user,
                    campaign_id=campaign_id,
                    arguments={"name": "Odd", "expected_revision": 0, "idempotency_key": "odd-1"},
                )  # fmt: skip
    finally:
        domain_connections_close()
        gateway.close()
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_protocol_error", 502, False)
    assert error.message == (
        "The D&D 5e (SRD 5.1) rules server gave an answer that this site cannot use."
    )
    assert error.recovery == "Report this to the operators; the domain server broke the contract."
    assert error.details == {"system_id": "dnd5e", "tool": "campaign_create"}
    [logged] = [m for m in caplog.messages if "outside the contract" in m]
    assert logged.startswith(
        f"The dnd5e rules server at {gateway.url} answered campaign_create outside the contract: "
    )


def test_arguments_this_site_cannot_send_are_its_own_fault_not_the_servers(domain_env, user):
    # pydantic cannot serialise the argument: a ValueError of our making, raised before
    # anything is sent, so no server is blamed for it.
    try:
        with pytest.raises(PydanticSerializationError):
            domain_call(
                system_id="dnd5e", tool="dice_roll", requester=user,
                campaign_id=f"c-{uuid.uuid4().hex[:12]}", arguments={"expression": object()},
            )  # fmt: skip
    finally:
        domain_connections_close()
