"""A reverse proxy in front of a real domain server, as a load balancer in hosted mode is: it
forwards every request, except the tool calls its `answer` chooses to answer itself; `rewrite`
changes the JSON-RPC `result` of the tool calls it forwards, as a broken server would send it."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# (status, headers, body) for a tool call the gateway answers itself; None forwards it.
Answer = Callable[[], tuple[int, dict[str, str], bytes] | None]
Rewrite = Callable[[dict[str, Any]], dict[str, Any]]


class Gateway:
    def __init__(
        self, upstream: str, answer: Answer = lambda: None, rewrite: Rewrite | None = None
    ) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                tool_call = json.loads(body).get("method") == "tools/call"
                own = answer() if tool_call else None
                if own is not None:
                    self._answer(*own)
                    return
                forwarded = {
                    k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")
                }
                request = urllib.request.Request(upstream, body, forwarded, method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=10) as response:
                        status, headers, answered = (
                            response.status, dict(response.headers), response.read(),
                        )  # fmt: skip
                    if tool_call and rewrite is not None:
                        message = json.loads(answered)
                        message["result"] = rewrite(message["result"])
                        answered = json.dumps(message).encode()
                    self._answer(status, headers, answered)
                except urllib.error.HTTPError as error:
                    self._answer(error.code, dict(error.headers), error.read())

            def _answer(self, status: int, headers: dict[str, str], body: bytes) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/mcp"
        # shutdown() waits for the loop to poll: at the default 0.5 s, every test paid it.
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)
