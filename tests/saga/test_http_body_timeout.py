"""/mcp/saga gives a client a bounded time to send its request body."""

import time

import pytest
from asgiref.sync import sync_to_async

from apps.accounts.services import api_token_create
from tests.saga.test_mcp_blackbox import (  # noqa: F401 - fixture
    _create_user,
    _json_headers,
    _raw_post,
    http_server,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_http_answers_408_when_the_body_takes_longer_than_the_limit(
    http_server,  # noqa: F811
    django_user_model,
    settings,
):
    settings.SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS = 1
    user = await sync_to_async(_create_user)(django_user_model, email="slow@example.com")
    _, raw = await sync_to_async(api_token_create)(user=user, name="t")
    started = time.monotonic()
    # Ten of the hundred declared bytes arrive, then nothing: a stalled upload.
    status, headers, body = await _raw_post(
        http_server, _json_headers(raw, "Content-Length: 100"), [b'{"jsonrpc"']
    )
    assert 1 <= time.monotonic() - started < 5
    assert status == 408
    assert headers["connection"] == "close"
    assert body["error"] == {
        "code": "request_timeout",
        "message": "The request body did not arrive within 1 seconds.",
        "retryable": True,
        "recovery": "Send the whole request at once, then wait for the answer.",
        "details": {"limit_seconds": 1},
    }
    assert len(headers["x-request-id"]) == 32


async def test_http_default_body_time_limit_is_30_seconds():
    from apps.saga.mcp_http import body_timeout_seconds

    assert await sync_to_async(body_timeout_seconds)() == 30.0
