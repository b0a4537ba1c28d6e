"""The one MCP client: every call from apps/ to a domain server goes through `domain_call`, and
every listing of its tools through `domain_list_tools`.

Each call mints a fresh delegation token for exactly that server and tool (architecture.md §6)
and sends it with `traceparent` in the request `_meta`. Connections are pooled per process: one
background event loop owns one `mcp.Client` per (system, target), an HTTP client with its own
connection pool or a managed stdio subprocess. The SDK's client is an async context manager
whose task group must be entered and left by the same task, so an owner task holds each
connection open while callers from any thread or loop submit calls to it. A connection that
drops is replaced on the next call; a fork (Celery prefork) gets a fresh runtime.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import os
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import httpx2
import jwt
from django.conf import settings
from django.utils.translation import gettext as _
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, INTERNAL_ERROR, REQUEST_TIMEOUT, CallToolResult, Tool
from pydantic import ValidationError

from apps.core.request_context import TRACEPARENT
from apps.domains.errors import (
    DomainError,
    DomainProtocolError,
    DomainTimeout,
    DomainUnavailable,
)
from apps.domains.keys import SigningKey, active_key
from apps.domains.registry import (
    DomainPlugin,
    HttpTarget,
    StdioTarget,
    Target,
    get_plugin,
    redact_passwords,
)

logger = logging.getLogger(__name__)

META_KEY = "io.sagasmith/delegation"
TOKEN_TYPE = "sagasmith-delegation+jwt"
HOST_ACTOR = "host:sagasmith-web"
DEFAULT_ISSUER = "sagasmith-web"
DEFAULT_LIFETIME = 60
MAX_LIFETIME = 300
CONNECT_TIMEOUT = 10.0  # stdio includes starting the interpreter; HTTP fails fast on loopback
# The longest a call may be given. httpx's read timeout sits at this backstop, never below a
# call's timeout: the SDK's per-request timeout ends one call (DomainTimeout, that request
# aborted), while an httpx timeout tears down the whole pooled transport, failing every call in
# flight on it as if the server were unreachable. Write and pool waits keep the server's
# timeout, so a request still queued for a connection is never sent long after its caller left.
MAX_CALL_TIMEOUT = 300.0


def _schema_breach(exc: RuntimeError, tool: str) -> bool:
    """Whether the SDK's output-schema check raised `exc` (its words, in mcp.client.session):
    a result that breaks the schema the server listed for `tool`."""
    return str(exc).startswith(
        (
            f"Invalid structured content returned by tool {tool}: ",
            f"Invalid schema for tool {tool}: ",
            f"Tool {tool} has an output schema but did not return structured content",
        )
    )


# -- delegation tokens -------------------------------------------------------------------------


@dataclass(frozen=True)
class Delegation:
    token: str
    kid: str
    claims: dict[str, Any]

    @property
    def jti(self) -> str:
        return self.claims["jti"]


def principal_for(user: Any) -> str:
    """The principal a domain server knows a user by: `user:<uuid>`."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        raise ValueError("a domain call needs an authenticated requester")
    return f"user:{user.pk}"


def principal_user_id(principal: str | None) -> uuid.UUID | None:
    """The user a `user:<uuid>` principal names (the inverse of principal_for); None for
    anything else."""
    if principal is None or not principal.startswith("user:"):
        return None
    try:
        return uuid.UUID(principal.removeprefix("user:"))
    except ValueError:
        return None


def delegation_mint(
    *,
    plugin: DomainPlugin,
    tool: str,
    requester: Any,
    campaign_id: str,
    base_rev: int,
    turn: str | None = None,
    character: str | None = None,
    owner: str | None = None,
    act: str | None = None,
    view: str | None = None,
    lifetime: int | None = None,
    signing_key: SigningKey | None = None,
    now: int | None = None,
) -> Delegation:
    """A token valid for exactly one tool on one server; `view="public"` narrows what the call
    answers (a read, a write's result) to what the public may see. Raises ValueError on a bad
    lifetime."""
    if lifetime is None:
        lifetime = int(getattr(settings, "SAGASMITH_DELEGATION_LIFETIME", DEFAULT_LIFETIME))
    if not 1 <= lifetime <= MAX_LIFETIME:
        raise ValueError(f"delegation lifetime must be 1..{MAX_LIFETIME} s, not {lifetime}")
    key = signing_key or active_key()
    issued = int(time.time()) if now is None else now
    sub = principal_for(requester)
    claims: dict[str, Any] = {
        "iss": getattr(settings, "SAGASMITH_DELEGATION_ISSUER", DEFAULT_ISSUER),
        "aud": plugin.audience,
        "sub": sub,
        "act": {"sub": act or HOST_ACTOR},
        "owner": owner or sub,
        "campaign": campaign_id,
        "base_rev": base_rev,
        # Exactly the tool called: never a list a later call could reuse, never a wildcard.
        "scope": tool,
        "iat": issued,
        "exp": issued + lifetime,
        "jti": uuid.uuid4().hex,
    }
    if character is not None:
        claims["character"] = character
    if turn is not None:
        claims["turn"] = turn
    if view is not None:
        claims["view"] = view
    token = jwt.encode(
        claims, key.private_key, algorithm="EdDSA", headers={"kid": key.kid, "typ": TOKEN_TYPE}
    )
    return Delegation(token=token, kid=key.kid, claims=claims)


def _trace_meta(traceparent: str | None) -> dict[str, str]:
    if traceparent is not None:
        if not TRACEPARENT.match(traceparent):
            raise ValueError(f"not a W3C traceparent: {traceparent!r}")
        return {"traceparent": traceparent}
    # Continue the current OpenTelemetry span when there is one; nothing otherwise.
    from opentelemetry.propagate import inject

    carrier: dict[str, str] = {}
    inject(carrier)
    return {k: v for k, v in carrier.items() if k in ("traceparent", "tracestate")}


# -- results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DomainResult:
    system_id: str
    tool: str
    structured: dict[str, Any]  # structuredContent
    content: list[dict[str, Any]]  # content blocks as JSON objects
    result: dict[str, Any]  # the full standard CallToolResult, as sent on the wire
    receipt: dict[str, Any] | None  # writes only
    delegation_kid: str
    delegation_jti: str

    @property
    def meta(self) -> dict[str, Any]:
        return self.result.get("_meta") or {}

    @property
    def authority_revision(self) -> int | None:
        if self.receipt is not None:
            return self.receipt["authority_revision"]
        return self.structured.get("authority_revision")

    @property
    def idempotent_replay(self) -> bool:
        return bool(self.meta.get("idempotent_replay"))


def _to_result(
    plugin: DomainPlugin, tool: str, result: CallToolResult, delegation: Delegation
) -> DomainResult:
    wire = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    structured = wire.get("structuredContent") or {}
    if result.is_error:
        error = structured.get("error") if isinstance(structured, dict) else None
        if isinstance(error, dict) and {"code", "message", "retryable", "recovery"} <= set(error):
            raise DomainError(
                str(error["message"]),
                domain_code=str(error["code"]),
                system_id=plugin.system_id,
                tool=tool,
                retryable=bool(error["retryable"]),
                recovery=str(error["recovery"]),
            )
        texts = [b.get("text", "") for b in wire.get("content", []) if b.get("type") == "text"]
        raise _protocol_error(
            plugin, tool, f"isError without the contract's error object: {' '.join(texts)}"
        )
    receipt = structured.get("receipt")
    return DomainResult(
        system_id=plugin.system_id,
        tool=tool,
        structured=structured,
        content=list(wire.get("content", [])),
        result=wire,
        receipt=receipt if isinstance(receipt, dict) else None,
        delegation_kid=delegation.kid,
        delegation_jti=delegation.jti,
    )


# -- pooled connections --------------------------------------------------------------------------


def _timed_out(plugin: DomainPlugin, tool: str, seconds: float) -> DomainTimeout:
    # Players know the game by its name; the system and tool ids are for operators.
    logger.warning(
        "The %s rules server at %s did not answer %s within %s s.",
        plugin.system_id, plugin.target.describe(), tool, seconds,
    )  # fmt: skip
    return DomainTimeout(
        _("The %(system)s rules server did not answer in time.") % {"system": plugin.label},
        details={"system_id": plugin.system_id, "tool": tool},
    )


def _unavailable(
    plugin: DomainPlugin, cause: BaseException | str, tool: str | None = None
) -> DomainUnavailable:
    """`tool`: the tool being called, if the outage met a tool call (not a listing)."""
    reason = cause if isinstance(cause, str) else _describe(cause)
    # Where the server runs and why it failed are for operators; the error reaches players.
    logger.warning(
        "The %s rules server at %s is unavailable: %s%s",
        plugin.system_id, plugin.target.describe(), redact_passwords(reason),
        f" (calling {tool})" if tool else "",
    )  # fmt: skip
    return DomainUnavailable(
        _("The %(system)s rules server is unavailable.") % {"system": plugin.label},
        details={"system_id": plugin.system_id, **({"tool": tool} if tool else {})},
    )


def _protocol_error(
    plugin: DomainPlugin, tool: str, reason: str, **details: Any
) -> DomainProtocolError:
    # The server's or SDK's own words (an unfollowed redirect names an internal URL) are for
    # operators; players see the message and the details (the API envelope, a job's error).
    logger.warning(
        "The %s rules server at %s answered %s outside the contract: %s",
        plugin.system_id, plugin.target.describe(), tool, redact_passwords(reason)[:500],
    )  # fmt: skip
    return DomainProtocolError(
        _("The %(system)s rules server gave an answer that this site cannot use.")
        % {"system": plugin.label},
        details={"system_id": plugin.system_id, "tool": tool, **details},
    )


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions)
    # Redacted before it is cut short, so no password is left half-masked at the cut.
    return redact_passwords(f"{type(exc).__name__}: {exc}")[:300]


class _Connection:
    """One entered `mcp.Client`, held open by an owner task on the runtime loop."""

    def __init__(self, plugin: DomainPlugin) -> None:
        self.plugin = plugin
        self.client: Client | None = None
        self.error: BaseException | None = None
        self._closing = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self.client is not None and self._task is not None and not self._task.done()

    async def open(self, tool: str | None = None) -> None:
        """`tool`: the tool call waiting on this connection, named if it cannot be opened."""
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._own(ready))
        try:
            await asyncio.wait_for(ready.wait(), CONNECT_TIMEOUT)
        except TimeoutError:
            self._task.cancel()
            raise _unavailable(self.plugin, "connecting timed out", tool) from None
        except BaseException:
            # The caller gave up (cancelled, or its own deadline passed) while connecting: the
            # connection is never pooled, so nothing else would ever close it.
            self._task.cancel()
            raise
        if self.client is None:
            raise _unavailable(self.plugin, self.error or "the connection closed at once", tool)

    async def _own(self, ready: asyncio.Event) -> None:
        target = self.plugin.target
        timeout = self.plugin.timeout
        try:
            if isinstance(target, HttpTarget):
                http = httpx2.AsyncClient(
                    timeout=httpx2.Timeout(
                        timeout, connect=CONNECT_TIMEOUT, read=max(timeout, MAX_CALL_TIMEOUT)
                    ),
                    limits=httpx2.Limits(max_connections=64, max_keepalive_connections=16),
                )
                async with (
                    http,
                    Client(
                        streamable_http_client(target.url, http_client=http),
                        cache=None,
                        read_timeout_seconds=timeout,
                    ) as client,
                ):
                    await self._serve(client, ready)
            else:
                assert isinstance(target, StdioTarget)
                params = StdioServerParameters(
                    command=target.command[0],
                    args=list(target.command[1:]),
                    # Merged over the SDK's minimal environment: the web's secrets (signing
                    # keys included) never reach a domain server.
                    env=dict(target.env) or None,
                    cwd=target.cwd or str(settings.BASE_DIR),
                )
                async with Client(params, cache=None, read_timeout_seconds=timeout) as client:
                    await self._serve(client, ready)
        except BaseException as exc:  # noqa: BLE001 - reported to whoever waits on `ready`
            self.error = exc
        finally:
            self.client = None
            ready.set()

    async def _serve(self, client: Client, ready: asyncio.Event) -> None:
        self.client = client
        ready.set()
        await self._closing.wait()

    async def close(self) -> None:
        self._closing.set()
        if self._task is not None and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 5)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()


class _Runtime:
    """A daemon thread running the event loop that owns every pooled connection."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="sagasmith-domain-client", daemon=True
        )
        self.thread.start()
        self.connections: dict[tuple[str, Target, float], _Connection] = {}
        self._locks: dict[tuple[str, Target, float], asyncio.Lock] = {}

    def submit(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def connection(
        self, plugin: DomainPlugin, tool: str | None = None
    ) -> tuple[_Connection, bool]:
        """The pooled connection for the plugin's target, and whether it was opened just now
        (for a call of `tool`, if given)."""
        key = (plugin.system_id, plugin.target, plugin.timeout)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            existing = self.connections.get(key)
            if existing is not None and existing.alive:
                return existing, False
            connection = _Connection(plugin)
            await connection.open(tool)
            self.connections[key] = connection
            return connection, True

    async def discard(self, connection: _Connection) -> None:
        for key, value in list(self.connections.items()):
            if value is connection:
                del self.connections[key]
        await connection.close()

    async def close_all(self) -> None:
        connections, self.connections = list(self.connections.values()), {}
        await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)


_runtime: _Runtime | None = None
_runtime_lock = threading.Lock()


def _get_runtime() -> _Runtime:
    global _runtime
    with _runtime_lock:
        # A forked child inherits the object but not the thread: start its own.
        if _runtime is None or _runtime.pid != os.getpid():
            _runtime = _Runtime()
        return _runtime


def domain_connections_close() -> None:
    """Close every pooled connection (stdio servers exit); the next call reconnects."""
    with _runtime_lock:
        runtime = _runtime
    if runtime is None or runtime.pid != os.getpid():
        return
    try:
        runtime.submit(runtime.close_all()).result(15)
    except (concurrent.futures.TimeoutError, RuntimeError):
        pass


atexit.register(domain_connections_close)


async def _pooled(
    runtime: _Runtime,
    plugin: DomainPlugin,
    use: Callable[[Any], Awaitable[Any]],
    tool: str | None = None,
) -> Any:
    """Runs on the runtime loop: `use(client)` on the plugin's pooled connection, reconnecting
    once if that connection went stale (a fresh one that closes is an outage). Any other error
    of `use` passes through. `tool`: the tool `use` calls, named in an outage."""
    for attempt in range(2):
        connection, fresh = await runtime.connection(plugin, tool)
        client = connection.client
        if client is None:
            raise _unavailable(plugin, connection.error or "the connection closed", tool)
        try:
            return await use(client)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise
            await runtime.discard(connection)
            # Writes carry an idempotency key, so a resend after a dropped pooled connection
            # replays rather than repeats.
            if not fresh and attempt == 0:
                continue
            raise _unavailable(plugin, connection.error or exc, tool) from exc
    raise AssertionError("unreachable")  # pragma: no cover


def domain_list_tools(plugin: DomainPlugin) -> list[Tool]:
    """Every tool of the plugin's server (`tools/list` needs no delegation), over the pooled
    connection, a stale one replaced once as in `domain_call`. Blocks; past the plugin's timeout
    plus two connects the listing is cancelled, not left running. Raises DomainUnavailable for
    any failure."""
    runtime = _get_runtime()
    if threading.current_thread() is runtime.thread:
        raise RuntimeError("domain_list_tools would deadlock on the client loop")

    async def list_tools() -> list[Tool]:
        listing = await _pooled(runtime, plugin, lambda client: client.list_tools())
        return list(listing.tools)

    future = runtime.submit(list_tools())
    try:
        # Two connects (a stale connection is replaced once) plus the listing itself.
        return future.result(plugin.timeout + 2 * CONNECT_TIMEOUT)
    except DomainUnavailable:
        raise
    except ValidationError as exc:
        raise _protocol_error(plugin, "tools/list", _describe(exc)) from exc
    except concurrent.futures.TimeoutError:
        # Nobody waits for it any more: stop it rather than let it run on in the client loop.
        future.cancel()
        raise _unavailable(plugin, "listing the tools timed out") from None
    except Exception as exc:
        raise _unavailable(plugin, exc) from exc


async def _dispatch(
    *,
    runtime: _Runtime,
    plugin: DomainPlugin,
    tool: str,
    arguments: dict[str, Any],
    mint: Callable[[], Delegation],
    trace: dict[str, str],
    timeout: float,
) -> DomainResult:
    """Runs on the runtime loop: call once, reconnecting once if a pooled connection went stale."""

    async def call(client: Any) -> DomainResult:
        # A fresh token per attempt: the server spends a jti as soon as it verifies it.
        delegation = mint()
        meta = {META_KEY: delegation.token, **trace}
        try:
            result = await client.call_tool(
                tool, arguments, read_timeout_seconds=timeout, meta=meta
            )
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                raise _timed_out(plugin, tool, timeout) from exc
            if exc.code == CONNECTION_CLOSED:
                raise  # _pooled replaces the connection once
            if exc.code == INTERNAL_ERROR:
                # The server faulted, or (the SDK's stand-in for any HTTP error status without a
                # JSON-RPC body) a gateway in front of it answered 502/503/504: a passing outage
                # to retry with the same idempotency key, not a server that broke the contract.
                raise _unavailable(plugin, f"{exc.message} (JSON-RPC {exc.code})", tool) from exc
            raise _protocol_error(
                plugin, tool, f"{exc.message} (JSON-RPC {exc.code})", rpc_code=exc.code
            ) from exc
        except ValidationError as exc:
            # The SDK could not parse the answer: the server broke the contract, and a resend
            # would replay the same stored answer.
            raise _protocol_error(plugin, tool, _describe(exc)) from exc
        except RuntimeError as exc:
            # Only the SDK's output-schema check blames the answer; any other RuntimeError (a
            # torn-down client, our own bug) is not the server's fault and stays as it is.
            if not _schema_breach(exc, tool):
                raise
            raise _protocol_error(plugin, tool, _describe(exc)) from exc
        return _to_result(plugin, tool, result, delegation)

    return await _pooled(runtime, plugin, call, tool)


def _prepare(
    *,
    system_id: str,
    tool: str,
    arguments: dict[str, Any],
    requester: Any,
    campaign_id: str,
    base_rev: int | None,
    turn: str | None,
    character: str | None,
    owner: str | None,
    act: str | None,
    view: str | None,
    traceparent: str | None,
    timeout: float | None,
) -> tuple[DomainPlugin, dict[str, Any], Callable[[], Delegation], dict[str, str], float]:
    plugin = get_plugin(system_id)
    arguments = dict(arguments)
    given = arguments.setdefault("campaign_id", campaign_id)
    if given != campaign_id:
        raise ValueError(f"arguments campaign_id {given!r} differs from campaign_id")
    if base_rev is None:
        # The revision the caller based the write on; reads carry 0 and the server ignores it.
        base_rev = int(arguments.get("expected_revision", 0))
    principal_for(requester)  # fail before any network work
    if timeout is not None and not 0 < timeout <= MAX_CALL_TIMEOUT:
        raise ValueError(
            f"a domain call timeout must be in (0, {MAX_CALL_TIMEOUT}] s, not {timeout}"
        )

    def mint() -> Delegation:
        return delegation_mint(
            plugin=plugin,
            tool=tool,
            requester=requester,
            campaign_id=campaign_id,
            base_rev=base_rev,
            turn=turn,
            character=character,
            owner=owner,
            act=act,
            view=view,
        )

    return plugin, arguments, mint, _trace_meta(traceparent), timeout or plugin.timeout


def domain_call(
    *,
    system_id: str,
    tool: str,
    arguments: dict[str, Any],
    requester: Any,
    campaign_id: str,
    base_rev: int | None = None,
    turn: str | None = None,
    character: str | None = None,
    owner: str | None = None,
    act: str | None = None,
    view: str | None = None,
    traceparent: str | None = None,
    timeout: float | None = None,
) -> DomainResult:
    """Call one domain tool as `requester` (never from arguments); blocks the calling thread.
    `view="public"` answers (a read, or a write's result) as the public sees it, whatever the
    requester may see; a write is still the requester's.

    Raises DomainError (the server's structured refusal), DomainUnavailable, DomainTimeout,
    DomainProtocolError, UnknownSystem. Do not hold a database transaction across this call.
    """
    plugin, arguments, mint, trace, seconds = _prepare(
        system_id=system_id, tool=tool, arguments=arguments, requester=requester,
        campaign_id=campaign_id, base_rev=base_rev, turn=turn, character=character,
        owner=owner, act=act, view=view, traceparent=traceparent, timeout=timeout,
    )  # fmt: skip
    runtime = _get_runtime()
    if threading.current_thread() is runtime.thread:
        raise RuntimeError("domain_call would deadlock on the client loop; use adomain_call")
    future = runtime.submit(
        _dispatch(
            runtime=runtime,
            plugin=plugin,
            tool=tool,
            arguments=arguments,
            mint=mint,
            trace=trace,
            timeout=seconds,
        )  # fmt: skip
    )
    try:
        # Two connects (a stale connection is replaced once) plus the call itself.
        return future.result(seconds + 2 * CONNECT_TIMEOUT + 1)
    except concurrent.futures.TimeoutError:
        future.cancel()
        raise _timed_out(plugin, tool, seconds + 2 * CONNECT_TIMEOUT + 1) from None


async def adomain_call(
    *,
    system_id: str,
    tool: str,
    arguments: dict[str, Any],
    requester: Any,
    campaign_id: str,
    base_rev: int | None = None,
    turn: str | None = None,
    character: str | None = None,
    owner: str | None = None,
    act: str | None = None,
    view: str | None = None,
    traceparent: str | None = None,
    timeout: float | None = None,
) -> DomainResult:
    """`domain_call` for async callers; the pooled connection still lives on the client loop.

    Raises what `domain_call` raises.
    """
    plugin, arguments, mint, trace, seconds = _prepare(
        system_id=system_id, tool=tool, arguments=arguments, requester=requester,
        campaign_id=campaign_id, base_rev=base_rev, turn=turn, character=character,
        owner=owner, act=act, view=view, traceparent=traceparent, timeout=timeout,
    )  # fmt: skip
    runtime = _get_runtime()
    future = runtime.submit(
        _dispatch(
            runtime=runtime,
            plugin=plugin,
            tool=tool,
            arguments=arguments,
            mint=mint,
            trace=trace,
            timeout=seconds,
        )  # fmt: skip
    )
    try:
        return await asyncio.wait_for(
            asyncio.wrap_future(future), seconds + 2 * CONNECT_TIMEOUT + 1
        )
    except TimeoutError:
        future.cancel()
        raise _timed_out(plugin, tool, seconds + 2 * CONNECT_TIMEOUT + 1) from None
