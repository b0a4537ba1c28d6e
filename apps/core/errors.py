"""The one error hierarchy: services raise these, the API maps them to the envelope."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext_noop


class ApplicationError(Exception):
    code = "application_error"
    status = 400
    retryable = False
    recovery = ""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        retryable: bool | None = None,
        recovery: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        if retryable is not None:
            self.retryable = retryable
        if recovery is not None:
            self.recovery = recovery
        self.details = details or {}

    def as_envelope(self) -> dict[str, Any]:
        return error_envelope(
            code=self.code,
            message=self.message,
            retryable=self.retryable,
            recovery=self.recovery,
            details=self.details,
        )


def error_envelope(
    *, code: str, message: str, retryable: bool = False, recovery: str = "", details=None
) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "message": message,
            "retryable": retryable,
            "recovery": recovery,
            "details": details or {},
        }
    }


def throttled_envelope(wait: float | None) -> tuple[dict[str, Any], int]:
    """A 429's body and its Retry-After seconds (at least 1), wherever a limit refuses."""
    seconds = max(math.ceil(wait or 1), 1)  # a client that waits exactly this is let in
    body = error_envelope(
        code="throttled",
        message="Too many requests.",
        retryable=True,
        recovery=f"Wait {seconds} seconds and try again.",
        details={"retry_after": seconds},
    )
    return body, seconds


class ValidationFailed(ApplicationError):
    code = "invalid_request"
    status = 400
    recovery = "Correct the highlighted fields and try again."


class NotAuthenticated(ApplicationError):
    code = "not_authenticated"
    status = 401


class NotFound(ApplicationError):
    code = "not_found"
    status = 404
    recovery = gettext_noop(
        "Check the id in the address; what it names may have been deleted, or you may not"
        " have access to it."
    )


class PermissionDenied(ApplicationError):
    code = "permission_denied"
    status = 403


class Conflict(ApplicationError):
    code = "conflict"
    status = 409


class IdempotencyConflict(Conflict):
    code = "idempotency_conflict"
    recovery = "Use a new Idempotency-Key for a different request."


class QuotaExceeded(ApplicationError):
    code = "quota_exceeded"
    status = 402
    recovery = "Ask staff for a quota grant or wait for your plan's next grant."


class UpstreamUnavailable(ApplicationError):
    code = "upstream_unavailable"
    status = 503
    retryable = True
    recovery = "Try again shortly."
