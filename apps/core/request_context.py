"""The current request id, readable from services, tasks and log records; the request's trace."""

import re
import secrets
from contextvars import ContextVar

current_request_id: ContextVar[str] = ContextVar("current_request_id", default="")
current_ip: ContextVar[str | None] = ContextVar("current_ip", default=None)

# W3C trace context: version-traceid-parentid-flags.
# \Z, not $: "$" also matches before a final newline.
TRACEPARENT = re.compile(r"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}\Z")


def request_traceparent(request) -> str:
    """The trace the request's work continues: the active OpenTelemetry span (the Django
    instrumentation's, in production), else the client's well-formed `traceparent` header, else
    a new unsampled trace, so the work's records in web, worker and domain share one trace id."""
    from opentelemetry.propagate import inject

    carrier: dict[str, str] = {}
    inject(carrier)
    for value in (carrier.get("traceparent", ""), request.headers.get("traceparent", "")):
        # All-zero ids are invalid by the spec.
        if TRACEPARENT.match(value) and "0" * 32 not in value and "0" * 16 != value[36:52]:
            return value
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-00"
