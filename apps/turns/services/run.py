"""Running a claimed job: facade selection, the agent with a journaling tool caller, then
publication. No transaction or lock is held while the agent or a domain server is awaited."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any, NoReturn

from django.db import close_old_connections, connection
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.campaigns.models import Campaign
from apps.campaigns.selectors import bindings_chosen_first, bindings_for, membership_for
from apps.campaigns.services.authority import campaign_refresh
from apps.core.errors import ApplicationError
from apps.core.sql import db_value, insert_select_sql, mark_saved
from apps.domains.client import CONNECT_TIMEOUT, DomainResult
from apps.domains.errors import DomainError
from apps.domains.registry import get_plugin
from apps.rooms.selectors import MANAGER_ROLES
from apps.turns import conf
from apps.turns.agents import agent_provider
from apps.turns.catalog import offered_tools
from apps.turns.errors import (
    AgentNotConfigured,
    ErrorClassification,
    JournalDiverged,
    StaleRevision,
    TurnCancelled,
    TurnError,
    WriteUnknown,
    WriteUnsettled,
    classify_error,
    wait_text,
)
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services.jobs import (
    LeaseLost,
    held_by,
    job_cancel_requested,
    requeue_delay,
    retry_wait_limit,
    turn_claim,
    turn_heartbeat,
    turn_requeue,
    worker_name,
)
from apps.turns.services.publish import output_to_json, turn_publish_or_wait
from apps.turns.tool_calls import STALE_REFRESHES, ToolCaller, model_arguments
from apps.turns.types import AgentOutput, Deadline, EarlierStep, ToolOutcome, TurnContext

logger = logging.getLogger(__name__)


class NotMember(TurnError):
    code = "not_member"
    status = 403
    recovery = str(_("Only members act in a campaign; ask its owner for a new invitation."))


class NarrationPastJournal(TurnError):
    """A turn narrated again from its journal asked for a step it holds no answer to."""

    code = "narration_past_journal"


# Refusals the domain gives before it looks up a write's idempotency key (the contract's order:
# the token, membership and role, then the key): to a re-send they say nothing of whether an
# earlier send of the step committed.
BEFORE_KEY_LOOKUP = frozenset({"authorization_denied", "not_found"})


def _write_unknown() -> WriteUnknown:
    return WriteUnknown(
        _(
            "The game server would not say whether part of this turn happened: you may no "
            "longer act in this campaign."
        )
    )


class Heartbeat:
    """Renews the lease (and reservation) every lease/3 from a thread with its own connection."""

    def __init__(self, job: RoomTurnJob, worker: str) -> None:
        self.job = job
        self.worker = worker
        self.cancel_requested = job.cancel_requested
        self.lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"turn-heartbeat-{job.pk}",
                                        daemon=True)  # fmt: skip

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        lease = conf.lease_seconds()
        interval = max(0.2, lease / 3)
        renewed = time.monotonic()
        try:
            while not self._stop.wait(interval):
                try:
                    self.cancel_requested = turn_heartbeat(job=self.job, worker=self.worker)
                    renewed = time.monotonic()
                except LeaseLost:
                    self.lost = True
                    return
                except Exception:
                    logger.warning("Turn heartbeat failed", exc_info=True)
                    # A broken connection must not fail every later beat too.
                    connection.close()
                    if time.monotonic() - renewed >= lease:
                        # The lease has run out unrenewed: the sweep may hand the job to
                        # another worker, so this one stops before its next call.
                        self.lost = True
                        return
        finally:
            close_old_connections()


class JournalCaller(ToolCaller):
    """A ToolCaller whose steps are journaled: `dispatched` before the network call and
    `returned` (with the full CallToolResult) after it. A step the journal already holds as
    returned is answered from the journal, never re-executed; a dispatched one is re-sent with
    its stored arguments, so its idempotency key makes the domain server replay it.

    With `narrate_only` (a turn narrated again after its attempts ran out) it sends no step
    the journal does not hold, nor a write it holds unanswered (NarrationPastJournal): the
    narration tells what happened and does nothing more once the turn has ended."""

    def __init__(
        self,
        *,
        job: RoomTurnJob,
        heartbeat: Heartbeat | None,
        narrate_only: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            before_call=self._before, after_call=self._after, resent=self._resent, **kwargs
        )
        self.job = job
        self.heartbeat = heartbeat
        self.narrate_only = narrate_only
        # A first attempt has no journal yet (operations are only written by a claimed
        # attempt), unless it is narrated again after its stored ending (_prepare_publication).
        fresh = job.attempt == 1 and job.agent_output is None
        self.journal = {} if fresh else {op.step: op for op in job.operations.all()}
        self.deadline = Deadline.after(conf.run_seconds())
        self.resending: set[int] = set()  # steps an earlier send of which may have committed

    def _check_running(self) -> None:
        self.deadline.left()
        if self.heartbeat is not None:
            if self.heartbeat.lost:
                raise LeaseLost(_("The job's lease passed to another worker."))
            if self.heartbeat.cancel_requested:
                raise TurnCancelled(_("The turn was cancelled."))
        elif job_cancel_requested(self.job):
            raise TurnCancelled(_("The turn was cancelled."))

    def __call__(self, name: str, arguments: Mapping[str, Any]) -> ToolOutcome:
        if name not in self.tools:
            return super().__call__(name, arguments)  # refused here, takes no step
        step = self.next_step
        op = self.journal.get(step)
        if op is not None and op.state == Operation.State.UNKNOWN:
            raise _write_unknown()
        if op is not None and op.state != Operation.State.DISPATCHED:
            if op.tool != name:
                raise JournalDiverged(
                    _("Step %(step)s was %(old)s, not %(new)s.")
                    % {"step": step, "old": op.tool, "new": name}
                )
            self.next_step += 1
            return self._record(self._replayed(op))
        if self.narrate_only and (op is None or op.write):
            # Only a read the turn had sent may go again (it changes nothing).
            raise NarrationPastJournal(
                _(
                    "Step %(step)s (%(tool)s) has no answer in the journal: the turn is only "
                    "narrated."
                )
                % {"step": step, "tool": name}
            )
        if name in self.tools:
            self._check_running()
        return super().__call__(name, arguments)

    def _replayed(self, op: Operation) -> ToolOutcome:
        if op.state == Operation.State.REFUSED:
            error = op.error or {}
            return ToolOutcome(
                tool=op.tool, step=op.step, ok=False, structured={"error": error},
                error_code=error.get("code"), error_message=error.get("message"),
            )  # fmt: skip
        result = op.result or {}
        structured = result.get("structuredContent") or {}
        receipt = structured.get("receipt") if isinstance(structured, dict) else None
        revision = (receipt or {}).get("authority_revision", structured.get("authority_revision"))
        if revision is not None:
            self.revision = max(self.revision, int(revision))
        return ToolOutcome(
            tool=op.tool, step=op.step, ok=True, structured=structured,
            content=tuple(result.get("content") or ()),
        )  # fmt: skip

    def _before(self, step: int, name: str, sent: dict[str, Any]) -> None:
        op = self.journal.get(step)
        if op is not None:
            if op.tool != name:
                raise JournalDiverged(
                    _("Step %(step)s was %(old)s, not %(new)s.")
                    % {"step": step, "old": op.tool, "new": name}
                )
            # Re-send exactly what was dispatched: the same key and request replay.
            sent.clear()
            sent.update(op.arguments)
            self.resending.add(step)
            # updated_at is the step's last send: a cancel's look at it waits out a send
            # that may still be running.
            op.attempt, op.updated_at = self.job.attempt, timezone.now()
            # Only while no cancel stands, as for a new step: a cancel stops a re-send too.
            sending = Operation.objects.filter(
                pk=op.pk, job__cancel_requested=False, job__status=RoomTurnJob.Status.RUNNING,
                job__attempt=self.job.attempt,
            ).update(attempt=op.attempt, updated_at=op.updated_at)  # fmt: skip
            if not sending:
                _stopped(self.job)
            return
        self.journal[step] = _journal_dispatched(
            Operation(
                job=self.job,
                step=step,
                tool=name,
                write=self.tools[name].write,
                idempotency_key=str(sent.get("idempotency_key") or ""),
                arguments=dict(sent),
                attempt=self.job.attempt,
            )
        )
        name_, seconds = conf.fault()
        if name_ == "pause_after_dispatch" and self.job.attempt == 1:
            time.sleep(seconds)

    def _may_send_again(self) -> None:
        self._check_running()
        # The heartbeat's flag is a beat old: a send at a newer revision looks at the row.
        if self.heartbeat is not None and job_cancel_requested(self.job):
            raise TurnCancelled(_("The turn was cancelled."))

    def _resent(self, step: int, sent: dict[str, Any]) -> None:
        """Journal a step's arguments sent again at a newer revision (before the call), or the
        earlier ones the domain turned out to have committed; every other revision it was sent
        at stays listed, so a later run can find the committed one too."""
        op = self.journal[step]
        revisions = [*op.sent_revisions, op.arguments.get("expected_revision")]
        op.sent_revisions = sorted(
            {r for r in revisions if r is not None and r != sent.get("expected_revision")}
        )
        op.arguments = dict(sent)
        _journal_write(op, ["arguments", "sent_revisions"])

    def _journaled_sends(self, step: int, sent: dict[str, Any]) -> list[dict[str, Any]]:
        op = self.journal.get(step)
        if op is None:
            return []
        return [
            {**sent, "expected_revision": revision}
            for revision in reversed(op.sent_revisions)
            if revision != sent.get("expected_revision")
        ]

    @staticmethod
    def refuse(
        op: Operation,
        error: DomainError,
        *,
        retryable: bool | None = None,
        state: str = Operation.State.REFUSED,
    ) -> None:
        """Journal the step as refused: the domain did not (and will not) commit it; or, with
        `state` unknown, as a write the domain will not say it committed (with its answer)."""
        op.state = state
        op.error = {
            "code": error.domain_code,
            "message": error.message,
            "retryable": error.retryable if retryable is None else retryable,
            "recovery": error.recovery,
        }
        _journal_write(op, ["state", "error"])

    def _after(self, step: int, name: str, outcome: DomainResult | DomainError) -> None:
        op = self.journal[step]
        if isinstance(outcome, DomainError):
            if outcome.retryable:
                # Stays dispatched: the retry re-sends it with the same key. The domain's
                # answer is kept, so a write it keeps refusing is asked about instead once
                # publication has had its tries (one that never reached it is not).
                op.error = {
                    "code": outcome.domain_code,
                    "message": outcome.message,
                    "retryable": True,
                    "recovery": outcome.recovery,
                }
                # updated_at stays the send's: the send may still be running on the domain.
                _journal_write(op, ["error"], touch=False)
                return
            if op.write and step in self.resending and outcome.domain_code in BEFORE_KEY_LOOKUP:
                self.refuse(op, outcome, state=Operation.State.UNKNOWN)
                raise _write_unknown()
            self.refuse(op, outcome)
            return
        name_, seconds = conf.fault()
        if name_ == "pause_after_call" and self.job.attempt == 1:
            time.sleep(seconds)  # the domain committed; a kill here loses only the journal row
        op.state = Operation.State.RETURNED
        op.result = outcome.result
        fields = ["state", "result"]
        if op.error is not None:
            op.error = None  # an earlier send's retryable refusal: answered now
            fields.append("error")
        _journal_write(op, fields)


def _journal_write(op: Operation, fields: list[str], *, touch: bool = True) -> None:
    """Store the answer to a send of the step, only while the row is still that send's (the
    attempt it was last sent at): a worker the sweep took the turn from may be answered after
    a later attempt re-sent the step and journaled what the domain committed, and its answer
    (a refusal of its own expired delegation, a timeout) must not overwrite that. Raises
    LeaseLost when it is no longer."""
    if touch:
        op.updated_at = timezone.now()
        fields = [*fields, "updated_at"]
    values = {name: getattr(op, name) for name in fields}
    written = Operation.objects.filter(pk=op.pk, attempt=op.attempt).update(**values)
    if not written:
        raise LeaseLost(_("The job's lease passed to another worker."))


def _journal_dispatched(op: Operation) -> Operation:
    """Write the step as dispatched while the attempt still runs and no cancel was requested:
    one statement, so a cancel stops the turn before its next call (the heartbeat only sees it
    once a beat), and a worker whose turn the sweep took back sends nothing more, at no extra
    round trip. Raises TurnCancelled, LeaseLost."""
    qn = connection.ops.quote_name
    column = lambda name: qn(RoomTurnJob._meta.get_field(name).column)  # noqa: E731
    source = (
        f"{qn(RoomTurnJob._meta.db_table)} WHERE {qn(RoomTurnJob._meta.pk.column)} = %s "
        f"AND NOT {column('cancel_requested')} AND {column('status')} = %s "
        f"AND {column('attempt')} = %s"
    )
    sql, params = insert_select_sql(Operation, op, source)
    with connection.cursor() as cursor:
        cursor.execute(
            f"{sql} RETURNING {qn(Operation._meta.pk.column)}",
            [*params, db_value(RoomTurnJob, "pk", op.job_id), RoomTurnJob.Status.RUNNING,
             op.attempt],
        )  # fmt: skip
        row = cursor.fetchone()
    if row is None:
        _stopped(op.job)
    op.pk = row[0]
    mark_saved(op)
    return op


def _stopped(job: RoomTurnJob) -> NoReturn:
    """Why the attempt may send nothing more: a cancel, else the job is no longer its own."""
    if job_cancel_requested(job):
        raise TurnCancelled(_("The turn was cancelled."))
    raise LeaseLost(_("The job's lease passed to another worker."))


# The ending of a turn whose retryable failures used up its attempts.
EXHAUSTED = "attempts_exhausted"
EXHAUSTED_RECOVERY = gettext_lazy(
    "Nothing happened in the game. Send the action again in a minute."
)
# The same, or a turn whose failing service asked for a longer wait than a turn may wait.
WAIT_RECOVERY = gettext_lazy("Nothing happened in the game. Send the action again in %(wait)s.")
# Both for a GM whose narration failed.
NARRATION_EXHAUSTED_RECOVERY = gettext_lazy(
    "Nothing happened in the game. Send the narration again in a minute."
)
NARRATION_WAIT_RECOVERY = gettext_lazy(
    "Nothing happened in the game. Send the narration again in %(wait)s."
)
# The ending the recovery sweep gives a turn whose workers kept stopping on it.
LEASE_EXHAUSTED = "worker_lease_exhausted"
# A failed turn's advice once a write of it is known to have committed.
PARTIAL_RECOVERY = gettext_lazy("Part of the turn happened; read the room before acting again.")


# The delegation's `character` claim for a player with no character bound to them here: the
# domain then refuses to let them act as any character, including one it still lists them as
# controlling (a GM unbound it, or they left and came back).
NO_CHARACTER = ""


def _journal_caller(
    job: RoomTurnJob,
    campaign: Campaign,
    heartbeat: Heartbeat | None,
    *,
    tools,
    character,
    stale_refreshes: int = 0,
    narrate_only: bool = False,
    view: str | None = None,
) -> JournalCaller:
    """The job's journaling tool caller: its requester, key, starting revision and trace, and
    the character it acts as (for GMs, none named: they act for every character)."""
    if character is None and job.role not in MANAGER_ROLES:
        character = NO_CHARACTER
    return JournalCaller(
        job=job,
        heartbeat=heartbeat,
        system_id=campaign.system_id,
        campaign_id=campaign.domain_id,
        requester=job.requester,
        job_key=job.job_key,
        tools=tools,
        base_revision=job.start_revision or 0,
        turn=str(job.id),
        character=character,
        traceparent=job.traceparent or None,
        stale_refreshes=stale_refreshes,
        narrate_only=narrate_only,
        view=view,
    )


def _settle_dispatched(
    job: RoomTurnJob, journal: dict[int, Operation] | None, worker: str, *, ask_only=False
) -> None:
    """Before a job is published, settle every write its journal still holds as dispatched: the
    first attempt may have committed on the domain (the worker stopped, or the call timed out,
    before the result was journaled).

    A job that ends otherwise than cancelled re-sends each with its stored arguments and key:
    the domain replays a committed one (publication then applies and charges its receipt),
    runs one that never arrived, or answers `stale_revision`, which (replays are answered
    before the revision check) proves the key never committed: the step is refused. A
    cancelled job runs nothing more: `_committed_or_refused` asks the domain whether each key
    committed without letting it run, so what did commit is published and charged like any
    other committed write. Should the domain not say, the campaign's revision is read back
    instead, so the room's next turn does not start behind it.

    A job cancelled since its ending was stored is settled the same way (its ending becomes
    cancelled unless it narrates), and so is one past its publication tries: a write the
    domain keeps refusing as retryable is then asked about rather than sent forever. So is
    every write with `ask_only` (a turn the sweep gave up)."""
    if journal is not None:
        pending = [op for op in journal.values() if op.state == Operation.State.DISPATCHED]
    else:
        pending = list(job.operations.filter(state=Operation.State.DISPATCHED))
    pending = sorted((op for op in pending if op.write), key=lambda op: op.step)
    if not pending:
        return
    campaign = Campaign.objects.get(pk=job.campaign_id)
    try:
        provider = agent_provider()
    except AgentNotConfigured:
        provider = None  # none to ask: _result_view then keeps to the public view
    # At the view of the turn's other sends: a replay journaled here is what a narration from
    # the journal shows its agent.
    caller = _journal_caller(
        job, campaign, None,
        tools=offered_tools(campaign.system_id, [op.tool for op in pending]),
        character=_bound_character(job), view=_result_view(job, provider),
    )  # fmt: skip
    caller.journal = {op.step: op for op in pending}
    stored = job.agent_output or {}
    cancelled = stored.get("final_status") == RoomTurnJob.Status.CANCELLED
    if not cancelled and job_cancel_requested(job):
        cancelled = True
        if not stored.get("messages"):
            cancel = TurnCancelled(_("The turn was cancelled."))
            _store_output(job, worker, _ending("cancelled", _classified(job, cancel)))
    if cancelled or ask_only:
        asked = pending
    elif job.attempt >= conf.publish_attempts():
        # Refused by the domain itself each time (its answer is on the row): ask, don't send.
        asked = [op for op in pending if (op.error or {}).get("retryable")]
    else:
        asked = []
    if asked:
        settled = [_committed_or_refused(caller, op, campaign) for op in asked]
        if not all(settled):
            campaign_refresh(campaign=campaign, requester=campaign.owner)
    unknown = False
    for op in pending:
        if op in asked:
            continue
        # A stale answer can come from the commit check while another send of the key (a call
        # that timed out but still ran) commits it. Either way the campaign has then moved past
        # the revision the key was sent at, so it can commit no more, and a second send's
        # idempotency lookup finds it if it did.
        for last in (False, True):
            caller.next_step = op.step
            try:
                # The plain call, not the journal's: nothing stops a call already made.
                ToolCaller.__call__(caller, op.tool, op.arguments)
                break
            except WriteUnknown:
                unknown = True
                break
            except DomainError as exc:
                if exc.domain_code != "stale_revision":
                    raise
                if last:
                    JournalCaller.refuse(op, exc, retryable=False)
    if unknown:
        # Whatever the domain did, the room's projections follow it (read as the owner).
        campaign_refresh(campaign=campaign, requester=campaign.owner)


# An expected revision no campaign reaches: a write sent with it is refused at the revision
# check unless the idempotency lookup answers it first.
PROBE_REVISION = 2**53
# How long after its last send a write may still be running on the domain, beyond the call's
# timeout: the client's own longest wait (two connects and a second) and some slack.
SEND_SETTLE_MARGIN = timedelta(seconds=2 * CONNECT_TIMEOUT + 1 + 5)


def _committed_or_refused(caller: JournalCaller, op: Operation, campaign: Campaign) -> bool:
    """Settle an unanswered write of a cancelled job without letting it run: its key is sent
    with an impossible expected revision. `idempotency_conflict` means the key committed (with
    journaled arguments, whose replay is then the step's result); `stale_revision` means the
    lookup found nothing. That is final once the campaign is past every revision the key was
    sent at (a send still running can commit only there) or once its last send is too old to
    be running; until then WriteUnsettled asks for another look later. Returns False when
    the domain would not say (a refusal that may come before the lookup: role, phase)."""
    probe = {**op.arguments, "expected_revision": PROBE_REVISION}
    sent_at = max([*op.sent_revisions, op.arguments.get("expected_revision", 0)])
    for second_look in (False, True):
        try:
            caller._call(op.tool, probe)
            return False  # not reachable: no campaign has that revision
        except DomainError as exc:
            if exc.retryable and exc.domain_code != "stale_revision":
                raise  # the domain could not answer now: publication tries again
            answer = exc
        if answer.domain_code == "idempotency_conflict":
            break
        if answer.domain_code != "stale_revision":
            if answer.domain_code in BEFORE_KEY_LOOKUP:
                JournalCaller.refuse(op, answer, state=Operation.State.UNKNOWN)
            return False
        if second_look:
            JournalCaller.refuse(op, answer, retryable=False)
            return True
        if caller._current_revision() <= sent_at:
            timeout = timedelta(seconds=get_plugin(campaign.system_id).timeout)
            if timezone.now() - op.updated_at < timeout + SEND_SETTLE_MARGIN:
                raise WriteUnsettled(_("The turn's last write may still be running."))
            JournalCaller.refuse(op, answer, retryable=False)
            return True
    candidates = [dict(op.arguments), *caller._journaled_sends(op.step, dict(op.arguments))]
    try:
        result = caller._committed_replay(op.step, op.tool, candidates, probe, answer)
    except DomainError as exc:
        if exc.retryable:
            raise
        return False
    caller._after(op.step, op.tool, result)
    return True


def _bound_character(job: RoomTurnJob) -> str | None:
    """The character the job acts as: the one its requester chose while they still control
    it, else their first controlled one (as the claim reads it)."""
    return (
        bindings_chosen_first(
            campaign_id=job.campaign_id, user_id=job.requester_id, character_id=job.character_id
        )
        .filter(can_control=True)
        .values_list("character_id", flat=True)
        .first()
    )


def _select_facade(job: RoomTurnJob, campaign: Campaign, role: str) -> None:
    """Persist the tool selection and the starting revision once (compare-and-set); usually
    the claim already stored it."""
    if job.start_revision is not None:
        return
    if job.base_revision is not None and job.base_revision != campaign.authority_revision:
        raise StaleRevision(
            _("The room changed since the action was sent (revision %(current)s, not %(base)s).")
            % {"current": campaign.authority_revision, "base": job.base_revision},
            details={
                "base_revision": job.base_revision,
                "current_revision": campaign.authority_revision,
            },
        )
    names = list(get_plugin(campaign.system_id).facade_tools(
        phase=campaign.phase, role=role, task=job.task
    ))  # fmt: skip
    stored = RoomTurnJob.objects.filter(pk=job.pk, start_revision__isnull=True).update(
        tools=names,
        start_revision=campaign.authority_revision,
        phase=campaign.phase,
        role=role,
        updated_at=timezone.now(),
    )
    if stored:
        job.tools, job.start_revision = names, campaign.authority_revision
        job.phase, job.role = campaign.phase, role
    else:
        job.refresh_from_db()


def _run_agent(
    job: RoomTurnJob, worker: str, heartbeat: Heartbeat | None, *, narrate_only: bool = False
) -> tuple[AgentOutput, dict[int, Operation]]:
    """The agent's output and the run's journal (step -> operation, as this worker wrote it).
    `narrate_only`: the turn is over and only narrated from its journal (JournalCaller).
    The run's model usage is recorded on the job as it accrues (`_usage_recorder`)."""
    # A narration runs under the attempt that stored the ending: a key of its own.
    run = f"{job.attempt}:narration" if narrate_only else str(job.attempt)
    claimed = getattr(job, "claim_context", None)  # read (campaign locked) by the claim
    if claimed is not None:
        campaign, role = claimed.campaign, claimed.role
    else:
        campaign = Campaign.objects.select_related("owner").get(pk=job.campaign_id)
        membership = membership_for(campaign_id=job.campaign_id, user=job.requester)
        if membership is None:
            raise NotMember(_("The player who acted is no longer a member of this campaign."))
        role = membership.role
    cancelled = heartbeat.cancel_requested if heartbeat is not None else job_cancel_requested(job)
    if cancelled:
        raise TurnCancelled(_("The turn was cancelled."))
    _select_facade(job, campaign, role)
    tools = offered_tools(campaign.system_id, job.tools)
    character = claimed.character if claimed is not None else _bound_character(job)
    provider = agent_provider()
    # Another turn in the room may write first: a write refused as stale goes again at the
    # current revision (after the agent's output is stored, nothing is sent again that way).
    # Not for an action the client based on a revision it named: that one acts there or not.
    caller = _journal_caller(
        job, campaign, heartbeat, tools=tools, character=character,
        stale_refreshes=STALE_REFRESHES if job.base_revision is None else 0,
        narrate_only=narrate_only, view=_result_view(job, provider),
    )  # fmt: skip
    context = TurnContext(
        job_id=str(job.id),
        system_id=campaign.system_id,
        phase=job.phase,
        role=job.role,
        task=job.task,
        text=job.text,
        tools=tools,
        trigger_audience=job.trigger_audience,
        character_id=character,
        # Not read for a provider that names no characters (the scripted agent): its turns
        # pay no query for it.
        bound_characters=dict(
            bindings_for(campaign=campaign)
            .filter(can_control=True)
            .values_list("character_id", "character_name")
        )
        if getattr(provider, "addresses_characters", False)
        else {},
        earlier=_earlier_steps(caller.journal),
        narrate_only=narrate_only,
        deadline=caller.deadline,
        record_usage=_usage_recorder(job, worker, run),
    )
    try:
        output = provider.run_turn(context, caller)
    except DomainError as exc:
        if exc.domain_code != "stale_revision" or job.base_revision is None:
            raise
        # The revision the client named has passed on the domain: the action ends here, as a
        # stale submit would have, instead of being tried again at the same revision.
        raise StaleRevision(
            _("The room changed since the action was sent (revision %(base)s)."),
            details={"base_revision": job.base_revision},
        ) from exc
    if output.usage:
        # The run's final count, also from a provider that reports none as it goes: written
        # with the output (_store_output).
        job.model_usage = {**job.model_usage, run: dict(output.usage)}
    return output, caller.journal


def _result_view(job: RoomTurnJob, provider: Any | None) -> str | None:
    """The view the agent's tool calls are answered at, reads and writes' results alike. A
    model's words may reach everyone who saw the action whatever it is told, so on any action
    but a GM-only one it is shown what the public may see (a GM's own view would hand it
    monster HP, stat blocks and GM-only notes and facts, also in what a GM's write returns).
    The scripted agent, trusted code that puts hidden values in GM-only messages, is answered
    as its requester. No provider (none configured): the public view, failing closed."""
    if job.trigger_audience == "gm":
        return None
    if provider is not None and not getattr(provider, "reads_as_audience", False):
        return None
    return "public"


def _usage_recorder(job: RoomTurnJob, worker: str, run: str) -> Callable[[Mapping[str, int]], None]:
    """Where an agent run reports its model usage so far: stored on the job at once under the
    run's key, as the run's running total (set, never added to), so an attempt that fails or
    whose worker dies keeps it: charged with the turn if a later attempt succeeds or a write of
    it committed (a turn that fails with nothing written releases its reservation), and no run
    twice. Only the worker holding the job writes the column, so the whole of it, as held
    here, is current. Raises LeaseLost."""

    def record(usage: Mapping[str, int]) -> None:
        job.model_usage = {**job.model_usage, run: dict(usage)}
        written = held_by(job, worker).update(
            model_usage=job.model_usage, updated_at=timezone.now()
        )
        if not written:
            raise LeaseLost(_("The job's lease passed to another worker."))

    return record


def _usage_total(job: RoomTurnJob) -> dict[str, int]:
    """The model usage of every agent run of the job: what its settlement charges for."""
    total: Counter[str] = Counter()
    for usage in job.model_usage.values():
        total.update(usage)
    return dict(total)


def _earlier_steps(journal: dict[int, Operation]) -> tuple[EarlierStep, ...]:
    """The journal's unbroken run of steps from the first, with the agent's own arguments."""
    steps = []
    while (op := journal.get(len(steps) + 1)) is not None:
        steps.append(EarlierStep(op.tool, model_arguments(op.arguments)))
    return tuple(steps)


def _attempt_failed(job: RoomTurnJob, worker: str, exc: Exception) -> str:
    """Store how an attempt that raised ends, or requeue it: "queued" or "stored"."""
    if job_cancel_requested(job):
        # Cancelled while the call that failed was under way: it ends cancelled, so
        # publication asks the domain about its write instead of sending it again.
        cancelled = TurnCancelled(_("The turn was cancelled."))
        _store_output(job, worker, _ending("cancelled", _classified(job, cancelled)))
        return "stored"
    narration = job.task == "narration"
    classification = _classified(job, exc)
    exhausted = NARRATION_EXHAUSTED_RECOVERY if narration else EXHAUSTED_RECOVERY
    wait_recovery = NARRATION_WAIT_RECOVERY if narration else WAIT_RECOVERY
    if not isinstance(exc, ApplicationError):
        # Its text is for this log only: the classification's message reaches the player.
        logger.exception("Turn %s failed unexpectedly", job.pk)
    retryable = classification.retryable
    wait = classification.retry_after
    if retryable and wait is not None and wait > retry_wait_limit():
        # An attempt sooner than asked would be refused again, and a longer wait would hold the
        # player's credits and their turn in progress: it ends now, saying when to act again.
        classification = ErrorClassification(
            classification.code, False, str(wait_recovery) % {"wait": wait_text(wait)},
            classification.message,
        )  # fmt: skip
    elif retryable and job.attempt < job.max_attempts:
        recovery = classification.recovery
        if wait is not None:
            seconds = math.ceil(requeue_delay(job, wait))
            recovery = _("The turn will be retried automatically in %(wait)s.") % {
                "wait": wait_text(seconds)
            }
        turn_requeue(job=job, worker=worker, code=classification.code,
                     message=classification.message, recovery=recovery,
                     retry_after=wait)  # fmt: skip
        return "queued"
    elif retryable:
        # Out of tries, nothing written (a write that may have run waits instead): the advice
        # is the player's, not the domain client's (which is for API callers).
        recovery = str(exhausted)
        if wait is not None:
            recovery = str(wait_recovery) % {"wait": wait_text(wait)}
        classification = ErrorClassification(EXHAUSTED, False, recovery, classification.message)
    _store_output(job, worker, _ending("failed", classification))
    return "stored"


def _classified(job: RoomTurnJob, exc: BaseException) -> ErrorClassification:
    """`classify_error` for the job: a GM's narration gets hints that speak of it."""
    return classify_error(exc, narration=job.task == "narration")


def _store_output(job: RoomTurnJob, worker: str, stored: dict[str, Any]) -> None:
    # Settlement charges the usage stored here: every run's, not only the last attempt's.
    stored = {**stored, "usage": _usage_total(job)}
    saved = held_by(job, worker).update(
        agent_output=stored, model_usage=job.model_usage, updated_at=timezone.now()
    )
    if not saved:
        raise LeaseLost(_("The job's lease passed to another worker."))
    job.agent_output = stored


def _ending(status: str, classification: ErrorClassification) -> dict[str, Any]:
    """A stored ending without narration (failed or cancelled): publication still applies the
    receipts of committed writes, so what the domain did is never lost or charged twice."""
    return {
        "messages": [],
        "suggestions": [],
        "tool_calls": 0,
        "usage": {},
        "final_status": status,
        "error": {
            "code": classification.code,
            "message": classification.message,
            "retryable": classification.retryable,
            "recovery": classification.recovery,
        },
    }


def _prepare_publication(
    job: RoomTurnJob, worker: str, beat: Heartbeat | None, journal: dict[int, Operation] | None
) -> None:
    """Before publication: settle unanswered writes; then, for a turn that ran out of attempts
    (the domain unreachable) but whose write turned out to have committed, or to be refused by
    the rules once the domain answered, run the agent again from the journal (the answered
    steps are answered from it, never sent again, and no step the turn never reached is
    sent), so the room is told what happened instead of a failure.

    A turn the sweep gave up after its workers kept stopping sends nothing more: its
    unanswered writes are only asked about and its agent is not run again, so no write runs
    on the domain after the turn was reported failed. A failure that stands after a write
    committed says so instead of advising to simply act again."""

    def ending_code() -> str | None:
        return ((job.agent_output or {}).get("error") or {}).get("code")

    # An ending the recovery sweep stored knows nothing of the runs' model usage.
    _store_usage(job, worker)
    _settle_dispatched(job, journal, worker, ask_only=ending_code() == LEASE_EXHAUSTED)
    # Read again: settling may have stored a cancelled ending.
    if (job.agent_output or {}).get("final_status") != "failed":
        return
    if ending_code() == EXHAUSTED and _domain_answered_a_write(job):
        try:
            output, _journal = _run_agent(job, worker, beat, narrate_only=True)
        except LeaseLost:
            raise
        except Exception:
            # The stored ending stands: a committed write is still published and charged.
            # The narration sent no write (narrate_only), so there is nothing more to settle.
            logger.warning("Turn %s could not be narrated from its journal", job.pk, exc_info=True)
            # Its model requests were made all the same: stored with the rest, and charged
            # with them if a write committed.
            _store_usage(job, worker)
        else:
            _store_output(job, worker, output_to_json(output))
            return
    ending = job.agent_output
    if not ending.get("error"):
        return
    writes = set(job.operations.filter(write=True).values_list("state", flat=True))
    if Operation.State.RETURNED in writes:
        recovery = str(PARTIAL_RECOVERY)
    elif Operation.State.UNKNOWN in writes:
        recovery = WriteUnknown.recovery
    else:
        return
    if ending["error"].get("recovery") != recovery:
        _store_output(job, worker, {**ending, "error": {**ending["error"], "recovery": recovery}})


def _store_usage(job: RoomTurnJob, worker: str) -> None:
    """Store the stored ending again if it does not charge every run's model usage (an ending
    the sweep stored, a narration that failed after its model requests). Raises LeaseLost."""
    if job.model_usage and job.agent_output.get("usage") != _usage_total(job):
        _store_output(job, worker, job.agent_output)


def _domain_answered_a_write(job: RoomTurnJob) -> bool:
    """Whether a write of the job committed, or was refused by the rules (not merely stale):
    either way the domain's answer, not the outage, is what the room should be told."""
    writes = job.operations.filter(write=True)
    if writes.filter(state=Operation.State.RETURNED).exists():
        return True
    refused = writes.filter(state=Operation.State.REFUSED).values_list("error", flat=True)
    return any((error or {}).get("code") not in (None, "stale_revision") for error in refused)


def turn_run(*, job_id, worker: str | None = None, heartbeat: bool = True) -> str:
    """Claim and run one job to an end state (or a requeue). Returns what happened: the final
    status, "queued", "waiting", "busy" (room at its limit), "skipped" or "lease_lost"."""
    worker = worker or worker_name()
    job, busy = turn_claim(job_id=job_id, worker=worker)
    if busy:
        return "busy"
    if job is None:
        return "skipped"
    beat = Heartbeat(job, worker) if heartbeat else None
    if beat is not None:
        beat.start()
    journal = None  # the run's own journal, when the output was produced here
    try:
        if job.agent_output is None:
            try:
                output, run_journal = _run_agent(job, worker, beat)
            except LeaseLost:
                return "lease_lost"
            except TurnCancelled as exc:
                _store_output(job, worker, _ending("cancelled", _classified(job, exc)))
            except Exception as exc:
                if _attempt_failed(job, worker, exc) == "queued":
                    return "queued"
            else:
                _store_output(job, worker, output_to_json(output))
                journal = run_journal
        return turn_publish_or_wait(
            job=job, worker=worker, journal=journal,
            prepare=lambda: _prepare_publication(job, worker, beat, journal),
        )  # fmt: skip
    except LeaseLost:
        return "lease_lost"
    finally:
        if beat is not None:
            beat.stop()
