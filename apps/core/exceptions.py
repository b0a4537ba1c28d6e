"""DRF exception handler and plain-Django error views, all producing the §8 envelope."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

from .errors import ApplicationError, NotAuthenticated, NotFound, error_envelope, throttled_envelope

logger = logging.getLogger(__name__)

_DRF_CODES = {
    400: "invalid_request",
    401: NotAuthenticated.code,
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    415: "unsupported_media_type",
    429: "throttled",
}


def _recovery(status: int, exc: drf_exceptions.APIException) -> str:
    """What to do about one of DRF's own errors (ours carry their recovery)."""
    if isinstance(exc, drf_exceptions.ValidationError):
        return _("Fix the fields named in details.fields and send the request again.")
    if status == 401:
        return _("Sign in, then try again.")
    if _is_csrf_refusal(exc):
        return _csrf_recovery()
    if status == 404:
        return _not_found_recovery()
    if isinstance(exc, drf_exceptions.MethodNotAllowed):
        return _("Use one of the methods in the Allow header.")
    if isinstance(exc, drf_exceptions.UnsupportedMediaType):
        return _("Send the body as application/json.")
    if isinstance(exc, drf_exceptions.ParseError):
        return _("Send the body as valid JSON (UTF-8), then try again.")
    return ""


def _is_csrf_refusal(exc) -> bool:
    # DRF's session authentication refuses a missing or stale token with this detail.
    return isinstance(exc, drf_exceptions.PermissionDenied) and str(exc.detail).startswith(
        "CSRF Failed"
    )


# Functions, not constants: gettext picks the request's language when called.
def _csrf_recovery() -> str:
    return _("Reload the page to get a fresh CSRF token, then try again.")


def _not_found_recovery() -> str:
    return _(NotFound.recovery)


def _flatten(detail):
    if isinstance(detail, dict):
        return {k: _flatten(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_flatten(v) for v in detail]
    return str(detail)


def api_exception_handler(exc, context):
    if isinstance(exc, drf_exceptions.NotAuthenticated) and context.get("request") is not None:
        from .authentication import token_refusal_for

        exc = token_refusal_for(context["request"]) or exc
    if isinstance(exc, ApplicationError):
        return Response(exc.as_envelope(), status=exc.status)
    if isinstance(exc, SuspiciousOperation):
        # Django's request limits (body size, number of fields) and malformed requests.
        too_big = isinstance(exc, RequestDataTooBig)
        body = error_envelope(
            code="payload_too_large" if too_big else "invalid_request",
            message="The request body is too large." if too_big else "The request is malformed.",
            retryable=False,
            recovery="Send a smaller request." if too_big else "Correct the request and resend it.",
        )
        return Response(body, status=413 if too_big else 400)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    if isinstance(exc, drf_exceptions.APIException):
        status = exc.status_code
        if isinstance(exc, drf_exceptions.Throttled):
            body, seconds = throttled_envelope(exc.wait)
            return Response(body, status=status, headers={"Retry-After": str(seconds)})
        if isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
            # Session auth has no challenge; report 401 so clients know to sign in.
            status = 401
        details: dict = {}
        if isinstance(exc, drf_exceptions.ValidationError):
            details = {"fields": _flatten(exc.detail)}
            message = _("The request has invalid fields.")
        else:
            message = str(exc.detail)
        body = error_envelope(
            code=_DRF_CODES.get(status, "error"),
            message=message,
            recovery=_recovery(status, exc),
            details=details,
        )
        return Response(body, status=status)
    logger.exception("Unhandled API error", exc_info=exc)
    return Response(
        error_envelope(
            code="internal",
            message="An unexpected error occurred.",
            retryable=True,
            recovery="Try again; if it persists, report the request id.",
        ),
        status=500,
    )


def _json_error(status: int, code: str, message: str, recovery: str = "") -> JsonResponse:
    return JsonResponse(
        error_envelope(code=code, message=message, retryable=status >= 500, recovery=recovery),
        status=status,
    )


def is_api_request(request) -> bool:
    """Whether errors for this request are answered as the JSON envelope."""
    return request.path.startswith("/api/")


def handler400(request, exception=None):
    if is_api_request(request):
        return _json_error(400, "invalid_request", "The request is malformed.")
    from django.views.defaults import bad_request

    return bad_request(request, exception)


class PageNotFound(Http404):
    """A page that is not there for this viewer, with a message saying why. Pages (not the
    API) show it on the site's own 404 page, in DEBUG too."""


def page_not_found_page(request, exception: PageNotFound):
    from django.shortcuts import render

    return render(request, "404.html", {"message": str(exception)}, status=404)


def handler404(request, exception=None):
    if is_api_request(request):
        return api_not_found(request)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def api_not_found(request, *args, **kwargs):
    return _json_error(
        404,
        "not_found",
        _("Not found."),
        _("Check the address against the API documentation at /api/docs/."),
    )


def handler500(request):
    if is_api_request(request):
        return _json_error(500, "internal", "An unexpected error occurred.")
    from django.views.defaults import server_error

    return server_error(request)


def handler403(request, exception=None):
    if is_api_request(request):
        return _json_error(403, "permission_denied", "You do not have permission to do that.")
    from django.views.defaults import permission_denied

    return permission_denied(request, exception)


def csrf_failure(request, reason=""):
    if is_api_request(request):
        return _json_error(
            403, "csrf_failed", f"CSRF verification failed: {reason}", _csrf_recovery()
        )
    from django.views.csrf import csrf_failure as default

    return default(request, reason=reason)
