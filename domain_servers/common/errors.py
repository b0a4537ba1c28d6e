"""The contract's structured tool errors."""

from __future__ import annotations

import json
from typing import Any

from mcp_types import CallToolResult, TextContent

RETRYABLE = {
    "authorization_denied": False,
    "phase_denied": False,
    "stale_revision": True,
    "idempotency_conflict": False,
    "invalid_request": False,
    "not_found": False,
    "needs_ruling": False,
    "internal": True,
}

DEFAULT_RECOVERY = {
    "authorization_denied": "obtain a new delegation for this tool and campaign",
    "phase_denied": "change the campaign phase first or pick a tool allowed in this phase",
    "stale_revision": "refresh the campaign revision and retry with the same idempotency key",
    "idempotency_conflict": "use a new idempotency key for a different request",
    "invalid_request": "fix the arguments and retry",
    "not_found": "check the identifier; list the campaign or entity first",
    "needs_ruling": "ask the game master for a ruling and call again with it",
    "internal": "retry later with the same idempotency key",
}


class DomainError(Exception):
    """A refusal that becomes an `isError` result; nothing is committed when it is raised."""

    def __init__(self, code: str, message: str, recovery: str | None = None) -> None:
        if code not in RETRYABLE:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.recovery = recovery or DEFAULT_RECOVERY[code]

    def payload(self) -> dict[str, Any]:
        return {
            "error": {
                "code": self.code,
                "message": self.message,
                "retryable": RETRYABLE[self.code],
                "recovery": self.recovery,
            }
        }


def invalid(message: str) -> DomainError:
    return DomainError("invalid_request", message)


def denied(message: str) -> DomainError:
    return DomainError("authorization_denied", message)


def error_result(err: DomainError, meta: dict[str, Any] | None = None) -> CallToolResult:
    payload = err.payload()
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(payload, separators=(",", ":")))],
        structured_content=payload,
        is_error=True,
        _meta=meta or None,
    )
