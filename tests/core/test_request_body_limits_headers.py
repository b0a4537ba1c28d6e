"""A request refused for its body (413, 408) is answered before Django's middleware runs, yet
carries what every other answer does: its X-Request-ID, to find it in a report, and the
security headers (no content sniffing, the page policy)."""

import asyncio
import re

from tests.core.test_request_body_limits import _call, _never_called


async def test_a_refused_request_echoes_the_clients_well_formed_request_id(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000

    status, headers, _, _ = await _call(
        "/api/campaigns",
        [(b"content-length", b"1001"), (b"x-request-id", b"client-abc-123")],
        _never_called,
    )

    assert (status, headers[b"x-request-id"]) == (413, b"client-abc-123")


async def test_a_refused_request_without_a_usable_request_id_is_given_a_new_one(settings):
    settings.SAGASMITH_MAX_REQUEST_BYTES = 1000

    status, headers, _, _ = await _call(
        "/campaigns/new",
        [(b"content-length", b"1001"), (b"x-request-id", b"bad id")],
        _never_called,
    )

    assert status == 413
    assert re.fullmatch(rb"[0-9a-f]{32}", headers[b"x-request-id"])


async def test_a_refused_request_carries_the_security_headers(settings):
    settings.SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS = 0.05

    async def trickle():
        await asyncio.Event().wait()  # no byte of the body ever comes

    status, headers, _, _ = await _call("/campaigns/new", [(b"content-length", b"10")], trickle)

    assert status == 408
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"content-security-policy"] == settings.CONTENT_SECURITY_POLICY.encode()
