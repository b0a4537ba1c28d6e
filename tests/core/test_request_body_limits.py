"""Every HTTP view's request body is bounded before Django sees it: in size (413) and in the time
it may take to arrive (408), so a huge or trickling upload cannot fill the disk or hold a
connection open for ever."""

import asyncio
import json

from sagasmith_web.routing import WholeRequestFirst


def _scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("203.0.113.7", 1), "server": ("localhost", 80),
        "headers": [(b"host", b"localhost"), *headers],
    }  # fmt: skip


async def _call(path, headers, receive):
    """Run WholeRequestFirst over an app that records being called: (answer, app called)."""
    called = []
    sent = []

    async def app(scope, receive, send):
        called.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(WholeRequestFirst(app)(_scope(path, headers), receive, send), 10)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body, called


async def _never_called():
    raise AssertionError("the body was read")


async def test_a_stated_length_over_the_limit_is_refused_without_reading_the_body(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000

    status, headers, body, called = await _call(
        "/api/campaigns", [(b"content-length", b"1001")], _never_called
    )

    assert (status, called) == (413, [])
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"connection"] == b"close"
    assert json.loads(body) == {
        "error": {
            "code": "request_too_large",
            "message": "The request body is larger than 1000 bytes.",
            "retryable": False,
            "recovery": "Send a smaller request.",
            "details": {"limit": 1000},
        }
    }


async def test_a_chunked_body_growing_past_the_limit_is_refused_once_it_passes(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000
    chunks = [b"x" * 600, b"x" * 600, b"x" * 600]
    read = []

    async def receive():
        read.append(1)
        return {"type": "http.request", "body": chunks[len(read) - 1], "more_body": True}

    status, _, _, called = await _call("/api/campaigns", [], receive)

    assert (status, called, len(read)) == (413, [], 2)


async def test_a_page_is_answered_in_words_not_json(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000

    status, headers, body, _ = await _call(
        "/accounts/login/", [(b"content-length", b"5000")], _never_called
    )

    assert status == 413
    assert headers[b"content-type"] == b"text/plain; charset=utf-8"
    assert body == b"The request body is larger than 1000 bytes. Send a smaller request.\n"


async def test_a_body_that_stops_arriving_is_answered_408_after_the_time_limit(settings):
    settings.SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS = 0.2
    first = True

    async def trickle():
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": b"x" * 10, "more_body": True}
        await asyncio.sleep(3600)

    loop = asyncio.get_running_loop()
    began = loop.time()
    status, headers, body, called = await _call(
        "/api/campaigns", [(b"content-length", b"100")], trickle
    )

    assert (status, called) == (408, [])
    assert 0.2 <= loop.time() - began < 2
    assert headers[b"connection"] == b"close"
    assert json.loads(body)["error"] == {
        "code": "request_timeout",
        "message": "The request body did not arrive within 0.2 seconds.",
        "retryable": True,
        "recovery": "Send the whole request at once.",
        "details": {"limit_seconds": 0.2},
    }


async def test_a_body_within_both_limits_reaches_the_app(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000

    async def receive():
        return {"type": "http.request", "body": b"x" * 1000, "more_body": False}

    _, _, _, called = await _call("/api/campaigns", [(b"content-length", b"1000")], receive)

    assert called == ["/api/campaigns"]


async def test_a_stated_length_that_is_no_number_is_read_as_unstated(settings):
    # "²" is a digit to isdigit() on text but no number int() reads: the body is counted.
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000
    sent = iter([{"type": "http.request", "body": b"{}", "more_body": False}])

    async def receive():
        return next(sent)

    status, _headers, _body, called = await _call(
        "/api/campaigns", [(b"content-length", "\u00b2".encode())], receive
    )

    assert (status, called) == (200, ["/api/campaigns"])
