"""The Saga MCP server over stdio, with the HTTP endpoint's limit on what one message may be.

The SDK's stdio transport reads each line whole before it parses it, so one endless line would
fill the memory. Here lines come from a reader that keeps at most the limit of each: a longer
line is skipped in small pieces and answered with a JSON-RPC error, and the next line is served.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import BinaryIO

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from apps.core.errors import error_envelope

from .mcp_http import max_request_body_bytes

logger = logging.getLogger(__name__)
SKIP_CHUNK = 64 * 1024
ID_PREFIX_BYTES = 4096
# Leading top-level members with plain values, e.g. {"jsonrpc": "2.0", "id": 7, ...}: only an
# "id" among them is surely the request's own (one after a nested value may belong to it).
_LEADING_MEMBERS = re.compile(
    rb'\s*\{(?P<members>(?:\s*"[A-Za-z_]+"\s*:\s*(?:"[^"\\]*"|-?\d+|null)\s*,)*)'
)
_MEMBER = re.compile(rb'"(?P<key>[A-Za-z_]+)"\s*:\s*(?P<value>"[^"\\]*"|-?\d+|null)')


def request_id_from_prefix(prefix: bytes) -> int | str | None:
    """The id of a message from its first bytes, or None when they do not surely give it."""
    match = _LEADING_MEMBERS.match(prefix)
    if match is None:
        return None
    for member in _MEMBER.finditer(match["members"]):
        if member["key"] == b"id":
            value = member["value"]
            if value.startswith(b'"'):
                return value[1:-1].decode("utf-8", errors="replace")
            return None if value == b"null" else int(value)
    return None


def too_large_reply(request_id: int | str | None, limit: int) -> types.JSONRPCError:
    message = f"The message is larger than {limit} bytes."
    envelope = error_envelope(
        code="request_too_large",
        message=message,
        recovery="Send fewer or smaller artifacts per call.",
        details={"limit": limit},
    )
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=types.ErrorData(code=types.INVALID_REQUEST, message=message, data=envelope["error"]),
    )


class BoundedLines:
    """Lines of a binary stream as text, each at most `limit` bytes; longer ones are refused."""

    def __init__(self, source: BinaryIO, limit: int) -> None:
        self.source = source
        self.limit = limit
        self._write_stream = None
        self._ready = anyio.Event()

    def answer_to(self, write_stream) -> None:
        self._write_stream = write_stream
        self._ready.set()

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        while True:
            line = await anyio.to_thread.run_sync(self.source.readline, self.limit + 1)
            if not line:
                raise StopAsyncIteration
            if len(line.rstrip(b"\r\n")) <= self.limit:
                return line.decode("utf-8", errors="replace")
            await self._refuse(line)

    async def _refuse(self, head: bytes) -> None:
        request_id = request_id_from_prefix(head[:ID_PREFIX_BYTES])
        del head  # the rest of the line is read and dropped piece by piece
        ended = False
        while not ended:
            piece = await anyio.to_thread.run_sync(self.source.readline, SKIP_CHUNK)
            ended = not piece or piece.endswith(b"\n")
        logger.warning("stdio message over %s bytes refused (id %r)", self.limit, request_id)
        await self._ready.wait()
        try:
            await self._write_stream.send(SessionMessage(too_large_reply(request_id, self.limit)))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the server is shutting down: nobody is left to answer


async def serve_stdio(server: MCPServer, source: BinaryIO | None = None) -> None:
    lines = BoundedLines(source or sys.stdin.buffer, max_request_body_bytes())
    async with stdio_server(stdin=lines) as (read_stream, write_stream):
        lines.answer_to(write_stream)
        lowlevel = server._lowlevel_server  # noqa: SLF001 - the SDK has no public getter
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
