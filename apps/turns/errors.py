"""Turn errors and the one classification the worker stores on a failed or retried job.

Every failure gets a stable `code`, whether a new attempt may help (`retryable`) and a
`recovery` hint for people. `ApplicationError`s (domain refusals included) keep their own
classification; anything else is an unexpected fault.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import httpx2
from celery.exceptions import SoftTimeLimitExceeded
from django import db
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.core.errors import ApplicationError


class TurnError(ApplicationError):
    code = "turn_failed"
    status = 500
    # The hint a GM reads when their narration failed, where `recovery` speaks of an action.
    narration_recovery = ""


class WriteUnsettled(TurnError):
    """A cancelled turn's unanswered write may still be running on the domain: ask again."""

    code = "write_unsettled"
    status = 503
    retryable = True


class WriteUnknown(TurnError):
    """A re-sent write was refused before the domain looked up its key (the requester left or
    lost the role): whether an earlier send committed it cannot be learnt any more."""

    code = "write_unknown"
    status = 409
    recovery = str(_("Part of the turn may have happened; read the room before acting again."))


class AgentNotConfigured(TurnError):
    """SAGASMITH_AGENT_PROVIDER names no provider, or the provider misses its settings."""

    code = "agent_not_configured"
    status = 503
    recovery = str(_("An operator must configure the agent provider."))


class AgentUnavailable(TurnError):
    """The model endpoint could not be reached, timed out or was overloaded."""

    code = "agent_unavailable"
    status = 503
    retryable = True
    recovery = str(_("Try again shortly."))


class AgentRejected(TurnError):
    """The model endpoint refused the request (bad key, unknown model, bad request)."""

    code = "agent_rejected"
    status = 502
    recovery = str(_("An operator must check the agent provider's settings."))


class AgentContentFiltered(AgentRejected):
    """The endpoint's content filter refused the conversation: the same words would be refused
    again, and no setting is wrong."""

    code = "agent_content_filtered"
    recovery = str(_("Rephrase the action and try again."))
    narration_recovery = str(_("Rephrase the narration and try again."))


class AgentContextTooLong(AgentRejected):
    """The conversation is longer than the model's context: refused again as it is, and no
    setting is wrong unless short actions fail too."""

    code = "agent_context_too_long"
    recovery = str(
        _(
            "Send a shorter action, or split it into smaller steps. If short actions fail too, "
            "an operator must give the agent a model with a longer context or a lower token "
            "bound."
        )
    )
    narration_recovery = str(
        _(
            "Send a shorter narration, or split it into smaller parts. If short narrations fail "
            "too, an operator must give the agent a model with a longer context or a lower "
            "token bound."
        )
    )


class AgentProtocolError(TurnError):
    """The model endpoint answered with something that is not a chat completion."""

    code = "agent_protocol_error"
    status = 502
    recovery = str(_("An operator must check that the endpoint is OpenAI-compatible."))


class AgentOutputInvalid(TurnError):
    """The model's final answer broke the output contract, even after one correction."""

    code = "agent_output_invalid"
    status = 502
    recovery = str(_("Rephrase the action and try again."))
    narration_recovery = str(_("Rephrase the narration and try again."))


class AgentToolLimit(TurnError):
    """The model kept calling tools after it was told the turn's limit was reached."""

    code = "agent_tool_limit"
    status = 502
    recovery = str(_("Split the action into smaller steps."))
    narration_recovery = str(_("Split the narration into smaller parts."))


class AgentTokenLimit(TurnError):
    """The model spent its whole token bound before answering (a reasoning model thinking at
    length): it would spend the same bound again, and the player's action is not at fault."""

    code = "agent_token_limit"
    status = 502
    recovery = str(_("An operator must raise SAGASMITH_OPENAI_MAX_TOKENS."))


@dataclass(frozen=True)
class ErrorClassification:
    code: str
    retryable: bool
    recovery: str
    message: str
    # The whole seconds the failing service asked to wait before another attempt, if any.
    retry_after: int | None = None


def requested_wait(exc: ApplicationError) -> int | None:
    """The wait a retryable error asks for before another attempt (its `details.retry_after`,
    as a 429 envelope has it), in whole seconds; None when it asks for none."""
    value = exc.details.get("retry_after") if isinstance(exc.details, dict) else None
    if not exc.retryable or type(value) not in (int, float) or not 0 < value < math.inf:
        return None
    return math.ceil(value)


def wait_text(seconds: int) -> str:
    """A wait as the player reads it: seconds up to two minutes, then whole minutes (up)."""
    if seconds < 120:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


TRANSIENT_RECOVERY = str(_("The turn will be retried automatically."))
INTERNAL_RECOVERY = str(_("Report this to the operators; the turn was stopped."))
# What the job row and the outcome (both the player's to read) say of a fault outside the error
# hierarchy: its own text may name hosts, credentials or SQL, and goes to the worker's log.
FAULT_MESSAGES = {
    "transient_fault": _("A passing fault stopped the turn."),
    "internal_error": _("The turn failed unexpectedly."),
}


TRANSIENT_FAULTS = (
    TimeoutError,
    ConnectionError,
    httpx2.TransportError,
    db.OperationalError,
    db.InterfaceError,
    SoftTimeLimitExceeded,
)


def classify_error(exc: BaseException, *, narration: bool = False) -> ErrorClassification:
    """The stable code, retryability and recovery hint the worker stores for a failure, the
    hint for a GM's narration when the failed turn was one."""
    if isinstance(exc, ApplicationError):
        from apps.turns.models import RoomTurnJob

        # A domain's own code passes through: one longer than the job's column (a server off
        # the contract) is cut rather than failing every write of it.
        length = RoomTurnJob._meta.get_field("error_code").max_length
        return ErrorClassification(
            exc.code[:length], bool(exc.retryable), _recovery(exc, narration), exc.message,
            requested_wait(exc),
        )  # fmt: skip
    if isinstance(exc, TRANSIENT_FAULTS):
        # Network faults outside the domain client (which classifies its own), a database
        # that went away or was busy, a turn past its soft time limit: try again (the
        # journal keeps a retry from repeating a call that returned).
        return ErrorClassification(
            "transient_fault", True, TRANSIENT_RECOVERY, str(FAULT_MESSAGES["transient_fault"])
        )
    # A bug does not heal on retry, and a retry could repeat whatever half-ran.
    return ErrorClassification(
        "internal_error", False, INTERNAL_RECOVERY, str(FAULT_MESSAGES["internal_error"])
    )


def _recovery(exc: ApplicationError, narration: bool) -> str:
    """An error's hint, for a narration its class's narration hint if it has one; a hint
    given where it was raised is its own and stands."""
    if "recovery" in vars(exc):
        return str(exc.recovery)
    return recovery_for(type(exc), narration=narration)


def recovery_for(error: type[ApplicationError], *, narration: bool) -> str:
    """An error class's hint, for a GM whose narration failed its narration hint if any."""
    if narration and getattr(error, "narration_recovery", ""):
        return str(error.narration_recovery)
    return str(error.recovery)


class StaleRevision(TurnError):
    """The client's base_revision is behind the campaign's authority revision."""

    code = "stale_revision"
    status = 409
    # Not the same request again: it would name the same passed revision.
    retryable = False
    recovery = str(_("Reload the room to see the latest state, then act again."))


class TurnCancelled(TurnError):
    """Cancel was requested while the job ran; it stopped before its next tool call."""

    code = "cancelled"
    status = 409
    recovery = str(_("Send the action again if you still want it."))
    narration_recovery = str(_("Send the narration again if you still want it."))


class TurnTimedOut(TurnError):
    """The agent ran past the turn's time limit; it stopped before its next tool call. Not
    retried: a turn that slow would most likely be as slow again."""

    code = "turn_timeout"
    status = 504
    retryable = False
    recovery = str(_("Act again, perhaps with a simpler action."))
    narration_recovery = str(_("Send the narration again, perhaps a simpler one."))


class JournalDiverged(TurnError):
    """A re-run asked for a different tool at a step the journal already holds."""

    code = "journal_diverged"
    status = 500
    recovery = str(_("The turn stopped so nothing runs twice; act again if needed."))


class PublicationFailed(TurnError):
    """Publishing the outcome failed after the domain committed; recovery publishes it."""

    code = "publication_failed"
    status = 503
    retryable = True
    recovery = str(_("The result is saved and will be published shortly."))
