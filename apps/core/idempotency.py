"""Idempotency-Key handling for API writes: replay the stored response, 409 on a new request."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from .errors import ApplicationError, Conflict, IdempotencyConflict, ValidationFailed
from .models import IdempotencyRecord

HEADER = "Idempotency-Key"
MIN_LEN, MAX_LEN = 8, 160


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
                recovery=f"Send a unique {HEADER} header ({MIN_LEN}-{MAX_LEN} characters).",
            )
        return None
    if not (MIN_LEN <= len(key) <= MAX_LEN) or not key.isprintable():
        raise ValidationFailed(
            f"The {HEADER} header must be {MIN_LEN}-{MAX_LEN} printable characters.",
            code="idempotency_key_invalid",
        )
    return key


def idempotent_response(
    *, request, scope: str, handler: Callable[[], Response], required: bool = True
) -> Response:
    """Run handler once per (user, scope, key); replays return the stored response.

    Raises IdempotencyConflict when the key was used for a different request, and Conflict
    while the first request with the key is still running.
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
            raise IdempotencyConflict(
                "This Idempotency-Key was already used for a different request.",
                details={"key": key},
            ) from None
        if existing.status_code is None:
            raise Conflict(
                "A request with this Idempotency-Key is still in progress.",
                code="idempotency_in_progress",
                retryable=True,
                recovery="Retry shortly with the same key.",
            ) from None
        response = Response(existing.response_body, status=existing.status_code)
        response["Idempotent-Replay"] = "true"
        return response
    try:
        response = handler()
    except ApplicationError:
        # A failed attempt stores nothing, so the client may retry with the same key.
        record.delete()
        raise
    except Exception:
        record.delete()
        raise
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        status_code=response.status_code, response_body=response.data
    )
    return response
