"""The four Saga tools as an MCP server; shared by the stdio command and the HTTP mount."""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection
from mcp.server import MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import Field

from apps.core.errors import ApplicationError, NotAuthenticated, error_envelope

from . import selectors, services
from .evaluator import MAX_ISSUE_CHARS, MAX_VERDICT_ISSUES
from .profiles import PROFILE_IDS

logger = logging.getLogger(__name__)

# The authenticated user for the current tool call (set by the HTTP mount or the stdio command).
current_user: ContextVar[Any] = ContextVar("saga_mcp_user", default=None)

# No top-level "type" in these extras: the anyOf with null already carries it.
EVAL_RESULT_SCHEMA = {
    "properties": {
        "passed": {"type": "boolean"},
        "score": {"type": ["number", "null"]},
        "issues": {
            "type": "array",
            "maxItems": MAX_VERDICT_ISSUES,
            "items": {"type": "string", "maxLength": MAX_ISSUE_CHARS},
        },
        "escalate": {"type": "boolean"},
    },
    "required": ["passed"],
}
ARTIFACTS_SCHEMA = {
    "items": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
}
_DIAGNOSTIC_TEXTS = {
    "type": "array",
    "maxItems": services.MAX_DIAGNOSTIC_ITEMS,
    "items": {"type": "string", "maxLength": services.MAX_DIAGNOSTIC_ITEM_CHARS},
}
DIAGNOSTICS_SCHEMA = {
    "properties": {
        "searchedTerms": _DIAGNOSTIC_TEXTS,
        "urlsAttempted": {
            "type": "array",
            "maxItems": services.MAX_DIAGNOSTIC_ITEMS,
            "items": {
                "type": "object",
                "properties": {
                    "url": {"type": "string", "maxLength": services.MAX_DIAGNOSTIC_ITEM_CHARS},
                    "status": {},
                },
            },
        },
        "errorsCaught": _DIAGNOSTIC_TEXTS,
        "notes": {"type": "string", "maxLength": services.MAX_DIAGNOSTIC_NOTES_CHARS},
    },
}


def render_text(payload: dict[str, Any]) -> str:
    """A readable rendering of a structured result, for clients that show only text."""
    head = [f"{k}: {payload[k]}" for k in ("sagaId", "status", "nextAction") if k in payload]
    for key in ("notice", "stageId", "reason", "details", "message", "diagnostic"):
        if payload.get(key):
            head.append(f"{key}: {payload[key]}")
    if payload.get("questions"):
        head.append("questions:\n" + "\n".join(f"- {q}" for q in payload["questions"]))
    for key in ("workerContext", "evalPrompt", "planPrompt"):
        if payload.get(key):
            head.append(payload[key])
    display = (payload.get("progress") or {}).get("display")
    if display:
        head.append(display)
    if not head:
        head.append(json.dumps(payload, ensure_ascii=False, indent=2))
    return "\n\n".join(head)


def _error_result(envelope: dict[str, Any]) -> CallToolResult:
    error = envelope["error"]
    text = f"Error ({error['code']}): {error['message']}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=envelope, is_error=True
    )


def _run(fn, user, kwargs: dict[str, Any]) -> dict[str, Any]:
    close_old_connections()
    try:
        return fn(user=user, **kwargs)
    finally:
        # Worker threads come and go; never leave a connection behind in one.
        connection.close()


async def call_service(fn, fixed_user: Any = None, **kwargs: Any) -> CallToolResult:
    user = current_user.get() or fixed_user
    if user is None:
        return _error_result(
            error_envelope(
                code=NotAuthenticated.code, message="No authenticated user for this call."
            )
        )
    try:
        # Not thread-sensitive: concurrent calls run in parallel and meet at the row lock.
        payload = await sync_to_async(_run, thread_sensitive=False)(fn, user, kwargs)
    except ApplicationError as exc:
        return _error_result(exc.as_envelope())
    except Exception:
        logger.exception("saga tool %s failed", getattr(fn, "__name__", fn))
        return _error_result(
            error_envelope(
                code="internal_error", message="The saga tool failed unexpectedly.", retryable=True
            )
        )
    return CallToolResult(
        content=[TextContent(type="text", text=render_text(payload))], structured_content=payload
    )


def _size(n: int) -> str:
    """A byte count as the tool text states it: in MiB or KiB when it is a whole number of them."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def build_server(*, fixed_user: Any = None) -> MCPServer:
    """Build the MCP server; `fixed_user` serves stdio, where one user owns the process."""
    server = MCPServer(
        "sagasmith-saga",
        instructions=(
            "Saga long-task harness. saga_start a goal with a profile, then call saga_advance "
            "repeatedly and follow its nextAction. Artifacts: relative paths, at most "
            f"{_size(services.max_artifact_bytes())} each."
        ),
        log_level="WARNING",
    )

    @server.tool(
        name="saga_start",
        description="Start a saga for a goal with a profile (ops, research, curation, review, "
        "generic). Returns the sagaId and the first nextAction.",
    )
    async def saga_start(
        goal: Annotated[str, Field(description="What the long task must achieve.")],
        profile: Annotated[
            str, Field(description="Profile id.", json_schema_extra={"enum": list(PROFILE_IDS)})
        ],
        requestId: Annotated[  # noqa: N803
            str | None,
            Field(
                description="Optional client id for this start (at most "
                f"{services.MAX_REQUEST_ID_CHARS} characters). Retrying with the same "
                "requestId returns the saga the first call created (alreadyRecorded=true) "
                "instead of starting a second one.",
            ),
        ] = None,
    ) -> CallToolResult:
        return await call_service(
            services.saga_start, fixed_user, goal=goal, profile=profile, request_id=requestId
        )

    @server.tool(
        name="saga_advance",
        description="Advance a saga: submit planYaml, artifacts with workerFinished, a deep "
        "evalResult, humanInput or workerDiagnostics. Follow the returned nextAction.",
    )
    async def saga_advance(
        sagaId: Annotated[str, Field(description="The saga id from saga_start.")],  # noqa: N803
        planYaml: Annotated[  # noqa: N803
            str | None, Field(description="Plan markdown with ```yaml blocks per stage.")
        ] = None,
        workerFinished: Annotated[  # noqa: N803
            bool | None, Field(description="True when the worker finished the stage.")
        ] = None,
        stageId: Annotated[  # noqa: N803
            str | None,
            Field(
                description="With workerFinished: the stage that was finished (the stageId "
                "from worker_mode_queued). If that stage already passed, the call is a retry: "
                "nothing changes and the current status comes back with alreadyRecorded=true.",
            ),
        ] = None,
        artifacts: Annotated[
            list[dict[str, Any]] | None,
            Field(
                description="Files: [{path, content}]; relative paths, no '..', <= "
                f"{_size(services.max_artifact_bytes())} each and <= "
                f"{_size(services.max_total_artifact_bytes())} for all of a saga's artifacts.",
                json_schema_extra=ARTIFACTS_SCHEMA,
            ),
        ] = None,
        evalResult: Annotated[  # noqa: N803
            dict[str, Any] | None,
            Field(
                description="Deep verdict {passed, score, issues, escalate}.",
                json_schema_extra=EVAL_RESULT_SCHEMA,
            ),
        ] = None,
        humanInput: Annotated[  # noqa: N803
            str | None, Field(description="An answer or guidance from the human.")
        ] = None,
        workerDiagnostics: Annotated[  # noqa: N803
            dict[str, Any] | None,
            Field(
                description="{searchedTerms, urlsAttempted[{url,status}], errorsCaught, notes}",
                json_schema_extra=DIAGNOSTICS_SCHEMA,
            ),
        ] = None,
    ) -> CallToolResult:
        return await call_service(
            services.saga_advance,
            fixed_user,
            saga_id=sagaId,
            plan_yaml=planYaml,
            worker_finished=bool(workerFinished),
            artifacts=artifacts,
            eval_result=evalResult,
            human_input=humanInput,
            worker_diagnostics=workerDiagnostics,
            stage_id=stageId,
        )

    @server.tool(name="saga_status", description="Read-only snapshot of a saga.")
    async def saga_status(sagaId: str) -> CallToolResult:  # noqa: N803
        return await call_service(selectors.saga_status, fixed_user, saga_id=sagaId)

    @server.tool(name="saga_cancel", description="Cancel a saga (termination aborted_by_user).")
    async def saga_cancel(sagaId: str, reason: str | None = None) -> CallToolResult:  # noqa: N803
        return await call_service(services.saga_cancel, fixed_user, saga_id=sagaId, reason=reason)

    return server
