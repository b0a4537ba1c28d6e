"""A request's whole body, read on the event loop before the app gets it, bounded in size and
in the time it may take to arrive: for the site's serving stack (sagasmith_web.routing) and
for the Saga MCP mount, which has its own limits."""

import asyncio

CHUNK = 64 * 1024


class BodyTooLarge(Exception):
    """The body is known to exceed the limit; the rest of it is left unread."""


class ClientGone(Exception):
    """The client left before its request was complete: nobody is left to answer."""


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The Content-Length the client stated, if it is a number."""
    stated = next((value for name, value in headers if name.lower() == b"content-length"), None)
    text = (stated or b"").strip()
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    return int(text) if text.isascii() and text.isdigit() else None


async def receive_body(receive, into, *, limit: int, seconds: float, declared: int | None) -> int:
    """Write the request's body into the binary file `into` and return its size. Raises
    BodyTooLarge as soon as it is known to exceed `limit` (a stated length says so before any
    is read), TimeoutError when it has not all arrived within `seconds`, ClientGone when the
    client left."""
    if declared is not None and declared > limit:
        raise BodyTooLarge
    size = 0
    async with asyncio.timeout(seconds):
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge  # chunked bodies state no length: counted while received
            into.write(chunk)
            if not message.get("more_body", False):
                return size


def replayed(body, size: int, receive):
    """A receive that gives the app the body already read into the file `body` (rewound), in
    chunks, then defers to the server's own (after the body only a disconnect comes)."""
    sent = False

    async def replay():
        nonlocal sent
        if sent:
            return await receive()
        chunk = body.read(CHUNK)
        sent = body.tell() >= size
        return {"type": "http.request", "body": chunk, "more_body": not sent}

    return replay
