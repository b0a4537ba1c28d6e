"""The `openai` provider: any OpenAI-compatible chat-completions endpoint with tool calling.

Settings (Django settings first, then the environment of the same name):
    SAGASMITH_OPENAI_BASE_URL   e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1
                                (or the same ending in /chat/completions)
    SAGASMITH_OPENAI_MODEL      the model name the endpoint expects
    SAGASMITH_OPENAI_API_KEY    sent as a Bearer token when set (local servers may need none)
    SAGASMITH_OPENAI_TIMEOUT    seconds per request (default 60); connect timeout 10 s
    SAGASMITH_OPENAI_MAX_TOKENS the most tokens one completion may generate (default 8192)
    SAGASMITH_OPENAI_MAX_TOKENS_FIELD  the request field carrying that bound:
                                `max_completion_tokens` (default; OpenAI's name, which its
                                reasoning models require) or `max_tokens` (older servers)
    SAGASMITH_OPENAI_MAX_RESULT_CHARS  the most characters of one tool result the model is shown
                                (default 16000); the rest is cut with a marker saying so

The model sees the turn's facade tools with their live input schemas, minus the arguments
trusted code injects (campaign, revision, idempotency, identity). It may make at most
`MAX_TOOL_CALLS` calls per turn, calls the platform refuses (a tool not offered, arguments that
are no JSON object) included, as each costs a model request all the same; further calls are
answered with a `tool_limit` error (as many as the limit, echoed with their ids and names but
not their arguments, the rest of an answer's calls left out of the conversation; the first
answer says why and how many were not run, the others only that they were not) and the next
request forbids tools. A server that ignores that is asked once more offering no tools; a call
after that fails the turn with `agent_tool_limit`. Its final answer must be one JSON object:

    {"messages": [{"text": "...", "audience": "trigger|requester|gm|public"}, ...],
     "suggestions": ["...", ...], "gm_suggestions": ["...", ...],
     "suggestions_for": {"<character id>": ["...", ...], ...}}

with 1..4 messages (0..4 for a GM's narration, already in the room, that called no tool)
whose audience is no wider than the trigger's, and at most 4 suggestions for the requester,
4 for the GMs (a monster's next actions when the turn passed to it; the GMs read every
audience) and 4 for each player character named (its next actions when the
turn passed to it; publication gives them to its player, and to another player than the
requester only after a public action). Those ids must be among the campaign's bound
characters the worker read from Django (`TurnContext.bound_characters`), never one the model
or a tool result names.
An invalid answer is sent back once with the reason; a second invalid answer fails the turn
with `agent_output_invalid`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import re
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from email.utils import parsedate_to_datetime
from typing import Any

import httpcore2
import httpx2
from django.conf import settings
from django.utils.translation import gettext as _

from apps.turns.errors import (
    AgentContentFiltered,
    AgentContextTooLong,
    AgentNotConfigured,
    AgentOutputInvalid,
    AgentProtocolError,
    AgentRejected,
    AgentTokenLimit,
    AgentToolLimit,
    AgentUnavailable,
    TurnError,
)
from apps.turns.tool_calls import TRUSTED_ARGUMENTS, model_arguments
from apps.turns.types import (
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES,
    MAX_SUGGESTION_CHARS,
    MAX_SUGGESTIONS,
    MESSAGE_AUDIENCES,
    AgentMessage,
    AgentOutput,
    CallTool,
    ToolInfo,
    TurnContext,
    audience_allowed,
)

logger = logging.getLogger(__name__)

MAX_TOOL_CALLS = 8
DEFAULT_TIMEOUT = 60.0
# Room for the largest valid answer (4 messages of 4000 characters, 2 characters a token)
# with some left for a reasoning model's thinking.
DEFAULT_MAX_TOKENS = 8192
MAX_TOKENS_FIELDS = ("max_completion_tokens", "max_tokens")
# One long result (a rules text, a big stat block) would otherwise go whole into every later
# request of the turn. Only the model's copy is cut; the journal keeps the full result.
MAX_RESULT_CHARS = 16_000
# A chat completion of at most 8 tool calls and a few messages is far smaller; a larger answer
# is not read into memory whole.
MAX_ANSWER_BYTES = 1024 * 1024
# The most characters of a model's words the conversation sends back (an invalid final answer
# in the correction round, the words beside tool calls): room for the JSON of the largest valid
# answer. A model that loops until its token bound answers far more.
MAX_ECHOED_ANSWER_CHARS = 2 * MAX_MESSAGES * MAX_MESSAGE_CHARS
# Signed or encrypted thinking echoed whole (it cannot be cut): room for a model thinking at
# four times the default token bound, at about four characters a token.
MAX_ECHOED_REASONING_CHARS = 4 * 4 * DEFAULT_MAX_TOKENS
# The most levels of lists and objects a call's arguments may nest (the arguments object is
# one): the MCP client's serializer stops a request at a few hundred, the whole request's
# levels counted. The rules refuse far fewer, as the model's mistake.
MAX_ARGUMENT_DEPTH = 100
CONNECT_TIMEOUT = 10.0
CORRECTION_ROUNDS = 1
OUTPUT_SCHEMA = "sagasmith.room-turn/v1"
# How many of an answer's unknown keys its error quotes.
QUOTED_KEYS = 5
ANSWER_KEYS = ("messages", "suggestions", "gm_suggestions", "suggestions_for")
_HEADER_TOKEN = re.compile(r"[\x21-\x7e]*")
_FENCE = re.compile(r"^```(?i:json)?\s*(.*?)\s*```$", re.DOTALL)
# A fenced object among words ("Here is my answer:", "Hope this helps!").
_FENCED_OBJECT = re.compile(r"```(?i:json)?\s*(\{.*?\})\s*```", re.DOTALL)
# A reasoning model served without a reasoning parser thinks aloud in the content first; one
# whose chat template opens the thinking in the prompt (DeepSeek-R1's) writes only its end.
_THINKING = re.compile(r"^(?:<think>)?.*?</think>\s*", re.DOTALL)
# What JSON can spell but the database cannot store: NUL (PostgreSQL's text and jsonb refuse
# it) and half of a surrogate pair (it has no UTF-8 encoding).
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
# What no text players are shown may hold: that, and the other control characters but line
# feed and tab (a carriage return, a bell, a terminal's escape sequence), which screens show as
# boxes, as nothing, or as what they were never meant to read.
_UNSHOWN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# The function names OpenAI accepts (others fail the whole request with HTTP 400).
_FUNCTION_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INVALID_CALL_NAME = "invalid_tool_name"
# The start of a stream of server-sent events: after blank lines, a comment (": keep-alive") or
# a field. No JSON document starts so.
_EVENT_STREAM = re.compile(rb"\s*(?::|(?:data|event|id|retry):)")


# The trace events of httpcore that return a connection's new stream (a TLS stream replaces the
# TCP one, whose socket it takes over).
_OPENED = (".connect_tcp.complete", ".connect_unix_socket.complete", ".start_tls.complete")


class _Cutoff:
    """Shuts a client's connection once a request runs past its time. The timeouts bound each
    read and write only: a server (or a proxy) that sends its headers or its body a byte now and
    then passes every one, and would hold the turn for as long as it keeps on. A read the
    shutdown ends fails as a lost connection, which the request then reports as timed out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._running = False
        self._ends = 0.0
        self.fired = False

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpcore's `trace` extension: keeps the socket of the connection last opened, the
        one the client's next requests (made one after another) reuse."""
        if event.endswith(_OPENED):
            with self._lock:
                self._socket = info["return_value"].get_extra_info("socket")
                if self.fired:  # connected after the time ran out
                    self._shut()

    @contextmanager
    def bounding(self, seconds: float) -> Iterator[None]:
        """Shuts the connection if the request within takes longer than `seconds`."""
        with self._lock:
            self._running, self.fired = True, False
            self._ends = time.monotonic() + seconds
        timer = threading.Timer(seconds, self._fire)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with self._lock:
                self._running = False  # a timer already firing leaves the next request be

    def left(self) -> float | None:
        """The seconds the request running has left, None when none runs."""
        with self._lock:
            return max(self._ends - time.monotonic(), 0.0) if self._running else None

    def _fire(self) -> None:
        with self._lock:
            if self._running:
                self.fired = True
                self._shut()

    def _shut(self) -> None:
        if self._socket is not None:
            try:
                self._socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # closed already: nothing left to end


class _BoundedLookups(httpcore2.SyncBackend):
    """httpcore's network backend, but for the lookup of a host name: it has no timeout of its
    own (a dead name server holds it for as long as the resolver's retries take), and the
    cutoff can shut no socket before there is one. The lookup runs in a thread of its own,
    waited for no longer than the request has left; the addresses found are tried in order, as
    socket.create_connection tries them."""

    def __init__(self, cutoff: _Cutoff) -> None:
        self._cutoff = cutoff

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore2.NetworkStream:
        failure: Exception = httpcore2.ConnectError(f"no address found for {host}")
        for address in _looked_up(host, port, self._cutoff.left()):
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout) as exc:
                failure = exc
        raise failure

    @classmethod
    def install(cls, http: httpx2.Client, cutoff: _Cutoff) -> None:
        """Gives each connection pool of `http` (the endpoint's, and a proxy's from the
        environment, whose own name it looks up) this backend: httpx has no setting for it."""
        for transport in (http._transport, *http._mounts.values()):
            pool = getattr(transport, "_pool", None)
            if isinstance(pool, httpcore2.ConnectionPool):
                pool._network_backend = cls(cutoff)


def _looked_up(host: str, port: int, seconds: float | None) -> list[str]:
    """The addresses of `host`, once, in the order found. Raises httpcore2.ConnectTimeout when
    the lookup takes longer than `seconds`, httpcore2.ConnectError when it fails."""
    found: list[Any] = []
    failed: list[Exception] = []
    done = threading.Event()

    def look_up() -> None:
        try:
            found.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            failed.append(exc)
        finally:
            done.set()

    # A daemon: a lookup past its time is left to end on its own, holding no turn.
    threading.Thread(target=look_up, name="agent-endpoint-lookup", daemon=True).start()
    if not done.wait(seconds):
        raise httpcore2.ConnectTimeout(f"looking up {host} took longer than the request may")
    if failed:
        raise httpcore2.ConnectError(str(failed[0])) from failed[0]
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def _setting(name: str, default: str = "") -> str:
    return str(getattr(settings, name, None) or os.environ.get(name, default))


class InvalidOutput(ValueError):
    """The model's final answer broke the contract; the message tells the model why: its
    `cause`, what was wrong (the player reads it when the turn fails), then any `advice` on what
    to answer instead, which the model alone can act on."""

    def __init__(self, cause: str, advice: str = "") -> None:
        super().__init__(f"{cause}; {advice}" if advice else cause)
        self.cause = cause


class _UnreadCall(InvalidOutput):
    """An endpoint that parses the model's tool calls itself could not read one and refused
    the whole answer (Groq's HTTP 400 `tool_use_failed`): the model's slip, not a wrong
    setting. `generation` holds the model's words the endpoint sent back, if any: a final JSON
    answer it took for a call, or the call it could not read."""

    def __init__(self, generation: Any) -> None:
        super().__init__(
            "the endpoint could not read the model's tool call",
            "call a tool with JSON arguments as its schema says, or give only the final JSON "
            "answer",
        )
        self.generation = generation if isinstance(generation, str) else None


def _positive_int(name: str, default: int) -> int:
    raw = _setting(name, str(default)).strip()
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise AgentNotConfigured(
            _("%(name)s must be a whole number above 0.") % {"name": name},
            details={"setting": name},
        )
    return int(raw)


def _tool_reply(request: dict[str, Any], result: dict[str, Any], limit: int) -> dict[str, Any]:
    """The conversation's answer to one tool call the model asked for, at most `limit`
    characters of it and a marker when cut."""
    content = _cut(json.dumps(result, ensure_ascii=False), limit, "the tool result")
    return {"role": "tool", "tool_call_id": str(request.get("id", "")), "content": content}


def _cut(text: str, limit: int, what: str) -> str:
    """At most `limit` characters of `text` (`what` it is), and a marker saying so when cut."""
    if len(text) <= limit:
        return text
    return (
        text[:limit] + f"\n[truncated: {what} has {len(text)} characters; "
        f"only the first {limit} are shown]"
    )


def _text(content: Any) -> Any:
    """An answer's content as one text: some servers send a list of parts, a reasoning
    model's thinking in a part of its own, the answer in its text parts. Else as sent."""
    if not isinstance(content, list):
        return content
    texts = [
        part["text"]
        for part in content
        if isinstance(part, dict)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
    ]
    return "".join(texts) if texts else None


def _refusal(reply: dict[str, Any]) -> Any:
    """The model's refusal: its `refusal` field, else the text of the refusal parts of a
    content sent as a list of parts (OpenAI's `{"type": "refusal", "refusal": "..."}`)."""
    refused = reply.get("refusal")
    content = reply.get("content")
    if refused is None and isinstance(content, list):
        refused = "".join(
            part["refusal"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "refusal"
            and isinstance(part.get("refusal"), str)
        )
    return refused


def _call_id(number: int) -> str:
    """A tool call id of our own: 9 letters and digits, as some servers (Mistral's) require."""
    return f"call{number:05d}"


def _echoed_name(name: Any) -> str:
    """A tool call's name as the conversation echoes it. OpenAI refuses a whole request naming
    a function otherwise than `_FUNCTION_NAME` allows, and a model may invent any name: one cut
    to 64 characters (the longest allowed) that still does not fit is echoed as
    `INVALID_CALL_NAME`. The call's tool answer quotes the name the model wrote."""
    cut = name[:64] if isinstance(name, str) else ""
    return cut if _FUNCTION_NAME.fullmatch(cut) else INVALID_CALL_NAME


# A call's arguments read once, for its echo and its run: the object it runs with, or None and
# what they hold that no tool may be given (None when they are no JSON object).
_Read = tuple[dict[str, Any] | None, str | None]


def _function(request: dict[str, Any]) -> dict[str, Any]:
    """A tool call's function, {} when it has none (or no object)."""
    function = request.get("function")
    return function if isinstance(function, dict) else {}


def _as_sent(request: dict[str, Any], read: _Read) -> dict[str, Any]:
    """A copy of a tool call to echo back as the specification has it: a type, a function with
    a name OpenAI accepts, and arguments as JSON text (those run as none, when absent or null,
    as "{}"); with the fields beyond the specification's, as `_extra_fields` bounds them.
    `read`: its function's arguments as `_read_arguments` read them."""
    function = _function(request)
    return {
        "type": "function",
        **_extra_fields(request, ("function",)),
        "function": {
            **_extra_fields(function, ("name", "arguments")),
            "name": _echoed_name(function.get("name")),
            "arguments": _echoed_arguments(function, read),
        },
    }


def _call_arguments(function: dict[str, Any]) -> dict[str, Any] | None:
    """The object a call's function gives as its arguments: none (absent, null or empty) as
    {}, JSON text of an object (the specification's form), the object itself (some servers
    send it so) or JSON text of that text (some models and servers encode it twice: the object
    is what was meant). None for anything else. Raises ValueError for a number too long to
    read."""
    arguments = function.get("arguments") or "{}"
    if isinstance(arguments, dict):
        return arguments
    try:
        arguments = json.loads(arguments)
        if isinstance(arguments, str) and arguments.lstrip().startswith("{"):
            arguments = json.loads(arguments)
    except (TypeError, json.JSONDecodeError, RecursionError):
        return None
    return arguments if isinstance(arguments, dict) else None


def _read_arguments(function: dict[str, Any]) -> _Read:
    try:
        arguments = _call_arguments(function)
    except ValueError:
        return None, _long_number()
    # The journal (jsonb) could not store it, nor could the call be sent as JSON in UTF-8.
    found = None if arguments is None else _unstorable_in(arguments)
    return (arguments, None) if found is None else (None, found)


def _echoed_arguments(function: dict[str, Any], read: _Read) -> str:
    """A call's arguments as the echo sends them: always JSON text of an object, as vLLM and
    llama.cpp read every echoed call again (to render the chat template) and refuse the whole
    request otherwise, and so every later one. Text that is one goes as written, other
    arguments a call runs with as their JSON text, and those it was refused for (cut off by
    the token bound, no JSON, no object, what no tool may be given) as "{}": the call's tool
    answer tells the model why."""
    arguments, _held = read
    if arguments is None:
        return "{}"
    written = function.get("arguments")
    if isinstance(written, str) and written.lstrip().startswith("{"):
        return written  # read as it is: the object
    return json.dumps(arguments, ensure_ascii=False)


def _extra_fields(fields: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """A tool call's (or its function's) fields but the `known` ones, to echo back: some
    servers need theirs (Gemini's `extra_content` holds a thought signature its next request
    checks). No more than MAX_ECHOED_ANSWER_CHARS characters of them go back, as of the
    model's words, counting each field's key and its text (or the JSON of any other value), in
    order: a text past the room left is cut to it, any other value left out (a structure cut
    would not be the one sent), and so are the fields after. The id and the type are the
    specification's own: they go back as sent."""
    kept: dict[str, Any] = {}
    room = MAX_ECHOED_ANSWER_CHARS
    for key, value in fields.items():
        if key in known:
            continue
        if key in ("id", "type"):
            kept[key] = value
            continue
        if isinstance(value, str):
            size = len(value)
        else:
            try:
                size = len(json.dumps(value, ensure_ascii=False))
            except RecursionError:  # nested deeper than can be sent
                continue
        if len(key) + size <= room:
            kept[key] = value
            room -= len(key) + size
        elif isinstance(value, str) and len(key) < room:
            kept[key] = _cut(value, room - len(key), "the field")
            room = 0
    return kept


def _echoed_reasoning_details(details: Any) -> list[Any] | None:
    """An answer's `reasoning_details` to echo with its tool calls, if any: OpenRouter gives a
    model's thinking so, and the models behind it that sign or encrypt their thinking (Gemini
    3, Claude's extended thinking) refuse the next request of a tool-call loop without it. A
    cut copy would not check, so it goes back whole, or not at all past
    MAX_ECHOED_REASONING_CHARS characters of JSON."""
    if not isinstance(details, list):
        return None
    try:
        size = len(json.dumps(details, ensure_ascii=False))
    except RecursionError:
        return None
    return details if size <= MAX_ECHOED_REASONING_CHARS else None


def _as_refused(request: dict[str, Any]) -> dict[str, Any]:
    """The echo of a tool call refused unread: its id, its name and no arguments."""
    function = request.get("function")
    name = function.get("name") if isinstance(function, dict) else None
    return {
        "id": request.get("id"),
        "type": "function",
        "function": {"name": _echoed_name(name), "arguments": "{}"},
    }


def tool_spec(tool: ToolInfo) -> dict[str, Any]:
    """The function a model is offered: the live schema without trusted-only arguments."""
    schema = dict(tool.input_schema)
    schema["properties"] = model_arguments(schema.get("properties") or {})
    schema["required"] = [k for k in schema.get("required") or [] if k not in TRUSTED_ARGUMENTS]
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": schema},
    }


# A GM's narration is already in the room as the GM wrote it: the model applies it, no more.
NARRATION_TASK = (
    "The message is the GM's narration, already shown to its audience as written. Apply with "
    "the tools only what it says happens (damage, conditions, a rest, a monster's action) and "
    "add no story of your own. If you called tools, answer with one short message to the 'gm' "
    'audience saying what the rules did; if nothing in it needed the rules, answer {"messages": '
    "[]}.\n"
)


def system_prompt(turn: TurnContext) -> str:
    character = turn.character_id or "none"
    # A narration is the GM's, already in the room: no player's action to resolve. A GM's own
    # action is the GM's too: no player waits on it.
    narration = turn.task == "narration"
    gm = _gm_speaks(turn)
    sender = "GM" if gm else "player"
    trigger = _trigger(turn)
    return (
        f"You are the game master's assistant for a {turn.system_id} tabletop campaign. "
        f"Phase: {turn.phase}. The {sender}'s role: {turn.role}. Task: {turn.task}. "
        f"The {sender}'s character id: {character}. T{trigger[1:]} was sent to the "
        f"'{turn.trigger_audience}' audience.\n"
        + (
            "Use the tools to apply what the GM's narration says happens; the rules server "
            "decides every outcome, so report only results the tools returned. "
            if narration
            else f"Use the tools to resolve what the {sender} attempts; the rules server decides "
            "every outcome, so narrate only results the tools returned. "
        )
        + "Campaign, revision, idempotency and identity are filled in for you. At most "
        f"{MAX_TOOL_CALLS} tool calls.\n"
        f"{NARRATION_TASK if narration else ''}"
        "Finish with only a JSON object, no prose around it: "
        '{"messages": [{"text": "...", "audience": "trigger"}], "suggestions": ["..."]}. '
        f"{_least_messages(turn)} to {MAX_MESSAGES} messages of at most {MAX_MESSAGE_CHARS} "
        f"characters. Audience: 'trigger' (same readers as {trigger}), 'requester' "
        f"({'the GM' if gm else 'the player and the GM'}), 'gm' (GM only, for hidden "
        f"numbers such as monster HP), or 'public' (only when {trigger} was public). At most "
        f"{MAX_SUGGESTIONS} short suggestions of what "
        f"{'the GM might narrate next' if narration else f'the {sender} might do next'}. When the "
        f"{'narration' if narration else 'action'} hands the turn to a monster, which the GM "
        'plays, you may add "gm_suggestions": at most '
        f"{MAX_SUGGESTIONS} short next actions for it, for the GM alone."
        + _party_prompt(turn)
        + (
            " Never speak or act for the players' characters."
            if gm
            else " Never speak or act for other players' characters."
        )
        + (
            # A narration adds no story: the model reports to the GM what the rules did.
            f"\nThe turn is over: no more tool calls. {'Report' if narration else 'Narrate'} "
            "only what the tool results already in the conversation show."
            if turn.narrate_only
            else ""
        )
    )


def _party_prompt(turn: TurnContext) -> str:
    """What the model is told of suggestions for a player character, when it may offer any."""
    if not turn.bound_characters:
        return ""
    party = json.dumps(dict(turn.bound_characters), ensure_ascii=False)
    return (
        " When it hands the turn to a player character, you may add "
        '"suggestions_for": {"<character id>": ["..."]}: at most '
        f"{MAX_SUGGESTIONS} short next actions for it, for its player alone. "
        + (
            # Every character is another's to a GM: none of theirs reaches a player otherwise.
            f"Those reach its player only when {_trigger(turn)} was public"
            if _gm_speaks(turn)
            else "Those for a character another player controls reach that player only when "
            "the player's message was public"
        )
        + f"; otherwise they are dropped. The player characters, by id: {party}."
    )


def _check_shown(text: str, where: str) -> None:
    """Raises InvalidOutput naming the first character of `text` no message may hold."""
    found = _UNSHOWN.search(text)
    if found:
        raise InvalidOutput(
            f"{where} holds a character no message may hold (U+{ord(found[0]):04X})"
        )


def _unanswered(content: Any) -> bool:
    """Whether an answer's content cut off by the token bound holds no answer: none, blanks,
    thinking that never ended or nothing after it ended (a reasoning model served without a
    reasoning parser thinks aloud in the content; DeepSeek-R1's writes no opening tag)."""
    if content is None:
        return True
    if not isinstance(content, str):
        return False
    return not _past_thinking(content.strip())


def _past_thinking(text: str) -> str | None:
    """A stripped content's answer, after the thinking a reasoning model served without a
    reasoning parser writes first; None when that thinking never ended. An answer itself (an
    object, fenced or not) may write the tag in a message's text: one that starts so is all
    answer."""
    if text.startswith(("{", "`")):
        return text
    thought = _THINKING.match(text)
    return None if thought is None else text[thought.end() :]


def _quote(text: str, limit: int) -> str:
    """The model's words quoted in an error, which the player reads: at most `limit`
    characters, as JSON, what no message may hold (nor a text column store) as U+FFFD."""
    return json.dumps(_UNSHOWN.sub("\ufffd", text[:limit]), ensure_ascii=False)


def _quote_some(texts: list[str], count: int = QUOTED_KEYS, limit: int = 64) -> str:
    """The first `count` of the model's `texts`, each quoted as `_quote` does, and how many
    more there are: an answer may hold thousands."""
    quoted = ", ".join(_quote(text, limit) for text in texts[:count])
    more = len(texts) - count
    return f"{quoted} and {more} more" if more > 0 else quoted


def _long_number() -> str:
    """Why JSON text was not read when it was valid: Python reads no whole number longer than
    its limit of digits (a ValueError, not a JSONDecodeError)."""
    return f"a number too long to read (at most {sys.get_int_max_str_digits()} digits)"


def _unstorable_in(value: Any) -> str | None:
    """What the database cannot store in a JSON value, or a tool call cannot send, if any: the
    first such character of its keys and texts, the words for a number that is not finite
    (Python reads NaN, Infinity and 1e400 from JSON; no JSON column stores them), or for
    nesting deeper than MAX_ARGUMENT_DEPTH levels (the value itself is one)."""
    items = [(value, 1)]
    while items:
        item, depth = items.pop()
        if isinstance(item, str):
            found = _UNSTORABLE.search(item)
            if found:
                return f"a character no tool may be given (U+{ord(found[0]):04X})"
        elif isinstance(item, float) and not math.isfinite(item):
            return "a number that is not finite (NaN, an infinity, or too large to store)"
        elif isinstance(item, dict | list) and depth > MAX_ARGUMENT_DEPTH:
            return f"lists or objects nested deeper than {MAX_ARGUMENT_DEPTH} levels"
        elif isinstance(item, dict):
            items += [(key, depth) for key in item]
            items += [(inner, depth + 1) for inner in item.values()]
        elif isinstance(item, list):
            items += [(inner, depth + 1) for inner in item]
    return None


def _object_among_words(text: str) -> dict[str, Any] | None:
    """The JSON object of an answer that has words around it, as smaller models write one:
    the first fenced object, else the object that starts at the first brace. None when
    neither reads as a whole object. Raises ValueError and RecursionError as json.loads
    does."""
    fenced = _FENCED_OBJECT.search(text)
    start = text.find("{")
    try:
        if fenced:
            data = json.loads(fenced[1])
        elif start >= 0:
            data, _end = json.JSONDecoder().raw_decode(text, start)
        else:
            return None
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def parse_output(content: str, turn: TurnContext) -> AgentOutput:
    """The validated final answer (messages and suggestions). Raises InvalidOutput with a
    reason the model can fix."""
    text = content.strip()
    answer = _past_thinking(text)
    if answer is not None:
        text = answer
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced[1]
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            data = _object_among_words(text)
            if data is None:
                raise InvalidOutput(f"the answer is not JSON ({exc.msg})") from None
    except RecursionError:
        raise InvalidOutput("the answer is nested too deeply") from None
    except InvalidOutput:
        raise
    except ValueError:
        raise InvalidOutput(f"the answer holds {_long_number()}") from None
    if not isinstance(data, dict):
        raise InvalidOutput("the answer must be a JSON object")
    unknown = sorted(set(data) - {*ANSWER_KEYS, "schema"})
    if unknown:
        raise InvalidOutput(
            f"unknown keys {_quote_some(unknown)}",
            "use messages, suggestions, gm_suggestions and suggestions_for",
        )
    if "schema" in data and data["schema"] != OUTPUT_SCHEMA:
        raise InvalidOutput(f"schema must be {OUTPUT_SCHEMA!r} when given")
    raw_messages = data.get("messages")
    least = _least_messages(turn)
    if not isinstance(raw_messages, list) or not least <= len(raw_messages) <= MAX_MESSAGES:
        raise InvalidOutput(f"messages must be a list of {least} to {MAX_MESSAGES} objects")
    messages = []
    for index, item in enumerate(raw_messages):
        if not isinstance(item, dict) or set(item) - {"text", "audience"}:
            raise InvalidOutput(f"messages[{index}] must be an object with text and audience")
        body = item.get("text")
        if isinstance(body, str):
            # Windows line endings are line feeds to a model: no correction round for them.
            body = body.replace("\r\n", "\n")
        if not isinstance(body, str) or not body.strip() or len(body) > MAX_MESSAGE_CHARS:
            raise InvalidOutput(
                f"messages[{index}].text must be non-empty text of at most "
                f"{MAX_MESSAGE_CHARS} characters"
            )
        audience = item.get("audience", "trigger")
        if audience not in MESSAGE_AUDIENCES:
            raise InvalidOutput(
                f"messages[{index}].audience must be one of {', '.join(MESSAGE_AUDIENCES)}"
            )
        if not audience_allowed(
            audience=audience, trigger_audience=turn.trigger_audience, requester_is_gm=turn.is_gm
        ):
            raise InvalidOutput(
                f"messages[{index}].audience {audience!r} is wider than {_trigger(turn)} "
                f"({turn.trigger_audience!r})",
                "use 'trigger' or 'gm'",
            )
        _check_shown(body, f"messages[{index}].text")
        messages.append(AgentMessage(text=body.strip(), audience=audience))
    # The GMs see every message, so their suggestions are never wider than the trigger's.
    return AgentOutput(
        messages=tuple(messages),
        suggestions=_suggestion_list(data, "suggestions"),
        gm_suggestions=_suggestion_list(data, "gm_suggestions"),
        suggestions_for=_suggestions_for(data, turn),
        # A narration answered with nothing is left as the GM said it, as the scripted agent
        # leaves one no command takes: the room is told nothing of it.
        declined=not messages,
        help_only=not messages,
    )


def _final_answer(content: str, turn: TurnContext, calls: int) -> AgentOutput:
    """`parse_output`'s answer, which says something once tools were called: a silent one
    would leave the GM unaware of what the rules did, and a roll with no message to show it
    on. Raises InvalidOutput."""
    final = parse_output(content, turn)
    if calls and not final.messages:
        raise InvalidOutput(
            "messages must hold at least one message after tool calls, telling the GM what "
            "the rules did"
        )
    return final


def _gm_speaks(turn: TurnContext) -> bool:
    """Whether the turn answers the GM: a narration, or the GM's own action."""
    return turn.task == "narration" or turn.is_gm


def _trigger(turn: TurnContext) -> str:
    """What the model answers, as its instructions name it: a GM's narration or own action is the
    GM's, not a player's."""
    if turn.task == "narration":
        return "the GM's narration"
    return "the GM's message" if turn.is_gm else "the player's message"


def _refusal_advice(turn: TurnContext, calls: int) -> str:
    """What a refusing model is told to answer instead. A narration has no request: the GM is
    told what the rules could not apply, and one that called no tool may stay silent, as its
    instructions allow."""
    if turn.task != "narration":
        requester = "the GM" if turn.is_gm else "the player"
        return f"if {requester}'s request cannot be done, say so in the messages"
    advice = (
        "if the rules cannot apply what the GM's narration says, say so in a message to the "
        "'gm' audience"
    )
    return (
        advice if calls else advice + '; if it needs nothing of the rules, answer {"messages": []}'
    )


def _least_messages(turn: TurnContext) -> int:
    """How few messages an answer may hold: a GM's narration is already in the room, and one
    that asks nothing of the rules needs no reply; any other turn's player waits for one."""
    return 0 if turn.task == "narration" else 1


def _suggestions_for(data: dict[str, Any], turn: TurnContext) -> dict[str, tuple[str, ...]]:
    """The answer's suggestions by player character, those with any. Raises InvalidOutput
    for an id that is none of the campaign's bound characters."""
    wanted = data.get("suggestions_for", {})
    if not isinstance(wanted, dict):
        raise InvalidOutput(
            "suggestions_for must be an object of character ids to lists of suggestions"
        )
    chosen = {}
    for character_id in wanted:
        if character_id not in turn.bound_characters:
            raise InvalidOutput(
                f"suggestions_for names {_quote(character_id, 64)}, which is no player "
                "character of this campaign",
                "use an id the instructions list",
            )
        where = f"suggestions_for[{json.dumps(character_id, ensure_ascii=False)}]"
        listed = _suggestion_list(wanted, character_id, where)
        if listed:
            chosen[character_id] = listed
    return chosen


def _suggestion_list(data: dict[str, Any], key: str, where: str = "") -> tuple[str, ...]:
    """The answer's suggestions under `key` (named `where` in errors), stripped. Raises
    InvalidOutput."""
    where = where or key
    suggestions = data.get(key, [])
    if (
        not isinstance(suggestions, list)
        or len(suggestions) > MAX_SUGGESTIONS
        or not all(
            isinstance(s, str) and s.strip() and len(s) <= MAX_SUGGESTION_CHARS for s in suggestions
        )
    ):
        raise InvalidOutput(
            f"{where} must be a list of at most {MAX_SUGGESTIONS} non-empty strings of at "
            f"most {MAX_SUGGESTION_CHARS} characters"
        )
    for index, suggestion in enumerate(suggestions):
        _check_shown(suggestion, f"{where}[{index}]")
    return tuple(s.strip() for s in suggestions)


class OpenAIAgent:
    name = "openai"
    # A model is not trusted to keep a secret: the worker answers its tool calls (reads and
    # writes' results) at the view of the action's audience (run._result_view), not at the
    # requester's.
    reads_as_audience = True
    # Its answer may address suggestions to a player character: the worker gives it the
    # campaign's bound characters (TurnContext.bound_characters) to check the ids against.
    addresses_characters = True

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout: float = DEFAULT_TIMEOUT,
        connect_timeout: float = CONNECT_TIMEOUT,
        max_tool_calls: int = MAX_TOOL_CALLS,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        max_tokens_field: str = MAX_TOKENS_FIELDS[0],
        max_result_chars: int = MAX_RESULT_CHARS,
    ) -> None:
        # Endpoints' own examples give the whole endpoint's URL: it is named once.
        base = base_url.rstrip("/").removesuffix("/chat/completions")
        self.url = base + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = httpx2.Timeout(timeout, connect=connect_timeout)
        self.max_tool_calls = max_tool_calls
        self.max_tokens = max_tokens
        self.max_tokens_field = max_tokens_field
        self.max_result_chars = max_result_chars

    @classmethod
    def from_settings(cls) -> OpenAIAgent:
        """The provider from settings/environment. Raises AgentNotConfigured when incomplete."""
        base_url = _setting("SAGASMITH_OPENAI_BASE_URL")
        model = _setting("SAGASMITH_OPENAI_MODEL")
        missing = [n for n, v in (("BASE_URL", base_url), ("MODEL", model)) if not v]
        if missing:
            raise AgentNotConfigured(
                _("The openai agent needs %(names)s.")
                % {"names": ", ".join(f"SAGASMITH_OPENAI_{n}" for n in missing)},
                details={"missing": [f"SAGASMITH_OPENAI_{n}" for n in missing]},
            )
        # Else every request would fail as if the endpoint were down, and be retried.
        try:
            url = httpx2.URL(base_url)
        except httpx2.InvalidURL:
            url = None
        if url is None or url.scheme not in ("http", "https") or not url.host:
            raise AgentNotConfigured(
                _("SAGASMITH_OPENAI_BASE_URL must be an http or https URL."),
                details={"setting": "SAGASMITH_OPENAI_BASE_URL"},
            )
        try:
            timeout = float(_setting("SAGASMITH_OPENAI_TIMEOUT", str(DEFAULT_TIMEOUT)))
        except ValueError:
            timeout = math.nan
        if not 0 < timeout < math.inf:
            raise AgentNotConfigured(
                _("SAGASMITH_OPENAI_TIMEOUT must be a number of seconds above 0."),
                details={"setting": "SAGASMITH_OPENAI_TIMEOUT"},
            )
        # A key read from a file keeps its line end. Any other character a header cannot carry
        # would fail every request, and the error would quote the key.
        api_key = _setting("SAGASMITH_OPENAI_API_KEY").strip()
        if not _HEADER_TOKEN.fullmatch(api_key):
            raise AgentNotConfigured(
                _("SAGASMITH_OPENAI_API_KEY may hold only printable ASCII without spaces."),
                details={"setting": "SAGASMITH_OPENAI_API_KEY"},
            )
        # Unbounded, one turn could run up a completion as long as the model allows.
        max_tokens = _positive_int("SAGASMITH_OPENAI_MAX_TOKENS", DEFAULT_MAX_TOKENS)
        max_tokens_field = _setting("SAGASMITH_OPENAI_MAX_TOKENS_FIELD", MAX_TOKENS_FIELDS[0])
        if max_tokens_field not in MAX_TOKENS_FIELDS:
            raise AgentNotConfigured(
                _("SAGASMITH_OPENAI_MAX_TOKENS_FIELD must be one of: %(fields)s.")
                % {"fields": ", ".join(MAX_TOKENS_FIELDS)},
                details={"setting": "SAGASMITH_OPENAI_MAX_TOKENS_FIELD"},
            )
        return cls(
            base_url=base_url,
            model=model,
            api_key=api_key,
            timeout=timeout,
            max_tokens=max_tokens,
            max_tokens_field=max_tokens_field,
            max_result_chars=_positive_int("SAGASMITH_OPENAI_MAX_RESULT_CHARS", MAX_RESULT_CHARS),
        )

    def run_turn(self, turn: TurnContext, call_tool: CallTool) -> AgentOutput:
        """Raises AgentUnavailable, AgentRejected, AgentProtocolError, AgentOutputInvalid,
        AgentToolLimit, AgentTokenLimit, and whatever `call_tool` raises."""
        tools = [tool_spec(tool) for tool in turn.tools]
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(turn)},
            {"role": "user", "content": turn.text},
        ]
        usage: Counter[str] = Counter()
        calls = 0
        corrections = 0
        numbered = 0  # tool calls the conversation holds
        call_ids: set[str] = set()
        # Narrating an ended turn: the model may only tell what its journaled calls did.
        tools_closed = turn.narrate_only
        # A server that ignored tool_choice "none": the next requests offer no tools at all.
        tools_withdrawn = False
        if turn.earlier:
            # A retry or a narration: the model would not repeat its calls in the same order,
            # so it is shown the ones already made (answered from the journal, nothing sent
            # again) and goes on.
            earlier = [
                {"id": _call_id(step), "type": "function",
                 "function": {"name": s.tool, "arguments": json.dumps(dict(s.arguments))}}
                for step, s in enumerate(turn.earlier, 1)
            ]  # fmt: skip
            messages.append({"role": "assistant", "content": None, "tool_calls": earlier})
            numbered = len(earlier)
            call_ids.update(request["id"] for request in earlier)
            for request in earlier:
                calls += 1
                messages.append(
                    _tool_reply(request, self._run_tool(request, call_tool), self.max_result_chars)
                )
            tools_closed = tools_closed or calls >= self.max_tool_calls
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        cutoff = _Cutoff()
        with httpx2.Client(timeout=self.timeout, headers=headers) as http:
            _BoundedLookups.install(http, cutoff)
            while True:
                body: dict[str, Any] = {
                    "model": self.model,
                    "messages": messages,
                    self.max_tokens_field: self.max_tokens,
                    # The answer is read whole: a server that streams by default is told not to.
                    "stream": False,
                }
                if tools and not tools_withdrawn:
                    body["tools"] = tools
                    body["tool_choice"] = "none" if tools_closed else "auto"
                unread = None
                try:
                    reply, finish_reason = self._complete(http, cutoff, body, usage, turn)
                except _UnreadCall as exc:
                    # Read as the answer it may be; else corrected as the slip it is.
                    unread, reply, finish_reason = exc, {"content": exc.generation}, None
                except AgentRejected as exc:
                    # A refusal with a code of its own (a filtered or too long conversation)
                    # says why it was refused.
                    if not tools_withdrawn or exc.code != AgentRejected.code:
                        raise
                    # Some servers refuse tool calls in a conversation that offers no tools:
                    # the turn ends as the limit ended it, not as a misconfigured endpoint.
                    raise self._tool_limit(turn) from exc
                requested = reply.get("tool_calls") or []
                if requested:
                    if tools_closed:
                        # A server that ignores tool_choice "none" lets the model add a call
                        # to its final answer: the answer stands, the call is not run.
                        content = _text(reply.get("content"))
                        try:
                            if isinstance(content, str):
                                return dataclasses.replace(
                                    _final_answer(content, turn, calls),
                                    tool_calls=calls,
                                    usage=dict(usage),
                                )
                        except InvalidOutput:
                            pass
                        if tools_withdrawn:
                            raise self._tool_limit(turn)
                        # Asked once more offering no tools at all, which no server lets a
                        # model call. The stray calls stay out of the conversation: no tool
                        # answer could be given to them without running them.
                        tools_withdrawn = True
                        messages.append(
                            {
                                "role": "user",
                                "content": f"{self._why_closed(turn).capitalize()} and no tools "
                                "are offered any more. Reply with only the JSON object "
                                "described in the instructions.",
                            }
                        )
                        continue
                    # A model asking for thousands of calls in one answer would make every
                    # later request of the turn as large: past the limit, as many calls as the
                    # limit are answered, the rest left out of the conversation. Chat
                    # completions refuses an echoed call without a tool message answering its
                    # id, so each echoed one gets an answer: the first tells the model once,
                    # the others are terse, so the context does not grow with the reason.
                    left = max(self.max_tool_calls - calls, 0)
                    not_run = max(len(requested) - left, 0)
                    # The calls past the limit are refused unread: echoed with their ids and
                    # names, not their arguments, which may be as large as the model made them.
                    # A call runs as the model asked for it, whatever name its echo shows.
                    asked = requested[: left + self.max_tool_calls]
                    reads = [_read_arguments(_function(request)) for request in asked[:left]]
                    requested = [
                        _as_sent(request, reads[index]) if index < left else _as_refused(request)
                        for index, request in enumerate(asked)
                    ]
                    for request in requested:
                        # Each answer must name its own call: a call without an id, or with
                        # one already used, gets one.
                        numbered += 1
                        fresh = numbered
                        while not (isinstance(request.get("id"), str) and request["id"]) or (
                            request["id"] in call_ids
                        ):
                            request["id"] = _call_id(fresh)
                            fresh += 1
                        call_ids.add(request["id"])
                    # Its words as text (a server refuses an object or a number there).
                    said = _text(reply.get("content"))
                    echo: dict[str, Any] = {
                        "role": "assistant",
                        "content": _cut(said, MAX_ECHOED_ANSWER_CHARS, "the answer")
                        if isinstance(said, str)
                        else None,
                    }
                    # DeepSeek's thinking mode refuses the next request (HTTP 400) unless the
                    # thinking of each answer of the tool-call loop comes back with its calls;
                    # a cut copy does, and keeps later requests from growing with it.
                    if isinstance(reply.get("reasoning_content"), str):
                        echo["reasoning_content"] = _cut(
                            reply["reasoning_content"], MAX_ECHOED_ANSWER_CHARS, "the thinking"
                        )
                    details = _echoed_reasoning_details(reply.get("reasoning_details"))
                    if details is not None:
                        echo["reasoning_details"] = details
                    messages.append({**echo, "tool_calls": requested})
                    for index, (request, original) in enumerate(zip(requested, asked, strict=True)):
                        if calls >= self.max_tool_calls:
                            tools_closed = True
                            message = "not run: tool limit reached"
                            if index == left:
                                after = not_run - 1
                                told = (
                                    f"this call and the {after} after it were not run"
                                    if after
                                    else "this call was not run"
                                )
                                message = (
                                    f"the limit of {self.max_tool_calls} tool calls is "
                                    f"reached: {told}; give your final JSON answer now"
                                )
                            result: dict[str, Any] = {
                                "error": {"code": "tool_limit", "message": message}
                            }
                        else:
                            calls += 1
                            result = self._run_tool(
                                original, call_tool, finish_reason, reads[index]
                            )
                        messages.append(_tool_reply(request, result, self.max_result_chars))
                    # No call could run past the limit: the next request forbids them.
                    tools_closed = tools_closed or calls >= self.max_tool_calls
                    continue
                content = _text(reply.get("content"))
                refused = _refusal(reply)
                # A refusal has no content: "no text content" would not tell the model what to
                # do instead, nor the operator what happened.
                refusal = not content and isinstance(refused, str) and bool(refused.strip())
                if refusal:
                    content = refused
                elif finish_reason == "length" and _unanswered(content):
                    # The bound ran out before any answer (a reasoning model thought it away):
                    # a correction round would spend it again.
                    raise AgentTokenLimit(
                        _("The agent's model spent its whole limit of %(n)s tokens before "
                          "answering.") % {"n": self.max_tokens},
                        details={"max_tokens": self.max_tokens},
                    )  # fmt: skip
                try:
                    try:
                        if refusal:
                            raise InvalidOutput(
                                f"the answer is a refusal ({_quote(refused.strip(), 200)})",
                                _refusal_advice(turn, calls),
                            )
                        if not isinstance(content, str):
                            raise InvalidOutput("the final answer has no text content")
                        final = _final_answer(content, turn, calls)
                    except InvalidOutput:
                        # The endpoint stopped the answer: "not JSON" or "no text content"
                        # would not tell the model (nor the operator) why.
                        if unread is not None:
                            if tools_closed:
                                # Groq refuses a call made against tool_choice "none" so: the
                                # model is not to call a tool again, and is asked offering no
                                # tools at all, as after a stray call, lest the endpoint refuse
                                # the next answer the same way.
                                tools_withdrawn = True
                                raise InvalidOutput(
                                    f"no tool may be called any more ({self._why_closed(turn)})",
                                    "give only the final JSON answer",
                                ) from None
                            raise unread from None
                        if finish_reason == "length":
                            raise InvalidOutput(
                                f"the answer was cut off at the limit of {self.max_tokens} tokens",
                                "give a shorter one",
                            ) from None
                        if finish_reason == "content_filter":
                            raise InvalidOutput(
                                "the answer was stopped by the endpoint's content filter",
                                "tell it in milder words",
                            ) from None
                        raise
                except InvalidOutput as exc:
                    if corrections >= CORRECTION_ROUNDS:
                        # The player reads what was wrong; the operators also what the model
                        # was told to do instead.
                        raise AgentOutputInvalid(
                            _("The agent's answer was invalid: %(reason)s") % {"reason": exc.cause},
                            details={"reason": str(exc)},
                        ) from None
                    corrections += 1
                    # Only its text: a conversation holds no object or number as an
                    # assistant's content, and the model can act on nothing else.
                    echoed = content if isinstance(content, str) else ""
                    messages.append(
                        {
                            "role": "assistant",
                            "content": _cut(echoed, MAX_ECHOED_ANSWER_CHARS, "the answer"),
                        }
                    )
                    messages.append(
                        {
                            "role": "user",
                            "content": f"Your answer was invalid: {exc}. Reply with only the "
                            "JSON object described in the instructions.",
                        }
                    )
                    continue
                return dataclasses.replace(final, tool_calls=calls, usage=dict(usage))

    def _why_closed(self, turn: TurnContext) -> str:
        """Why a request offers no tool calls, as the model is told it. A turn narrated after
        it ended offers none from the start, however few calls its journal holds."""
        if turn.narrate_only:
            return "the turn is over"
        return f"the limit of {self.max_tool_calls} tool calls is reached"

    def _tool_limit(self, turn: TurnContext) -> AgentToolLimit:
        # A turn narrated after it ended was offered no calls, whatever limit it reached.
        if turn.narrate_only:
            return AgentToolLimit(_("The model asked for tools after the turn was over."))
        return AgentToolLimit(
            _("The model asked for tools after the limit of %(n)s calls.")
            % {"n": self.max_tool_calls}
        )

    def _run_tool(
        self,
        request: Any,
        call_tool: CallTool,
        finish_reason: Any = None,
        read: _Read | None = None,
    ) -> dict[str, Any]:
        """`read`: the call's arguments as `_read_arguments` read them, if they were."""
        function = request.get("function") if isinstance(request, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            return {"error": {"code": "invalid_arguments", "message": "no function name"}}
        arguments, held = _read_arguments(function) if read is None else read
        if held is not None:
            return {"error": {"code": "invalid_arguments", "message": f"the arguments hold {held}"}}
        if arguments is None:
            message = "arguments must be a JSON object"
            if finish_reason == "length":
                # Cut off by the token bound: the same call would be cut off again.
                message = (
                    f"the arguments were cut off at the limit of {self.max_tokens} tokens; "
                    "make fewer or shorter calls"
                )
            return {"error": {"code": "invalid_arguments", "message": message}}
        return call_tool(function["name"], arguments).for_model()

    def _complete(
        self,
        http: httpx2.Client,
        cutoff: _Cutoff,
        body: dict[str, Any],
        usage: Counter[str],
        turn: TurnContext,
    ) -> tuple[dict[str, Any], Any]:
        """The answer's message and its choice's finish_reason."""
        # A request gets no more than the turn's time left: a model past it is cut off, and the
        # turn ends timed out rather than as a retryable endpoint timeout.
        timeout = self.timeout
        seconds = timeout.read
        if turn.deadline is not None:
            left = turn.deadline.left()
            seconds = min(seconds, left)
            timeout = httpx2.Timeout(
                min(timeout.read, left), connect=min(timeout.connect, left),
                write=min(timeout.write, left), pool=min(timeout.pool, left),
            )  # fmt: skip
        # The conversation echoes the model's words, which may hold half a surrogate pair
        # (JSON can spell one): no UTF-8 exists for it, so it goes as U+FFFD.
        try:
            text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:
            # An echoed answer held NaN or an infinity (Python reads them, JSON cannot send
            # them, e.g. in a field of a tool call): sent as null.
            text = json.dumps(_finite(body), ensure_ascii=False, separators=(",", ":"))
        content = _SURROGATE.sub("\ufffd", text).encode()
        headers = {"Content-Type": "application/json"}
        answering = False  # the status line came: a failure now broke the answer off
        try:
            # The whole request, headers and body, gets no longer than one read may wait.
            with cutoff.bounding(seconds), http.stream(
                "POST", self.url, content=content, headers=headers, timeout=timeout,
                extensions={"trace": cutoff.trace},
            ) as response:  # fmt: skip
                answering = True
                if response.status_code < 300 and _streamed(response):
                    raise _streamed_answer(response)
                raw = bytearray()
                for chunk in response.iter_bytes():
                    raw += chunk
                    if len(raw) > MAX_ANSWER_BYTES:
                        if response.status_code >= 300:
                            # An error page (a proxy's HTML) is classed by its status: its
                            # first megabyte is enough for the log and an error object.
                            del raw[MAX_ANSWER_BYTES:]
                            break
                        raise _not_a_completion(ValueError("the answer is too large"))
        except (httpx2.TransportError, httpx2.DecodingError) as exc:
            if isinstance(exc, httpx2.TimeoutException) or cutoff.fired:
                if turn.deadline is not None:
                    turn.deadline.left()  # raises TurnTimedOut if the turn's time ran out
                raise AgentUnavailable(
                    _("The agent endpoint did not answer in time."), code="agent_timeout"
                ) from exc
            if isinstance(exc, httpx2.DecodingError):
                raise _not_a_completion(exc) from exc
            # The player reads the message: the exception's class is for the operators.
            logger.warning("The agent endpoint failed: %r", exc)
            raise AgentUnavailable(
                _("The agent endpoint broke off its answer.")
                if answering
                else _("The agent endpoint is unreachable."),
                details={"reason": type(exc).__name__},
            ) from exc
        status = response.status_code
        if status >= 300:
            # Its answer (an API key's tail, an account, a model name) is for the operators'
            # log; the error reaches the player. A key echoed whole is not logged.
            answer = self._for_log(raw.decode("utf-8", "replace"))
            error = _body_error(raw)
        # A conversation too long is refused again whatever the status (some servers answer it
        # with a 500).
        if _passing(status) and not _out_of_quota(status, raw) and not _too_long(error):
            logger.warning("The agent endpoint is unavailable: HTTP %s %s", status, answer[:200])
            raise AgentUnavailable(
                _("The agent endpoint answered HTTP %(status)s.") % {"status": status},
                details=_unavailable_details(status, response.headers, error),
            )
        # A redirect is not followed (a POST would arrive as a GET): the base URL is to correct.
        if status >= 300:
            if status < 400:
                location = response.headers.get("location", "")
                answer = f"(redirected to {location}) {answer}"
            logger.warning("The agent endpoint refused the request: HTTP %s %s", status,
                           answer[:200])  # fmt: skip
            if _filtered(error):
                raise _content_filtered(details={"status": status})
            if _too_long(error):
                raise _conversation_too_long(details={"status": status})
            if status == 400 and isinstance(error, dict) and error.get("code") == "tool_use_failed":
                # The endpoint refused what its model generated: the model ran all the same.
                self._count(usage, {}, turn)
                raise _UnreadCall(error.get("failed_generation"))
            raise AgentRejected(
                _("The agent endpoint refused the request: HTTP %(status)s.") % {"status": status},
                details={"status": status},
            )
        try:
            data = _unlisted(_read_answer(raw))
            if not isinstance(data, dict):
                raise TypeError("the answer is not an object")
            reported = data.get("usage") or {}
            if not isinstance(reported, dict):
                raise TypeError("usage is not an object")
        except (ValueError, TypeError, RecursionError) as exc:
            # Some servers stream under an application/json label.
            if _EVENT_STREAM.match(raw):
                raise _streamed_answer(response) from exc
            raise _not_a_completion(exc) from exc
        choices = data.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            if reported:
                # The endpoint says its model ran: the tokens are spent all the same.
                self._count(usage, reported, turn)
            error = data.get("error")
            if error and not choices:
                raise self._error_in_answer(error, response.headers)
            if not choices and _prompt_filtered(data):
                logger.warning("The agent endpoint's content filter refused the conversation")
                raise _content_filtered(details={})
            # Named in words: the operators and the player read it.
            if not choices:
                lacks = "it holds no choices"
            elif not isinstance(choices, list):
                lacks = "choices is not a list"
            elif not isinstance(choice, dict):
                lacks = "its choice is not an object"
            elif message is None:
                lacks = "its choice holds no message"
            else:
                lacks = "message is not an object"
            raise _not_a_completion(TypeError(lacks))
        self._count(usage, reported, turn)
        if choice.get("error"):
            # OpenRouter's choice when the provider behind it broke off (finish_reason "error"):
            # its error, not the empty or cut content, says what happened.
            raise self._error_in_answer(choice["error"], response.headers)
        calls = message.get("tool_calls")
        if calls is not None and not (
            isinstance(calls, list) and all(isinstance(call, dict) for call in calls)
        ):
            raise _not_a_completion(TypeError("tool_calls is not a list of objects"))
        return message, choice.get("finish_reason")

    def _for_log(self, text: str) -> str:
        """An endpoint's words for the operators' log, without the API key if it echoed it."""
        return text.replace(self.api_key, "***") if self.api_key else text

    def _error_in_answer(self, error: Any, headers: httpx2.Headers) -> TurnError:
        """An HTTP 200 holding an error and no choices, or a choice holding one (some proxies
        pass an upstream failure on so), classed as its own status or code would be as an HTTP
        answer, with the wait its headers ask for."""
        error = _error_object(error)  # only words: no status or code to class it by
        message = self._for_log(str(error.get("message", "")))[:200]
        # Only a text or a number names a code: a list or an object in its place says nothing
        # (and is no set member).
        codes = tuple(
            code for code in (error.get("code"), error.get("type")) if isinstance(code, str | int)
        )
        status = next(
            (
                number
                for number in map(_whole_number, (error.get("status"), *codes))
                if number is not None and 400 <= number <= 599
            ),
            None,
        )
        if _quota_error(error):
            status = 402  # out of credits, not a rate limit: refused until someone pays
        if _too_long(error):
            logger.warning("The agent endpoint refused the request: HTTP 200 with an error: %s",
                           message)  # fmt: skip
            return _conversation_too_long(details={} if status is None else {"status": status})
        if (status is not None and _passing(status)) or (
            status is None and any(code in PASSING_ERRORS for code in codes)
        ):
            logger.warning("The agent endpoint is unavailable: HTTP 200 with an error: %s",
                           message)  # fmt: skip
            return AgentUnavailable(
                _("The agent endpoint reported a passing failure."),
                details=_unavailable_details(status, headers, error),
            )
        if status is not None:
            logger.warning("The agent endpoint refused the request: HTTP 200 with an error: %s",
                           message)  # fmt: skip
            if _filtered(error):
                return _content_filtered(details={"status": status})
            return AgentRejected(_("The agent endpoint refused the request."))
        logger.warning("The agent endpoint answered HTTP 200 with an error: %s", message)
        return _not_a_completion(TypeError("it holds an error and no choices"))

    @staticmethod
    def _count(usage: Counter[str], reported: dict[str, Any], turn: TurnContext) -> None:
        # Counted even when the endpoint reports no tokens: the turn used a model.
        usage["model_calls"] += 1
        # A bool is an int to Python; a negative count would lower the charge.
        counts = {
            key: value
            for key, value in reported.items()
            if key in ("prompt_tokens", "completion_tokens", "total_tokens")
            and type(value) is int
            and value >= 0
        }
        if "prompt_tokens" in counts or "completion_tokens" in counts:
            # The parts are what providers bill; an answer's own total may count otherwise.
            # Without them, the total alone is what the answer cost.
            counts["total_tokens"] = counts.get("prompt_tokens", 0) + counts.get(
                "completion_tokens", 0
            )
        for key, value in counts.items():
            usage[key] += value
        if turn.record_usage is not None:
            turn.record_usage(dict(usage))


# Error codes and types (OpenAI's, Anthropic's, common proxies') of a failure a new attempt
# may pass, for an error that names no status.
PASSING_ERRORS = frozenset(
    {
        "server_error",
        "api_error",
        "overloaded_error",
        "rate_limit_error",
        "rate_limit_exceeded",
        "service_unavailable",
        "timeout",
    }
)


def _passing(status: int) -> bool:
    """Whether a new attempt may pass an HTTP error status. 408: the endpoint (or a proxy
    before it) gave up waiting. 501 and 505 (a method or an HTTP version the server does not
    support) answer every attempt the same way."""
    return status in (408, 429) or (status >= 500 and status not in (501, 505))


def _whole_number(value: Any) -> int | None:
    """The whole number an error's status or code field holds, as a number or decimal text;
    None for anything else, and for text of more digits than Python reads as a number."""
    if type(value) is int:  # not a bool
        return value
    # Not isdigit: it holds digits such as "²", which int() does not read.
    if not (isinstance(value, str) and value.isdecimal()):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _unavailable_details(
    status: int | None, headers: httpx2.Headers, error: Any = None
) -> dict[str, Any]:
    """The details of a passing failure: its status when known, and the whole seconds the
    endpoint asked to wait, if any (a retry sooner would be refused again: the requeue waits):
    its headers' wait, else the one its error body tells."""
    details: dict[str, Any] = {} if status is None else {"status": status}
    wait = _retry_after_ms(headers.get("retry-after-ms", ""))
    if wait is None:
        wait = _retry_after(headers.get("retry-after", ""))
    if wait is None:
        wait = _retry_delay(error)
    if wait is not None:
        details["retry_after"] = wait
    return details


def _finite(value: Any) -> Any:
    """A copy of a JSON value with its numbers that are not finite as None. Copied without
    recursion: an answer's JSON may nest deeper than Python recurses (json reads it in C)."""
    pending: list[tuple[Any, Any]] = []  # (a dict or list, its copy yet to fill)

    def copied(item: Any) -> Any:
        if isinstance(item, float) and not math.isfinite(item):
            return None
        if isinstance(item, dict | list):
            made: Any = type(item)()
            pending.append((item, made))
            return made
        return item

    root = copied(value)
    while pending:
        source, made = pending.pop()
        if isinstance(source, dict):
            for key, item in source.items():
                made[key] = copied(item)
        else:
            made.extend(copied(item) for item in source)
    return root


def _read_answer(raw: bytes | bytearray) -> Any:
    """An answer's JSON. Bytes that are no UTF-8 (those of a character the token bound cut in
    two, which some servers send as they are, or a model's stray byte) are read as U+FFFD: a
    cut answer is then corrected as cut, not failed as no chat completion. Raises ValueError
    and RecursionError as json.loads does."""
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        # As json.loads reads bytes: a leading byte order mark is skipped.
        return json.loads(bytes(raw).decode("utf-8-sig", "replace"))


def _unlisted(data: Any) -> Any:
    """An answer's JSON, a list of one error object as that object: Google's endpoint answers
    a failure so, under any status. Any other list stays a list."""
    listed = isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict)
    return data[0] if listed and "error" in data[0] else data


def _body_error(raw: bytes | bytearray) -> Any:
    """The error object of an error answer's JSON body, if any: under `error`, or the body
    itself when it is one (`"object": "error"`, as SGLang and older vLLM answer)."""
    try:
        data = _unlisted(json.loads(raw))
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return data if data.get("object") == "error" else data.get("error")


_DELAY_UNITS = {"h": Decimal(3600), "m": Decimal(60), "s": Decimal(1), "ms": Decimal("0.001")}
# Google's RetryInfo.retryDelay, a protobuf Duration in JSON ("12s", "0.000340s").
_RETRY_DELAY = re.compile(r"(\d+(?:\.\d+)?)s")
# OpenAI's "Please try again in 1.5s" (also "20ms", "7m12s"), Google's "Please retry in 12.5s".
_TRY_AGAIN_IN = re.compile(
    r"\b(?:try again|retry) in ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)\b", re.IGNORECASE
)
_DELAY_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)", re.IGNORECASE)
_MOST_OF_A_UNIT = Decimal(10**12)


def _error_object(error: Any) -> dict[str, Any]:
    """An error as an object: anything else an endpoint sends in its place (only words, as
    some do) is the object's message."""
    return error if isinstance(error, dict) else {"message": error}


def _retry_delay(error: Any) -> int | None:
    """The whole seconds (rounded up) an error body asks to wait: its RetryInfo's retryDelay,
    else the wait its message names; None when it names no wait ahead. Capped as a
    Retry-After's is."""
    error = _error_object(error)
    seconds = None
    details = error.get("details")
    for detail in details if isinstance(details, list) else ():
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        found = _RETRY_DELAY.fullmatch(delay.strip()) if isinstance(delay, str) else None
        if found:
            seconds = Decimal(found[1])
            break
    message = error.get("message")
    if seconds is None and isinstance(message, str):
        found = _TRY_AGAIN_IN.search(message)
        if found:
            seconds = sum(
                # Casefolded as the match ignored case: "ſ" (long s) matched "s". An amount
                # past 10**12 (in milliseconds, the cap below) is capped first: a million
                # digits times a unit overflows decimal arithmetic.
                min(Decimal(amount), _MOST_OF_A_UNIT) * _DELAY_UNITS[unit.casefold()]
                for amount, unit in _DELAY_PART.findall(found[1])
            )
    if seconds is None:
        return None
    # Decades are capped anyway, as in _retry_after.
    wait = math.ceil(min(seconds, Decimal(10**9)))
    return wait if wait > 0 else None


def _retry_after_ms(value: str) -> int | None:
    """OpenAI's `retry-after-ms` (finer than Retry-After, which it sends beside it) in whole
    seconds, rounded up; None when it is no positive whole number."""
    value = value.strip()
    if not (value.isascii() and value.isdigit()):
        return None
    # Past twelve digits (decades) the wait is capped anyway, as in _retry_after.
    ms = int(value) if len(value) <= 12 else 10**12
    return math.ceil(ms / 1000) if ms > 0 else None


def _retry_after(value: str) -> int | None:
    """The whole seconds a Retry-After header (delay seconds or an HTTP date) asks to wait, or
    None when it asks for no wait ahead or is no valid value."""
    value = value.strip()
    if value.isascii() and value.isdigit():
        # Past nine digits (decades) the wait is capped anyway; thousands of them are no int.
        seconds = int(value) if len(value) <= 9 else 10**9
    else:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:  # an HTTP date is GMT, whatever it says
            when = when.replace(tzinfo=UTC)
        seconds = math.ceil((when - datetime.now(UTC)).total_seconds())
    return seconds if seconds > 0 else None


def _out_of_quota(status: int, raw: bytes | bytearray) -> bool:
    """A 429 for an account out of credits (OpenAI's `insufficient_quota`): unlike a rate
    limit, no new attempt passes until someone pays, so it is a refusal."""
    if status != 429:
        return False
    error = _body_error(raw)
    return isinstance(error, dict) and _quota_error(error)


def _quota_error(error: dict[str, Any]) -> bool:
    """An error object for an account out of credits (OpenAI's `insufficient_quota`)."""
    return "insufficient_quota" in (error.get("code"), error.get("type"))


def _filtered(error: Any) -> bool:
    """An error object for a conversation the endpoint's content filter refused (Azure
    OpenAI's `content_filter`, when a player's action trips it)."""
    return isinstance(error, dict) and error.get("code") == "content_filter"


# How OpenAI-compatible servers tell a conversation longer than the model's context: OpenAI's
# (and Azure's) code, llama.cpp's error type, and the words of OpenAI, vLLM, SGLang, DeepSeek
# and Mistral ("maximum context length"), LM Studio ("context length"), llama.cpp ("context
# size"), Anthropic's models behind a router ("prompt is too long") and Google ("The input
# token count (...) exceeds the maximum number of tokens allowed").
_CONTEXT_CODES = ("context_length_exceeded", "exceed_context_size_error")
_CONTEXT_WORDS = re.compile(
    r"context[ _](?:length|size|window)|prompt is too long|input token count\b.{0,40}\bexceeds",
    re.IGNORECASE,
)
# vLLM's words when the token bound alone leaves no room in the context: a setting to lower.
_TOKEN_BOUND = re.compile(r"\bmax_(?:completion_)?tokens\b", re.IGNORECASE)


def _too_long(error: Any) -> bool:
    """Whether an error (an object, or only words) says the conversation is longer than the
    model's context: the same conversation is refused again, and no setting is wrong."""
    error = _error_object(error)
    codes = (error.get("code"), error.get("type"))
    message = error.get("message")
    if isinstance(message, str) and _TOKEN_BOUND.search(message):
        return False
    return any(code in codes for code in _CONTEXT_CODES) or (
        isinstance(message, str) and _CONTEXT_WORDS.search(message) is not None
    )


def _conversation_too_long(*, details: dict[str, Any]) -> AgentContextTooLong:
    return AgentContextTooLong(
        _("The conversation is too long for the agent's model."), details=details
    )


def _prompt_filtered(data: dict[str, Any]) -> bool:
    """Whether an answer with no choices says its filter blocked the prompt (Azure OpenAI's
    `prompt_filter_results`, once `prompt_annotations`, with a category filtered)."""
    verdicts = data.get("prompt_filter_results") or data.get("prompt_annotations")
    return isinstance(verdicts, list) and any(
        isinstance(category, dict) and category.get("filtered") is True
        for verdict in verdicts
        if isinstance(verdict, dict) and isinstance(verdict.get("content_filter_results"), dict)
        for category in verdict["content_filter_results"].values()
    )


def _content_filtered(*, details: dict[str, Any]) -> AgentContentFiltered:
    return AgentContentFiltered(
        _("The agent endpoint's content filter refused the turn's conversation."),
        details=details,
    )


def _media_type(response: httpx2.Response) -> str:
    return response.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _streamed(response: httpx2.Response) -> bool:
    """Whether the answer is labelled a stream of server-sent events rather than one JSON
    document."""
    return _media_type(response) == "text/event-stream"


def _streamed_answer(response: httpx2.Response) -> AgentProtocolError:
    return AgentProtocolError(
        _(
            "The agent endpoint streamed its answer (text/event-stream) though the request "
            "asked for a whole one: it must answer with stream set to false."
        ),
        details={"content_type": _media_type(response)},
    )


def _not_a_completion(exc: Exception) -> AgentProtocolError:
    return AgentProtocolError(
        _("The agent endpoint's answer is not a chat completion: %(reason)s") % {"reason": exc}
    )
