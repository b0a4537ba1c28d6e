"""Protocol routing. Kept apart from asgi.py so tests can build the same stack."""

import json
import tempfile
from urllib.parse import urlparse

from a2wsgi import WSGIMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier

from apps.core.request_body import (
    BodyTooLarge,
    ClientGone,
    declared_length,
    receive_body,
    replayed,
)
from apps.rooms.routing import websocket_urlpatterns as room_websocket_urlpatterns

websocket_urlpatterns: list = [*room_websocket_urlpatterns]


class OutboxPollerLifespan:
    """Wrap an app's lifespan: after its startup, start the embedded outbox poller (only when
    the channel layer is in-memory); before its shutdown, stop it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        from apps.projections.dispatch import start_outbox_poller, stop_outbox_poller

        async def wrapped_receive():
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                await stop_outbox_poller()
            return message

        async def wrapped_send(message):
            if message["type"] == "lifespan.startup.complete":
                start_outbox_poller()
            await send(message)

        return await self.app(scope, wrapped_receive, wrapped_send)


async def _refuse(scope, send, status: int, code: str, message: str, recovery: str, details):
    """Answer a request refused before the app: the API's error envelope on /api/, words for a
    page (its form cannot show JSON). The connection closes: the rest of the body is not read.
    Django's middleware never sees it, so it adds what that gives every other answer: the
    X-Request-ID, no content sniffing, the page policy."""
    from django.conf import settings

    from apps.core.errors import error_envelope
    from apps.core.middleware import request_id_from

    if scope["path"].startswith("/api/"):
        envelope = error_envelope(
            code=code, message=message, retryable=status == 408, recovery=recovery,
            details=details,
        )  # fmt: skip
        body, kind = json.dumps(envelope).encode(), b"application/json"
    else:
        body, kind = f"{message} {recovery}\n".encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    headers.append((b"connection", b"close"))
    asked_id = next((v for n, v in scope["headers"] if n.lower() == b"x-request-id"), b"")
    headers.append((b"x-request-id", request_id_from(asked_id.decode("latin-1")).encode()))
    headers.append((b"x-content-type-options", b"nosniff"))
    if settings.CONTENT_SECURITY_POLICY:
        headers.append((b"content-security-policy", settings.CONTENT_SECURITY_POLICY.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class WholeRequestFirst:
    """Reads a request's whole body on the event loop before the app gets it, as Django's ASGI
    handler does: a slow or stalled upload then holds no pool thread. The body is bounded in
    size (SAGASMITH_MAX_REQUEST_BYTES: 413) and in the time it may take to arrive
    (SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS: 408), so it can neither fill the disk nor hold a
    connection for ever. Also drops header names with an underscore, as Django does, so
    `X_Forwarded_For` cannot pass for `X-Forwarded-For`, and states the body's length, so a
    chunked body reaches the view."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        from django.conf import settings

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.SAGASMITH_MAX_REQUEST_BYTES
        seconds = settings.SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS
        too_large = (
            "request_too_large", f"The request body is larger than {limit} bytes.",
            "Send a smaller request.", {"limit": limit},
        )  # fmt: skip
        declared = declared_length(scope["headers"])
        body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
        try:
            try:
                size = await receive_body(
                    receive, body, limit=limit, seconds=seconds, declared=declared
                )
            except ClientGone:
                return
            except BodyTooLarge:
                await _refuse(scope, send, 413, *too_large)
                return
            except TimeoutError:
                await _refuse(
                    scope, send, 408, "request_timeout",
                    f"The request body did not arrive within {seconds:g} seconds.",
                    "Send the whole request at once.", {"limit_seconds": seconds},
                )  # fmt: skip
                return
            body.seek(0)
            headers = [
                (name, value)
                for name, value in scope["headers"]
                if b"_" not in name and name.lower() != b"content-length"
            ]
            if size or declared is not None:
                headers.append((b"content-length", str(size).encode()))
            await self.app({**scope, "headers": headers}, replayed(body, size, receive), send)
        finally:
            body.close()


def wsgi_over_asgi(django_wsgi):
    """Django's HTTP views, served from a fixed pool of threads.

    Every view is synchronous. Django's own ASGI handler starts a thread for each request and,
    with sync-only middleware in the chain, hops loop -> thread -> loop -> thread on the way in;
    served as WSGI, a request is one hand-off to a pooled thread that runs the whole chain.
    """
    from django.conf import settings

    from apps.core.checks import require_web_pool

    require_web_pool()  # refuse to start with threads the database pool cannot serve
    return WholeRequestFirst(WSGIMiddleware(django_wsgi, workers=settings.WEB_HTTP_THREADS))


def socket_scheme(scope, headers: dict[bytes, bytes]) -> str:
    """The scheme of the page's own origin, as `request.is_secure()` decides it for the HTTP
    API: the proxy's header when SECURE_PROXY_SSL_HEADER names one and it is sent, else the
    socket's own ("wss" is TLS)."""
    from django.conf import settings

    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        if name in headers:
            sent = headers[name].decode("latin1").split(",", 1)[0].strip()
            return "https" if sent == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def origin_verified(origin: str, good_origin: str) -> bool:
    """Django's CSRF Origin check: the page's own origin (scheme, host and port as asked), an
    exact CSRF_TRUSTED_ORIGINS entry, or a subdomain of a wildcard one on its scheme."""
    from django.conf import settings
    from django.utils.http import is_same_domain

    if origin == good_origin or origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        page = urlparse(origin)
    except ValueError:
        return False
    return any(
        is_same_domain(page.netloc, trusted.netloc.lstrip("*"))
        for trusted in map(urlparse, settings.CSRF_TRUSTED_ORIGINS)
        if trusted.scheme == page.scheme and trusted.netloc.startswith("*")
    )


class SameOriginSocket:
    """Inside Channels' check (the Origin's host name is in ALLOWED_HOSTS), a socket opens only
    from a page the HTTP API's CSRF check would let post: its own origin (the scheme and the
    Host it was asked on, port included) or a CSRF_TRUSTED_ORIGINS one. Host names alone would
    let a page on another port of an allowed host, or the plain-HTTP page of a TLS site, get
    the member's room with their cookie. A request without a Host header comes from no
    browser: only the outer check applies to it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        from django.conf import settings

        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin", b"").decode("latin1")
        host = headers.get(b"host", b"").decode("latin1")
        if settings.USE_X_FORWARDED_HOST and b"x-forwarded-host" in headers:
            host = headers[b"x-forwarded-host"].decode("latin1")  # as Django's get_host()
        good_origin = f"{socket_scheme(scope, headers)}://{host}"
        if host and not origin_verified(origin, good_origin):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)


def build_application(django_http):
    from apps.accounts.middleware import WebsocketAuthMiddleware
    from apps.saga.mcp_http import mount_saga_mcp

    http_app = mount_saga_mcp(django_http)
    return ProtocolTypeRouter(
        {
            "http": http_app,
            "lifespan": OutboxPollerLifespan(http_app),
            "websocket": AllowedHostsOriginValidator(
                SameOriginSocket(WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
