"""A real HTTP server on 127.0.0.1 that answers chat completions from a script."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(*, content: str | None = None, tool_calls: list | None = None) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def tool_call(call_id: str, name: str, arguments: dict | str) -> dict:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


def unread_arguments(request: dict[str, Any]) -> str | None:
    """The error vLLM and llama.cpp answer (HTTP 400) when a conversation's assistant tool
    call has arguments that are no JSON text of an object: they read every call again to
    render the chat template. None when each one is."""
    for message in request.get("messages", []):
        for call in message.get("tool_calls") or []:
            arguments = call.get("function", {}).get("arguments")
            try:
                readable = isinstance(json.loads(arguments), dict)
            except (TypeError, ValueError):
                readable = False
            if not readable:
                return f"Failed to parse tool call arguments as JSON: {arguments!r}"[:200]
    return None


class FakeLLM:
    """Each scripted entry is (status, body), (status, body, headers), ("sleep", seconds,
    body) or ("drop", body): a 200 whose connection closes halfway through the body. With
    `rereads_calls`, a request echoing a call whose arguments are no JSON object is refused
    as vLLM refuses it, whatever the script says."""

    def __init__(self) -> None:
        self.script: list[tuple] = []
        self.rereads_calls = False
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                length = int(self.headers["Content-Length"])
                fake.requests.append(json.loads(self.rfile.read(length)))
                fake.headers.append(dict(self.headers))
                fake.paths.append(self.path)
                entry = fake.script.pop(0)
                unread = unread_arguments(fake.requests[-1]) if fake.rereads_calls else None
                if unread is not None:
                    entry = (400, {"error": {"message": unread, "type": "BadRequestError",
                                             "code": 400}})  # fmt: skip
                if entry[0] == "sleep":
                    time.sleep(entry[1])
                    entry = (200, entry[2])
                if entry[0] == "drop":
                    raw = json.dumps(entry[1]).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    # HTTP/1.0: the connection closes when the handler returns.
                    self.wfile.write(raw[: len(raw) // 2])
                    return
                status, body, *extra = entry
                raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for name, value in (extra[0] if extra else {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        # shutdown() waits for the loop to poll: at the default 0.5 s, every test paid it.
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
