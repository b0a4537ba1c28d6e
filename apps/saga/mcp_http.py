"""Streamable HTTP mount of the Saga MCP server at /mcp/saga, in front of Django's ASGI app.

Bearer API tokens authenticate each request; the user reaches the tool handlers through a
contextvar. The SDK's session manager needs its task group, so this app runs it inside the
ASGI lifespan (uvicorn runs lifespan; daphne does not, and then /mcp/saga answers 503).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.http.request import split_domain_port, validate_host
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from apps.core.errors import NotAuthenticated, error_envelope, throttled_envelope
from apps.core.middleware import request_id_from
from apps.core.request_body import (
    BodyTooLarge,
    ClientGone,
    declared_length,
    receive_body,
    replayed,
)
from apps.core.request_context import current_request_id

from . import services
from .mcp_server import build_server, current_user

logger = logging.getLogger(__name__)
MOUNT_PATH = "/mcp/saga"
# Plan, humanInput, diagnostics and the JSON-RPC envelope together stay well below this.
REQUEST_OVERHEAD_BYTES = 4 * 1_048_576


def max_request_body_bytes() -> int:
    """Largest body the endpoint reads: the SDK buffers it whole before any field limit applies.

    A call can store no more than the saga's whole artifact allowance (per-artifact size times
    the per-call count is larger), and JSON escaping can double each character.
    """

    per_call = services.MAX_ARTIFACTS_PER_CALL * services.max_artifact_bytes()
    default = 2 * min(per_call, services.max_total_artifact_bytes()) + REQUEST_OVERHEAD_BYTES
    return int(getattr(settings, "SAGASMITH_SAGA_MAX_REQUEST_BYTES", default))


def body_timeout_seconds() -> float:
    """How long a client may take to send its whole body: past it, a slow or stalled upload
    would hold its connection and buffer forever."""
    return float(getattr(settings, "SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS", 30))


def transport_security_from_settings() -> TransportSecuritySettings:
    """Host/Origin allow-lists for the SDK from ALLOWED_HOSTS (wildcards: Django checks them)."""
    hosts: list[str] = []
    origins: list[str] = list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []))
    wildcard = False
    for host in settings.ALLOWED_HOSTS:
        if host == "*" or host.startswith("."):
            wildcard = True
            continue
        hosts += [host, f"{host}:*"]
        for scheme in ("http", "https"):
            origins += [f"{scheme}://{host}", f"{scheme}://{host}:*"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=not wildcard, allowed_hosts=hosts, allowed_origins=origins
    )


def _token_user(raw: str):
    from apps.accounts.selectors import api_token_user

    close_old_connections()
    try:
        return api_token_user(raw=raw)
    finally:
        connection.close()


def _over_user_limit(user) -> float | None:
    """The API's per-user limit, which counts every call (README), these too: None within it,
    else how long to wait."""
    from types import SimpleNamespace

    from apps.core.throttling import UserRateThrottle

    throttle = UserRateThrottle()
    if throttle.allow_request(SimpleNamespace(user=user), None):
        return None
    return throttle.wait() or 1.0  # DRF gives no wait when the window is full of entries


async def _json(send, status: int, body: dict[str, Any], headers: list | None = None) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ]
            + (headers or []),
        }
    )
    await send({"type": "http.response.body", "body": data})


class SagaMCPMount:
    def __init__(self, django_asgi) -> None:
        self.django_asgi = django_asgi
        self.session_manager: StreamableHTTPSessionManager | None = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        path = scope.get("path", "")
        if scope["type"] == "http" and (path == MOUNT_PATH or path.startswith(MOUNT_PATH + "/")):
            await self._mcp(scope, receive, send)
            return
        await self.django_asgi(scope, receive, send)

    async def _lifespan(self, receive, send) -> None:
        async with contextlib.AsyncExitStack() as stack:
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        server = build_server()
                        manager = StreamableHTTPSessionManager(
                            app=server._lowlevel_server,  # noqa: SLF001 - SDK has no public getter
                            json_response=True,
                            stateless=True,
                            security_settings=transport_security_from_settings(),
                        )
                        await stack.enter_async_context(manager.run())
                        self.session_manager = manager
                    except Exception as exc:
                        logger.exception("saga MCP startup failed")
                        await send({"type": "lifespan.startup.failed", "message": str(exc)})
                        return
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.session_manager = None
                    await stack.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return

    async def _mcp(self, scope, receive, send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        # Outside Django's middleware: every answer still carries its X-Request-ID (README).
        request_id = request_id_from(headers.get("x-request-id", ""))
        id_token = current_request_id.set(request_id)
        try:
            await self._mcp_answer(scope, receive, _with_request_id(send, request_id), headers)
        finally:
            current_request_id.reset(id_token)

    async def _mcp_answer(self, scope, receive, send, headers: dict[str, str]) -> None:
        domain, _port = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            await _json(send, 400, error_envelope(code="invalid_host", message="Invalid Host."))
            return
        auth = headers.get("authorization", "")
        scheme, _, raw = auth.partition(" ")
        user = None
        if scheme.lower() == "bearer" and raw.strip():
            user = await sync_to_async(_token_user, thread_sensitive=False)(raw.strip())
        if user is None:
            await _json(
                send,
                401,
                error_envelope(
                    code=NotAuthenticated.code,
                    message="Send a valid API token as 'Authorization: Bearer <token>'.",
                    recovery="Create a token on your account page.",
                ),
                [(b"www-authenticate", b'Bearer realm="saga"')],
            )
            return
        from apps.accounts.selectors import legal_acceptance_required

        if legal_acceptance_required(user=user):
            # As for the site and its API: no use of the product until the current terms are
            # accepted (the token stays valid for afterwards).
            await _json(
                send,
                403,
                error_envelope(
                    code="terms_not_accepted",
                    message="Accept the current terms of service and privacy policy.",
                    recovery="Open /legal/accept in the browser, then call again.",
                ),
            )
            return
        wait = await sync_to_async(_over_user_limit, thread_sensitive=False)(user)
        if wait is not None:
            body, seconds = throttled_envelope(wait)
            await _json(send, 429, body, [(b"retry-after", str(seconds).encode())])
            return
        if self.session_manager is None:
            await _json(
                send,
                503,
                error_envelope(
                    code="unavailable",
                    message="The MCP endpoint needs an ASGI server with lifespan.",
                    retryable=True,
                ),
            )
            return
        limit = max_request_body_bytes()
        seconds = body_timeout_seconds()
        body = io.BytesIO()
        try:
            size = await receive_body(
                receive, body, limit=limit, seconds=seconds,
                declared=declared_length(scope["headers"]),
            )  # fmt: skip
        except ClientGone:
            return
        except TimeoutError:
            await _json(
                send,
                408,
                error_envelope(
                    code="request_timeout",
                    message=f"The request body did not arrive within {seconds:g} seconds.",
                    retryable=True,
                    recovery="Send the whole request at once, then wait for the answer.",
                    details={"limit_seconds": seconds},
                ),
                [(b"connection", b"close")],
            )
            return
        except BodyTooLarge:
            await _json(
                send,
                413,
                error_envelope(
                    code="request_too_large",
                    message=f"The request body is larger than {limit} bytes.",
                    recovery="Send fewer or smaller artifacts per call.",
                    details={"limit": limit},
                ),
                [(b"connection", b"close")],
            )
            return
        body.seek(0)
        token = current_user.set(user)
        try:
            await self.session_manager.handle_request(scope, replayed(body, size, receive), send)
        finally:
            current_user.reset(token)


def _with_request_id(send, request_id: str):
    async def send_with_id(message) -> None:
        if message["type"] == "http.response.start":
            extra = [(b"x-request-id", request_id.encode("latin-1"))]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return send_with_id


def mount_saga_mcp(django_asgi):
    """Route /mcp/saga to the MCP app, everything else to Django; own the lifespan."""
    return SagaMCPMount(django_asgi)
