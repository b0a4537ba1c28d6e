"""Idempotency-Key handling for API writes: replay the stored response, 409 on a new request."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response

from .errors import Conflict, IdempotencyConflict, ValidationFailed
from .models import IdempotencyRecord

HEADER = "Idempotency-Key"
MIN_LEN, MAX_LEN = 8, 160
KEY_RECOVERY = (
    f"Send a unique key of {MIN_LEN} to {MAX_LEN} characters with each new request;"
    " reuse it only to retry the same request."
)
# An unfinished record is committed before its handler runs; one older than this belongs to a
# process that died before finishing it. Well above the slowest handler (character creation
# waits on a domain server: two attempts of up to 30 s each), so a live attempt is not taken over.
IN_PROGRESS_ABANDONED_AFTER = timedelta(minutes=5)


def request_fingerprint(request) -> str:
    body = request.data if hasattr(request, "data") else {}
    canonical = json.dumps(
        {"method": request.method, "path": request.path, "body": body},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotency_key_from(request, *, required: bool = True) -> str | None:
    key = request.headers.get(HEADER, "")
    if not key:
        if required:
            raise ValidationFailed(
                f"The {HEADER} header is required for this request.",
                code="idempotency_key_required",
                recovery=f"Send a unique {HEADER} header ({MIN_LEN} to {MAX_LEN} characters).",
                details={"header": HEADER},
            )
        return None
    # A header, not a form field: the message and recovery name it (nothing is "highlighted").
    if not (MIN_LEN <= len(key) <= MAX_LEN):
        raise ValidationFailed(
            f"The {HEADER} header must be {MIN_LEN} to {MAX_LEN} characters.",
            code="idempotency_key_invalid",
            recovery=KEY_RECOVERY,
            details={"header": HEADER},
        )
    if not key.isprintable():
        raise ValidationFailed(
            f"The {HEADER} header must contain only printable characters.",
            code="idempotency_key_invalid",
            recovery=KEY_RECOVERY,
            details={"header": HEADER},
        )
    return key


def idempotency_key_conflict(key: str) -> IdempotencyConflict:
    """The error for a key already used for a different request."""
    return IdempotencyConflict(
        "This Idempotency-Key was already used for a different request.", details={"key": key}
    )


def idempotency_key_hold(*, user, scope: str, key: str, marker: str) -> IdempotencyRecord:
    """An unsaved hold on `key` in `scope` for a request whose result is kept elsewhere (e.g. a
    job), for the caller to insert in the transaction that writes that result: the unique
    (user, scope, key) then gives the key to one request of the scope, `idempotent_response`'s
    included, also when both arrive at once (the later insert raises IntegrityError). `marker`
    (64 characters) stands for the request hash, so no stored response's request matches it."""
    return IdempotencyRecord(user=user, scope=scope, key=key, request_hash=marker)


def idempotency_key_held(*, user, scope: str, key: str) -> bool:
    """Whether a request of `scope` took `key` (a stored response, or a hold)."""
    return IdempotencyRecord.objects.filter(user=user, scope=scope, key=key).exists()


def idempotent_response(
    *,
    request,
    scope: str,
    handler: Callable[[], Response],
    required: bool = True,
    stored_body: Callable[[Any], Any] | None = None,
) -> Response:
    """Run handler once per (user, scope, key); replays return the stored response.

    `stored_body` maps the first response's body to what is stored and replayed, for a body
    holding a secret that must be shown once (by default the body is stored as is).

    Raises IdempotencyConflict when the key was used for a different request, and Conflict
    while the first request with the key is still running (an attempt unfinished for longer
    than IN_PROGRESS_ABANDONED_AFTER is taken over instead).
    """
    key = idempotency_key_from(request, required=required)
    if key is None:
        return handler()
    fingerprint = request_fingerprint(request)
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(
                user=request.user, scope=scope, key=key, request_hash=fingerprint
            )
    except IntegrityError:
        existing = IdempotencyRecord.objects.get(user=request.user, scope=scope, key=key)
        if existing.request_hash != fingerprint:
            raise idempotency_key_conflict(key) from None
        if existing.status_code is not None:
            response = Response(existing.response_body, status=existing.status_code)
            response["Idempotent-Replay"] = "true"
            return response
        if not idempotency_record_take_over(record=existing):
            raise Conflict(
                "A request with this Idempotency-Key is still in progress.",
                code="idempotency_in_progress",
                retryable=True,
                recovery="Retry shortly with the same key.",
            ) from None
        record = existing
    # updated_at is the claim: after a take-over, the abandoned attempt (should it still be
    # alive) no longer matches, so it can neither finish nor delete the new owner's record.
    mine = IdempotencyRecord.objects.filter(pk=record.pk, updated_at=record.updated_at)
    try:
        response = handler()
    except Exception:
        # A failed attempt stores nothing, so the client may retry with the same key.
        mine.delete()
        raise
    body = response.data if stored_body is None else stored_body(response.data)
    mine.update(status_code=response.status_code, response_body=body)
    return response


def idempotency_record_take_over(*, record: IdempotencyRecord) -> bool:
    """Claim an unfinished record left by an attempt that died; False while it may be running.

    The conditional UPDATE lets exactly one of several concurrent retries win.
    """
    now = timezone.now()
    taken = IdempotencyRecord.objects.filter(
        pk=record.pk,
        status_code__isnull=True,
        updated_at__lt=now - IN_PROGRESS_ABANDONED_AFTER,
    ).update(updated_at=now)
    if taken:
        record.updated_at = now
    return taken == 1
