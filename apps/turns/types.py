"""The values passed between the turn worker and an agent provider.

The provider sees the situation (system, phase, role, task, the player's text, the offered
tools) and a `call_tool` function; it never sees a token, a user id or a principal. Trusted code
injects identity, campaign, revision and idempotency arguments (see `apps.turns.tool_calls`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from apps.turns.errors import TurnTimedOut

# Audiences an agent message may name, relative to the trigger (the player's action message):
#   "trigger"   exactly the trigger's audience (the default);
#   "requester" the triggering user and the GM;
#   "gm"        the GM only;
#   "public"    everyone in the room.
# The GM sees every message, so "gm" is never wider than any trigger.
MESSAGE_AUDIENCES = ("trigger", "requester", "gm", "public")
# The trigger's audience kind as the rooms app records it.
TRIGGER_AUDIENCES = ("public", "private", "gm")
MAX_MESSAGES = 4
MAX_MESSAGE_CHARS = 4000
MAX_SUGGESTIONS = 4
MAX_SUGGESTION_CHARS = 200


def audience_allowed(*, audience: str, trigger_audience: str, requester_is_gm: bool) -> bool:
    """Whether a message audience is no wider than the trigger's."""
    if audience not in MESSAGE_AUDIENCES or trigger_audience not in TRIGGER_AUDIENCES:
        return False
    if audience in ("trigger", "gm"):
        return True
    if audience == "public":
        return trigger_audience == "public"
    # "requester": the requester is in every trigger they wrote, except a GM-only one
    # written by a non-GM (which the rooms app does not allow anyway).
    return trigger_audience != "gm" or requester_is_gm


@dataclass(frozen=True)
class ToolInfo:
    """One offered tool, as the live catalog describes it."""

    name: str
    description: str
    input_schema: Mapping[str, Any]

    @property
    def write(self) -> bool:
        # Every write takes an idempotency key (domain-contract.md, "Writes").
        return "idempotency_key" in (self.input_schema.get("properties") or {})


@dataclass(frozen=True)
class Deadline:
    """When an attempt stops starting work (tool calls, model requests): `limit` seconds after
    it began, at `at` on the monotonic clock."""

    limit: float
    at: float

    @classmethod
    def after(cls, limit: float) -> Deadline:
        return cls(limit, time.monotonic() + limit)

    def left(self) -> float:
        """The seconds left. Raises TurnTimedOut once none are."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TurnTimedOut(
                _("The turn took longer than %(n)s seconds.") % {"n": f"{self.limit:g}"}
            )
        return left


@dataclass(frozen=True)
class EarlierStep:
    """A step an earlier attempt of the turn journaled, with the agent's own arguments. Called
    again in order, it is answered from the journal (or re-sends exactly what was dispatched)."""

    tool: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class TurnContext:
    """What an agent may know about the turn it runs."""

    job_id: str  # seeds the scripted narration, so a re-run narrates the same words
    system_id: str
    phase: str
    role: str  # the requester's campaign role: owner, gm, player or observer
    task: str  # chat, action or narration
    text: str  # what the player wrote
    tools: tuple[ToolInfo, ...]  # the persisted facade selection, in order, with schemas
    trigger_audience: str = "public"
    character_id: str | None = None  # the requester's bound character, if any
    # The campaign's characters a member controls, id -> name, from Django's bindings: the only
    # ids an agent may address suggestions to (`AgentOutput.suggestions_for`). Read only for a
    # provider that asks (`addresses_characters`); the scripted agent reads the domain's.
    bound_characters: Mapping[str, str] = field(default_factory=dict)
    language: str = "en"
    # A retry's journaled steps, in order: an agent that cannot repeat itself exactly (a model)
    # makes these calls first; a deterministic one may ignore them.
    earlier: tuple[EarlierStep, ...] = ()
    # The turn is over (its attempts ran out) and is only narrated from `earlier`: the worker
    # sends no call past them, so a model is asked for its answer without tools.
    narrate_only: bool = False
    # Past it, the turn starts no model request nor tool call.
    deadline: Deadline | None = None
    # Where a provider reports its model usage so far (the run's running totals) after each
    # request: stored at once, so an attempt that fails later keeps it, charged with the turn
    # if a later attempt succeeds or a write of it committed (one that fails with nothing
    # written releases its reservation).
    record_usage: Callable[[Mapping[str, int]], None] | None = None

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(tool.name for tool in self.tools)

    @property
    def is_gm(self) -> bool:
        return self.role in ("owner", "gm")


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call as the agent sees it.

    `ok=False` is a refusal the agent may react to (the rules said no, the tool is not offered,
    the arguments were wrong); faults the worker must handle (unreachable server, stale
    revision) are raised instead and never reach the agent.
    """

    tool: str
    step: int
    ok: bool
    structured: dict[str, Any]  # structuredContent; {"error": {...}} when not ok
    content: tuple[dict[str, Any], ...] = ()
    error_code: str | None = None
    error_message: str | None = None

    def for_model(self) -> dict[str, Any]:
        """What a language model is shown: the structured result or the refusal."""
        if self.ok:
            return self.structured
        return {"error": {"code": self.error_code, "message": self.error_message}}


CallTool = Callable[[str, Mapping[str, Any]], ToolOutcome]


@dataclass(frozen=True)
class AgentMessage:
    text: str
    audience: str = "trigger"


@dataclass(frozen=True)
class OfferedTurn:
    """The turn an agent's suggestions are for, as its own tool results left it: the phase and,
    in combat, the round and whose turn it is (None outside it). Publication names it with the
    revision of the turn's last write, so suggestions published after a later turn of the room
    are still named for their own."""

    phase: str
    round: int | None = None
    combatant: str | None = None


@dataclass(frozen=True)
class AgentOutput:
    messages: tuple[AgentMessage, ...]
    suggestions: tuple[str, ...] = ()  # for the requester alone
    # Next actions for whoever controls a character, by its id: the player an action handed the
    # turn to. The agent names the character, never a person: publication finds its player.
    suggestions_for: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Next actions for the GM(s), who play the monsters: a monster's turn an action by someone
    # else handed them (a GM requester's own are in `suggestions`).
    gm_suggestions: tuple[str, ...] = ()
    # The turn all of the above are for, when the agent knows it from what its calls returned;
    # None: publication reads the turn the room's panels show.
    turn: OfferedTurn | None = None
    tool_calls: int = 0
    # Model requests and tokens: prompt_tokens, completion_tokens, and total_tokens, the tokens
    # charged (each answer's parts' sum, or its total where an endpoint reports no parts).
    usage: Mapping[str, int] = field(default_factory=dict)
    # The agent answered without acting: it did not understand, asked back ("did you mean"),
    # or refused by the rules it knows. Reads it made to decide that are not charged.
    declined: bool = False
    # Of those, a reply that is only help: the help list, a typo asked back, a hint for text
    # not understood. Nothing of the game was answered, so the room is not told of it.
    help_only: bool = False
