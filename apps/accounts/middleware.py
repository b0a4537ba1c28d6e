from importlib import import_module
from urllib.parse import urlencode, urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.models import AnonymousUser
from django.http import JsonResponse
from django.http.cookie import parse_cookie
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from apps.core.errors import error_envelope
from apps.core.exceptions import is_api_request

from .selectors import legal_acceptance_required
from .services import user_session_touch

TOUCH_EVERY_SECONDS = 60
# Paths a signed-in user may reach before accepting the current terms.
LEGAL_EXEMPT_PREFIXES = (
    "/legal/",
    "/accounts/logout/",
    "/account/tokens/",  # revoking one (creating one is "/account/tokens")
    "/static/",
    "/api/health",
    "/api/ready",
    "/.well-known/",
    "/admin/logout/",
    "/i18n/",
)
# Someone who declines changed terms can still see the account page, sign out elsewhere,
# change the password and deactivate the account; new tokens and names wait for acceptance.
LEGAL_EXEMPT_PATHS = frozenset(
    {"/account/", "/account/sessions/end-others", "/account/deactivate",
     "/accounts/password/change/"}
)  # fmt: skip


class UserSessionMiddleware:
    """Keeps a row per signed-in session so the account page can list and end them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is not None and user.is_authenticated and session is not None:
            now = timezone.now().timestamp()
            last = session.get("_touch", 0)
            if session.session_key and now - last > TOUCH_EVERY_SECONDS:
                session["_touch"] = now
                user_session_touch(
                    user=user,
                    session_key=session.session_key,
                    ip_address=request.META.get("REMOTE_ADDR") or None,
                    user_agent=request.headers.get("User-Agent", ""),
                )
        return response


class LegalAcceptanceMiddleware:
    """A signed-in user must accept the current terms before using anything else."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and not request.path.startswith(LEGAL_EXEMPT_PREFIXES)
            and request.path not in LEGAL_EXEMPT_PATHS
            and legal_acceptance_required(user=user)
        ):
            if is_api_request(request):
                return JsonResponse(
                    error_envelope(
                        code="terms_not_accepted",
                        message=_("Accept the current terms of service and privacy policy."),
                        recovery=_("Open /legal/accept in the browser."),
                    ),
                    status=403,
                )
            return redirect("/legal/accept?" + urlencode({"next": _return_to(request)}))
        return self.get_response(request)


def _return_to(request) -> str:
    """Where to go once the terms are accepted: this page, or for a form sent to a POST-only
    URL, the page the form was on (this site's, else home)."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(referer)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return "/"


def session_store(session_key: str | None):
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def session_user(session):
    """The user a session is signed in as, else AnonymousUser: Channels' `get_user`, synchronous.

    The same backend lookup (which refuses inactive users) and session-hash check (a password
    change ends other sessions), so a socket can re-check its session from a database thread.
    """
    user = None
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        pass
    else:
        if backend_path in settings.AUTHENTICATION_BACKENDS:
            user = load_backend(backend_path).get_user(user_id)
            if hasattr(user, "get_session_auth_hash"):
                session_hash = session.get(HASH_SESSION_KEY)
                if not (
                    session_hash
                    and constant_time_compare(session_hash, user.get_session_auth_hash())
                ):
                    session.flush()
                    user = None
    return user or AnonymousUser()


class WebsocketAuthMiddleware:
    """ASGI: the signed-in user of a websocket, from the session cookie, read at connect.

    Does what Channels' AuthMiddlewareStack does for a socket (the same session store and the same
    user lookup with its session-hash check) without wrapping `send`: that wrapper exists to save
    HTTP sessions, and it ran on every frame a room socket delivers. The room consumer repeats
    `session_user` on its heartbeat, so a socket ends with its session."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        cookies: dict[str, str] = {}
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        scope = {**scope, "cookies": cookies}
        scope["session"] = session_store(cookies.get(settings.SESSION_COOKIE_NAME))
        scope["user"] = await database_sync_to_async(session_user)(scope["session"])
        return await self.inner(scope, receive, send)
