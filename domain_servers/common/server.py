"""The server factory: one set of handlers served over stdio and stateless Streamable HTTP.

Every `tools/call` runs the contract's checks in order (hygiene, schema, delegation, role,
phase, idempotency, revision) before a handler sees the arguments; a write's state change,
revision bump, idempotency record and event commit in one storage transaction.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mcp.server import MCPServer
from mcp_types import (
    CallToolRequestParams,
    CallToolResult,
    ContentBlock,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from domain_servers.common.delegation import (
    CLOCK_SKEW,
    META_KEY,
    DelegationVerifier,
    check_base_rev,
    check_call,
)
from domain_servers.common.errors import DomainError, denied, error_result, invalid
from domain_servers.common.hygiene import check_hygiene, validate
from domain_servers.common.random_stream import RandomStream
from domain_servers.common.storage import Storage, WriteRecord
from domain_servers.common.text import KEY_PATTERN, LINE_PATTERN, PROSE_PATTERN

logger = logging.getLogger("domain_servers")

ALL_ROLES = frozenset({"owner", "gm", "player", "observer"})
GM_ROLES = frozenset({"owner", "gm"})
PLAYING_ROLES = frozenset({"owner", "gm", "player"})
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,79}$"
PRINCIPAL_PATTERN = r"^[a-z]+:[A-Za-z0-9._:@-]{1,120}$"
# Used with fullmatch: `$` would let a trailing newline through.
_TRACEPARENT = re.compile(r"[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")

CAMPAIGN_ID_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": 80,
    "pattern": ID_PATTERN,
    "description": "Campaign identifier; must equal the delegation's campaign claim.",
}
EXPECTED_REVISION_SCHEMA = {
    "type": "integer",
    "minimum": 0,
    "maximum": 2**53,
    "description": "The campaign revision this write is based on (compare-and-set).",
}
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    # The storage column's size.
    "maxLength": 200,
    "pattern": KEY_PATTERN,
    "description": (
        "Caller-chosen key of printable ASCII; a retry with the same key and request replays "
        "the result."
    ),
}
# Receipts are described by their required keys only: clients validate every result against
# the output schema, and nested property checks doubled that cost on the hot path.
RECEIPT_SCHEMA = {
    "type": "object",
    "description": (
        "What this write changed: authority_revision, previous_revision, changed_scopes "
        "(sorted), entity_ids (sorted), audience, idempotency_key."
    ),
    "required": [
        "authority_revision",
        "previous_revision",
        "changed_scopes",
        "entity_ids",
        "audience",
        "idempotency_key",
    ],
}
RANDOM_RECEIPT_SCHEMA = {
    "type": "object",
    "description": (
        "Where this result's draws came from: algorithm, seed_fingerprint, position_before, "
        "position_after, draw_count."
    ),
    "required": [
        "algorithm",
        "seed_fingerprint",
        "position_before",
        "position_after",
        "draw_count",
    ],
}


def string(
    description: str, max_length: int = 200, *, prose: bool = False, **extra: Any
) -> dict[str, Any]:
    """A string argument. Free text by default: one line without control characters, or
    with `prose` several lines (line feeds and tabs); `pattern` in `extra` replaces that."""
    return {
        "type": "string",
        "maxLength": max_length,
        "pattern": PROSE_PATTERN if prose else LINE_PATTERN,
        "description": description,
        **extra,
    }


def integer(description: str, minimum: int, maximum: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "description": description}


def boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def identifier(description: str) -> dict[str, Any]:
    return {"type": "string", "maxLength": 80, "pattern": ID_PATTERN, "description": description}


def principal(description: str) -> dict[str, Any]:
    return {
        "type": "string",
        "maxLength": 160,
        "pattern": PRINCIPAL_PATTERN,
        "description": description,
    }


def string_list(description: str, max_items: int, item_max_length: int = 80) -> dict[str, Any]:
    return {
        "type": "array",
        "maxItems": max_items,
        "uniqueItems": True,
        "items": {
            "type": "string",
            "maxLength": item_max_length,
            "minLength": 1,
            "pattern": LINE_PATTERN,
        },
        "description": description,
    }


# A write's result as the public sees it: given an observer's Call (no member in particular, on
# the campaign as it is at the answer: just written, or for a replay as it is by then) and the
# result its requester was answered (a fresh copy it may change), the result without what the
# public may not see. The receipts are kept as stored whatever it returns.
PublicResult = Callable[["Call", dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    handler: Callable[[Call], Any]
    write: bool
    roles: frozenset[str]
    phases: frozenset[str] | None  # None: every phase
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    output: dict[str, dict[str, Any]] = field(default_factory=dict)
    destructive: bool = False
    creates_campaign: bool = False
    # Writes: how a delegation narrowed to the public view is answered. None: such a
    # delegation may not call the write (a result nobody said how to narrow is not shown).
    public: PublicResult | None = None

    def input_schema(self) -> dict[str, Any]:
        properties: dict[str, Any] = {"campaign_id": CAMPAIGN_ID_SCHEMA, **self.params}
        required = ["campaign_id", *self.required]
        if self.write:
            properties["expected_revision"] = EXPECTED_REVISION_SCHEMA
            properties["idempotency_key"] = IDEMPOTENCY_KEY_SCHEMA
            required += ["expected_revision", "idempotency_key"]
        return {
            "type": "object",
            "properties": properties,
            "required": sorted(required),
            "additionalProperties": False,
        }

    def output_schema(self) -> dict[str, Any]:
        properties = dict(self.output)
        if self.write:
            properties["receipt"] = RECEIPT_SCHEMA
            required = ["receipt"]
        else:
            properties["authority_revision"] = {
                "type": "integer",
                "description": "The campaign revision this view was built from.",
            }
            required = ["authority_revision"]
        if any("random_stream_receipt" == name for name in self.output):
            required.append("random_stream_receipt")
        return {"type": "object", "properties": properties, "required": sorted(required)}


@dataclass
class Outcome:
    """What a write handler returns: its result plus the receipt facts."""

    result: dict[str, Any]
    scopes: Iterable[str]
    entity_ids: Iterable[str] = ()
    audience: str = "public"


@dataclass
class View:
    """What a read handler returns; `content` adds blocks such as an image."""

    data: dict[str, Any]
    content: list[ContentBlock] = field(default_factory=list)


@dataclass
class Call:
    """Everything a handler may use; identity comes only from the verified delegation."""

    system_id: str
    tool: str
    args: dict[str, Any]
    campaign_id: str
    state: dict[str, Any]
    revision: int
    requester: str
    actor: str
    character: str | None
    role: str | None
    _rng: RandomStream | None = None

    @property
    def audience(self) -> str:
        return audience_for(self.role, self.requester)

    @property
    def is_gm(self) -> bool:
        return self.role in GM_ROLES

    @property
    def rng(self) -> RandomStream:
        if self._rng is None:
            self._rng = RandomStream.from_state(self.state["random_stream"])
        return self._rng

    def new_id(self, prefix: str) -> str:
        # Sequential ids keep a fixed call sequence fully reproducible.
        seq = self.state.get("next_seq", 1)
        self.state["next_seq"] = seq + 1
        return f"{prefix}-{seq}"


def nothing_hidden(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """The `public` of a write whose result holds nothing the public may not see."""
    return result


def public_part(key: str, view: Callable[[Call, Any], Any]) -> PublicResult:
    """The `public` of a write whose result's `key` is what a read shows through `view`
    (e.g. a character card): that part as the public reads it."""

    def public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
        return {**result, key: view(call, result[key])}

    return public


def as_observer(call: Call) -> Call:
    """The call as the public sees its campaign: an observer who is no member in particular,
    so nothing addressed to the requester alone shows."""
    return dataclasses.replace(call, requester="", character=None, role="observer", _rng=None)


def audience_for(role: str | None, requester: str) -> str:
    if role in GM_ROLES:
        return "gm"
    if role == "player":
        return f"player:{requester}"
    return "public"


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class _Stage:
    """How far a call got, so an unexpected fault is reported truthfully."""

    step: str = "before"  # "before" the save, "saving", or "saved" (committed)


_AFTER_SAVE_RECOVERY = "retry with the same idempotency key; the committed result is replayed"
# A fault once the write may be saved is still `internal` (retryable): the same idempotency key
# replays a committed write, or runs it again if it was not committed.
_FAULTS = {
    "before": DomainError("internal", "unexpected server fault; nothing was committed"),
    "saving": DomainError(
        "internal",
        "unexpected server fault while saving the write; it may have been committed: retry "
        "with the same idempotency key, which replays it if it was",
        _AFTER_SAVE_RECOVERY,
    ),
    "saved": DomainError(
        "internal",
        "unexpected server fault after the write was committed; retry with the same "
        "idempotency key to get its result",
        _AFTER_SAVE_RECOVERY,
    ),
}


class DomainServer:
    """A game system's tools plus the shared contract machinery."""

    def __init__(
        self,
        system_id: str,
        title: str,
        tools: Iterable[ToolSpec],
        storage: Storage,
        verifier: DelegationVerifier,
    ) -> None:
        self.system_id = system_id
        self.title = title
        self.storage = storage
        self.verifier = verifier
        self.tools = {tool.name: tool for tool in tools}
        self._schemas = {name: spec.input_schema() for name, spec in self.tools.items()}
        self._catalog = ListToolsResult(
            tools=[
                Tool(
                    name=spec.name,
                    title=spec.name.replace("_", " "),
                    description=spec.description,
                    input_schema=self._schemas[spec.name],
                    output_schema=spec.output_schema(),
                    annotations=ToolAnnotations(
                        read_only_hint=not spec.write,
                        destructive_hint=spec.destructive,
                        idempotent_hint=True,
                        open_world_hint=False,
                    ),
                )
                for spec in sorted(self.tools.values(), key=lambda s: s.name)
            ]
        )

    # -- MCP wiring -------------------------------------------------------------------------

    def build_mcp(self) -> MCPServer:
        server = MCPServer(
            name=f"sagasmith-{self.system_id}",
            title=self.title,
            version="0.1.0",
            instructions=(
                f"Authoritative {self.title} rules. Every tools/call needs a delegation token in "
                f"_meta[{META_KEY!r}]; writes need expected_revision and idempotency_key."
            ),
            log_level="WARNING",
        )
        low = server._lowlevel_server
        low.add_request_handler("tools/list", PaginatedRequestParams, self._on_list_tools)
        low.add_request_handler("tools/call", CallToolRequestParams, self._on_call_tool)
        low.get_tool_input_schema = self._schemas.get
        return server

    async def _on_list_tools(self, ctx: Any, params: Any) -> ListToolsResult:
        return self._catalog

    async def _on_call_tool(self, ctx: Any, params: CallToolRequestParams) -> CallToolResult:
        meta = dict(params.meta or {})
        return await self.call(params.name, params.arguments, meta)

    # -- the call pipeline ------------------------------------------------------------------

    async def call(self, name: str, arguments: Any, meta: dict[str, Any]) -> CallToolResult:
        result_meta: dict[str, Any] = {}
        traceparent = meta.get("traceparent")
        if isinstance(traceparent, str) and _TRACEPARENT.fullmatch(traceparent):
            result_meta["traceparent"] = traceparent
            tracestate = meta.get("tracestate")
            if isinstance(tracestate, str) and len(tracestate) <= 512:
                result_meta["tracestate"] = tracestate
        stage = _Stage()
        try:
            return await self._call(
                name, arguments if arguments is not None else {}, meta, result_meta, stage
            )
        except DomainError as err:
            return error_result(err, result_meta)
        except Exception:
            logger.exception("tool %s failed unexpectedly (%s)", name, stage.step)
            return error_result(_FAULTS[stage.step], result_meta)

    async def _call(
        self,
        name: str,
        args: Any,
        meta: dict[str, Any],
        result_meta: dict[str, Any],
        stage: _Stage,
    ) -> CallToolResult:
        spec = self.tools.get(name)
        if spec is None:
            raise invalid(f"unknown tool {name!r}")
        check_hygiene(args, self._schemas[name])
        validate(self._schemas[name], args, "arguments")

        now = time.time()
        delegation = self.verifier.verify(meta.get(META_KEY), now)
        campaign_id = args["campaign_id"]
        scope = f"{self.system_id}:{campaign_id}"
        fresh, loaded, stored = await self.storage.run(
            self.storage.prepare,
            delegation.jti,
            delegation.exp + CLOCK_SKEW,
            now,
            campaign_id,
            scope,
            args["idempotency_key"] if spec.write else None,
        )
        # The checks below only read what `prepare` fetched, so their order is the contract's.
        if not fresh:
            raise denied("delegation jti was already used")
        check_call(delegation, name, campaign_id)
        if delegation.view is not None and spec.write and spec.public is None:
            # Fail closed: a result nobody said how to narrow is not answered narrowed.
            raise denied(
                f"a delegation that narrows the view may not call {name}, whose result has no "
                "public view"
            )

        role: str | None
        if spec.creates_campaign:
            revision, state = (0, {}) if loaded is None else loaded
            role = None if loaded is None else state["members"].get(delegation.requester)
        else:
            if loaded is None:
                raise DomainError("not_found", f"campaign {campaign_id} does not exist")
            revision, state = loaded
            role = state["members"].get(delegation.requester)
            if role is None:
                raise denied("the requester is not a member of this campaign")
            if role not in spec.roles:
                raise denied(f"role {role} may not call {name}")

        # The role and phase are the requester's, and so is every write: the view narrows only
        # what the answer shows, never what the call may do.
        call = Call(
            system_id=self.system_id,
            tool=name,
            args=args,
            campaign_id=campaign_id,
            state=state,
            revision=revision,
            requester=delegation.requester,
            actor=delegation.actor,
            character=delegation.character,
            role=role,
        )
        # Shares the state document: after a write's handler it sees the state it committed.
        seen_by = as_observer(call) if delegation.view == "public" else None

        request_hash = ""
        if spec.write:
            # The same key and request replays even after phase or revision moved on, so a
            # recovering caller always gets back what was committed.
            request_hash = hashlib.sha256(
                canonical(
                    {"tool": name, "arguments": args, "requester": delegation.requester}
                ).encode()
            ).hexdigest()
            replay = self._replay(
                stored, args["idempotency_key"], request_hash, result_meta, spec, seen_by
            )
            if replay is not None:
                return replay
            if spec.creates_campaign and loaded is not None:
                raise invalid(f"campaign {campaign_id} already exists")

        if spec.phases is not None and state.get("phase") not in spec.phases:
            allowed = ", ".join(sorted(spec.phases))
            raise DomainError(
                "phase_denied",
                f"{name} is not allowed in phase {state.get('phase')}; allowed: {allowed}",
            )

        if spec.write:
            expected = args["expected_revision"]
            check_base_rev(delegation, expected)
            if expected != revision:
                raise DomainError(
                    "stale_revision",
                    f"expected_revision {expected} is not the current revision {revision}",
                )

        if not spec.write:
            view = spec.handler(seen_by or call)
            data = {**view.data, "authority_revision": revision}
            text = TextContent(type="text", text=canonical(data))
            return CallToolResult(
                content=[text, *view.content], structured_content=data, _meta=result_meta or None
            )

        outcome: Outcome = spec.handler(call)
        result = dict(outcome.result)
        if call._rng is not None and call._rng.draws:
            result["random_stream_receipt"] = call._rng.receipt()
            call.state["random_stream"]["position"] = call._rng.position
        result["receipt"] = {
            "authority_revision": revision + 1,
            "previous_revision": revision,
            "changed_scopes": sorted(set(outcome.scopes)),
            "entity_ids": sorted(set(outcome.entity_ids)),
            "audience": outcome.audience,
            "idempotency_key": args["idempotency_key"],
        }
        response = canonical(result)
        record = WriteRecord(
            campaign_id=campaign_id,
            expected_revision=revision,
            creating=spec.creates_campaign,
            state=call.state,
            scope=scope,
            key=args["idempotency_key"],
            request_hash=request_hash,
            response=response,
            tool=name,
            requester=delegation.requester,
            actor=delegation.actor,
            turn=delegation.turn,
            changed_scopes=result["receipt"]["changed_scopes"],
        )
        stage.step = "saving"
        status = await self.storage.run(self.storage.commit_write, record)
        if status in ("ok", "duplicate"):
            stage.step = "saved"
        if status in ("duplicate", "stale"):
            # A concurrent call with this key may have committed since `prepare`: on PostgreSQL
            # the loser's revision check fails before its key's insert would, so a stale write
            # looks for the key too, and replays what the winner committed.
            stored = await self.storage.run(self.storage.idempotency_get, scope, record.key)
            replay = self._replay(
                stored, args["idempotency_key"], request_hash, result_meta, spec, seen_by
            )
            if replay is not None:
                return replay
        if status != "ok":
            raise DomainError(
                "stale_revision", f"campaign revision moved past {revision} during the call"
            )
        # The first answer is built from the stored text too, so a replay matches it exactly.
        return self._answer(response, result_meta, spec, seen_by, replay=False)

    def _replay(
        self,
        stored: tuple[str, str] | None,
        key: str,
        request_hash: str,
        result_meta: dict[str, Any],
        spec: ToolSpec,
        seen_by: Call | None,
    ) -> CallToolResult | None:
        if stored is None:
            return None
        stored_hash, response = stored
        if stored_hash != request_hash:
            raise DomainError(
                "idempotency_conflict",
                f"idempotency key {key!r} was already used for a different request",
            )
        return self._answer(response, result_meta, spec, seen_by, replay=True)

    @staticmethod
    def _answer(
        response: str,
        result_meta: dict[str, Any],
        spec: ToolSpec,
        seen_by: Call | None,
        *,
        replay: bool,
    ) -> CallToolResult:
        """A write's answer from its stored response, which is always the requester's answer,
        never narrowed: byte for byte, or for a delegation narrowed to the public view
        (`seen_by`, the observer's call) as the tool's `public` narrows it, with the receipts
        as stored. So a replay answers at the view its own token asks for, whatever the first
        send asked, and nothing the requester was answered is lost to a narrowed first send."""
        meta = {**result_meta, "idempotent_replay": replay}
        stored = json.loads(response)
        if seen_by is None:
            return CallToolResult(
                content=[TextContent(type="text", text=response)],
                structured_content=stored,
                _meta=meta,
            )
        if spec.public is None:  # refused before anything ran; never answered in full
            raise denied(f"{spec.name} has no public view of its result")
        shown = spec.public(seen_by, json.loads(response))
        for receipt in ("receipt", "random_stream_receipt"):
            if receipt in stored:
                shown[receipt] = stored[receipt]
        return CallToolResult(
            content=[TextContent(type="text", text=canonical(shown))],
            structured_content=shown,
            _meta=meta,
        )
