"""The trusted side of an agent's tool call: what the model may choose and what it may not.

The model (or the scripted agent) names a tool and its rule arguments. This module refuses a
tool outside the job's facade, strips every argument that would carry identity, campaign,
revision or idempotency, and injects those from the job: the campaign, the last revision seen,
and the idempotency key `<job key>:<step>`. Identity travels only in the delegation token that
`domain_call` mints for the requester.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from apps.domains.client import DomainResult, domain_call
from apps.domains.errors import DomainError
from apps.turns.types import ToolInfo, ToolOutcome

INJECTED_ARGUMENTS = frozenset({"campaign_id", "expected_revision", "idempotency_key"})
# Argument names that would choose who acts or who owns; only trusted code may set those.
IDENTITY_ARGUMENTS = frozenset(
    {"actor", "controller", "owner", "principal", "requester", "sub", "user", "user_id"}
)
# Every argument the model never sets (nor is shown).
TRUSTED_ARGUMENTS = INJECTED_ARGUMENTS | IDENTITY_ARGUMENTS


def model_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments without the trusted ones: what a model may say (or was said to say)."""
    return {key: value for key, value in arguments.items() if key not in TRUSTED_ARGUMENTS}


BeforeCall = Callable[[int, str, dict[str, Any]], None]
AfterCall = Callable[[int, str, DomainResult | DomainError], None]
Resent = Callable[[int, dict[str, Any]], None]
# How often one step is sent again at the campaign's current revision after `stale_revision`
# (another turn in the room wrote first) before the error is left to the worker.
STALE_REFRESHES = 3


class ToolCaller:
    """`call_tool(name, arguments) -> ToolOutcome` for one turn, as handed to a provider.

    Refusals the agent can react to (a rule said no, a tool not offered) come back as
    `ok=False` outcomes. Retryable domain errors (`stale_revision`, `internal`) and transport
    faults (DomainUnavailable, DomainTimeout) are raised, for the worker to classify.
    `before_call`/`after_call` let the worker journal each step around the network call.

    With `stale_refreshes`, a write refused with `stale_revision` is sent again with the same
    key at the campaign's current revision (read from the domain), at most that many times:
    the domain answers a replay before it checks the revision, so that refusal proves the key
    never committed, and its rules check the write against the state it now applies to.
    Should the domain then answer `idempotency_conflict`, the key did commit with arguments sent
    earlier (the stale answer came from the commit check, lost to another send of the same
    step), and those are sent again for their replay. `resent(step, arguments)` lets the worker
    journal the arguments before they are sent, and those found committed.

    With `view` ("public"), every call is answered at that view, not at the requester's: a
    read shows, and a write's result shows, only what the public may see. The writes are the
    requester's all the same (the view narrows the answer, never what the call may do), and a
    write sent again replays at this caller's view whatever an earlier send asked.
    """

    def __init__(
        self,
        *,
        system_id: str,
        campaign_id: str,
        requester: Any,
        job_key: str,
        tools: Sequence[ToolInfo],
        base_revision: int,
        turn: str | None = None,
        character: str | None = None,
        traceparent: str | None = None,
        first_step: int = 1,
        before_call: BeforeCall | None = None,
        after_call: AfterCall | None = None,
        stale_refreshes: int = 0,
        resent: Resent | None = None,
        view: str | None = None,
    ) -> None:
        self.system_id = system_id
        self.campaign_id = campaign_id
        self.requester = requester
        self.job_key = job_key
        self.tools = {tool.name: tool for tool in tools}
        self.revision = base_revision
        self.turn = turn
        self.character = character
        self.traceparent = traceparent
        self.next_step = first_step
        self.before_call = before_call
        self.after_call = after_call
        self.stale_refreshes = stale_refreshes
        self.resent = resent
        self.view = view
        self.outcomes: list[ToolOutcome] = []

    def arguments_for(self, tool: ToolInfo, arguments: Mapping[str, Any], step: int) -> dict:
        """The arguments sent: the model's rule arguments plus the trusted ones."""
        sent = model_arguments(arguments)
        sent["campaign_id"] = self.campaign_id
        if tool.write:
            sent["expected_revision"] = self.revision
            sent["idempotency_key"] = f"{self.job_key}:{step}"
        return sent

    def __call__(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        step = self.next_step
        tool = self.tools.get(name)
        if tool is not None:
            self.next_step += 1
        else:
            # Never sent nor journaled, so it takes no step: the journal's steps stay
            # unbroken, and a retry is shown every call made before.
            message = _("%(tool)s is not offered in this turn; use one of: %(tools)s.") % {
                "tool": name,
                "tools": ", ".join(sorted(self.tools)),
            }
            return self._record(
                ToolOutcome(
                    tool=name,
                    step=step,
                    ok=False,
                    structured={"error": {"code": "tool_not_offered", "message": message}},
                    error_code="tool_not_offered",
                    error_message=message,
                )
            )
        sent = self.arguments_for(tool, arguments, step)
        if self.before_call is not None:
            self.before_call(step, name, sent)
        try:
            result = self._send(step, name, tool, sent)
        except DomainError as exc:
            if self.after_call is not None:
                self.after_call(step, name, exc)
            if exc.retryable:
                raise
            return self._record(
                ToolOutcome(
                    tool=name,
                    step=step,
                    ok=False,
                    structured={
                        "error": {
                            "code": exc.domain_code,
                            "message": exc.message,
                            "retryable": exc.retryable,
                            "recovery": exc.recovery,
                        }
                    },
                    error_code=exc.domain_code,
                    error_message=exc.message,
                )
            )
        if self.after_call is not None:
            self.after_call(step, name, result)
        if result.authority_revision is not None:
            # A replayed write reports the revision it made, which may be older than a
            # read seen since: keep the newest.
            self.revision = max(self.revision, int(result.authority_revision))
        return self._record(
            ToolOutcome(
                tool=name,
                step=step,
                ok=True,
                structured=result.structured,
                content=tuple(result.content),
            )
        )

    def _send(self, step: int, name: str, tool: ToolInfo, sent: dict[str, Any]) -> DomainResult:
        """The step's call, and for a write refused as stale the re-sends described above."""
        tried: list[dict[str, Any]] = []
        while True:
            try:
                return self._call(name, sent)
            except DomainError as exc:
                if tool.write and exc.domain_code == "idempotency_conflict":
                    # The key did commit, with arguments sent before a refresh: the stale
                    # answer came from the commit check while another send of this step (an
                    # attempt that timed out but still ran) took the revision. Its replay is
                    # the step's result.
                    earlier = [*reversed(tried), *self._journaled_sends(step, sent)]
                    return self._committed_replay(step, name, earlier, sent, exc)
                if not (
                    tool.write
                    and exc.domain_code == "stale_revision"
                    and len(tried) < self.stale_refreshes
                ):
                    raise
                try:
                    current = self._current_revision()
                except DomainError:
                    raise exc from None  # the refusal stands as it was
            self._may_send_again()
            tried.append(dict(sent))
            self.revision = max(self.revision, current)
            sent["expected_revision"] = self.revision
            if self.resent is not None:
                self.resent(step, sent)

    def _committed_replay(
        self, step: int, name: str, candidates, sent: dict[str, Any], conflict: DomainError
    ) -> DomainResult:
        seen = [sent]
        for arguments in candidates:
            if arguments in seen:
                continue
            seen.append(arguments)
            try:
                result = self._call(name, arguments)
            except DomainError as exc:
                if exc.domain_code in ("idempotency_conflict", "stale_revision"):
                    continue  # not the arguments that committed
                raise
            if self.resent is not None:
                self.resent(step, arguments)  # the journal holds what the domain committed
            sent.clear()
            sent.update(arguments)
            return result
        raise conflict

    def _may_send_again(self) -> None:
        """Raise to stop before a step is sent again at a newer revision."""

    def _journaled_sends(self, step: int, sent: dict[str, Any]) -> list[dict[str, Any]]:
        """Arguments an earlier run sent for this step, newest first (a journaling caller)."""
        return []

    def _call(self, name: str, arguments: Mapping[str, Any]) -> DomainResult:
        return domain_call(
            system_id=self.system_id,
            tool=name,
            arguments=arguments,
            requester=self.requester,
            campaign_id=self.campaign_id,
            turn=self.turn,
            character=self.character,
            view=self.view,
            traceparent=self.traceparent,
        )

    def _current_revision(self) -> int:
        revision = self._call("campaign_get", {"campaign_id": self.campaign_id}).authority_revision
        return int(revision or 0)

    def _record(self, outcome: ToolOutcome) -> ToolOutcome:
        self.outcomes.append(outcome)
        return outcome
