"""Writes: the four tool operations. Each call is one transaction holding the saga's row lock."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.services import audit_record
from apps.core.sql import values_sql

from .checks import byte_size
from .coordinator import SagaContext, advance, apply_plan, current_outcome, terminate
from .errors import (
    ArtifactsTooLarge,
    InvalidArtifact,
    InvalidInput,
    SagaStateConflict,
    SagaTerminated,
    TooManyActiveSagas,
)
from .evaluator import verdict_coerce
from .memory import ops_memory_append
from .models import Saga, SagaArtifact, SagaDiagnostics, SagaEvent
from .planparse import artifact_path_ok, plan_parse, plan_validate
from .profiles import Profile, get_profile
from .selectors import saga_get
from .state import (
    current_stage,
    new_saga_key,
    new_state,
    now,
    progress,
    saga_status_for,
    transition_kind,
    worker_context,
)

# Documented limits (also in the tool descriptions).
MAX_ARTIFACT_BYTES = 1_048_576
MAX_ARTIFACTS_PER_CALL = 50
MAX_TOTAL_ARTIFACT_BYTES = 20 * MAX_ARTIFACT_BYTES
MAX_GOAL_CHARS = 10_000
MAX_HUMAN_INPUT_CHARS = 20_000
MAX_PLAN_CHARS = 200_000
MAX_REQUEST_ID_CHARS = 100
# workerDiagnostics are stored, and searched terms are quoted in the question to the human.
MAX_DIAGNOSTIC_ITEMS = 50
MAX_DIAGNOSTIC_ITEM_CHARS = 2000
MAX_DIAGNOSTIC_NOTES_CHARS = 10_000


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


def _reject_nul(value: Any, field: str) -> None:
    """PostgreSQL stores no NUL character in text or JSON: name the field instead of failing."""
    if _has_nul(value):
        raise InvalidInput(
            _("%(field)s contains a character that cannot be stored (NUL).") % {"field": field},
            details={"field": field},
        )


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def max_artifact_bytes() -> int:
    """One artifact's largest size, as the operator set it (SAGASMITH_SAGA_MAX_ARTIFACT_BYTES)."""
    return _limit("SAGASMITH_SAGA_MAX_ARTIFACT_BYTES", MAX_ARTIFACT_BYTES)


def max_total_artifact_bytes() -> int:
    """All of a saga's artifacts together (SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES)."""
    return _limit("SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES", MAX_TOTAL_ARTIFACT_BYTES)


def _context(saga: Saga, profile: Profile) -> SagaContext:
    cache: dict[str, str | None] = {}

    def read(path: str) -> str | None:
        if path in ctx.known_artifacts:
            return ctx.known_artifacts[path]
        if path not in cache:
            cache[path] = (
                SagaArtifact.objects.filter(saga=saga, path=path)
                .values_list("content", flat=True)
                .first()
            )
        return cache[path]

    ctx = SagaContext(state=saga.state, profile=profile, read=read, ts=now())
    return ctx


def _persist(
    saga: Saga,
    ctx: SagaContext,
    artifacts: list[tuple[str, str]] | None = None,
    *,
    finish_digest: str = "",
) -> None:
    """Write this call's artifacts, events and the new state.

    Every state change emits an event (replay depends on it), so a call without events leaves
    the saga row alone. On PostgreSQL all writes go out as one statement.
    """
    if ctx.events:
        saga.last_sequence += len(ctx.events)
        saga.version += 1
        saga.status = saga_status_for(saga.state)
        saga.updated_at = timezone.now()
        saga.finish_key = f"{finish_digest}:{saga.last_sequence}" if finish_digest else ""
    if connection.vendor == "postgresql":
        _write_postgresql(saga, ctx, artifacts or [])
    else:
        _write_orm(saga, ctx, artifacts or [])
    if (
        ctx.events
        and saga.state["termination"]
        and saga.state["termination"]["reason"] == "completed"
        and (saga.profile == "ops")
    ):
        saga_pk = saga.pk
        transaction.on_commit(lambda: ops_memory_append(saga_pk=saga_pk))


def _artifact_rows(saga: Saga, artifacts: list[tuple[str, str]]) -> list[SagaArtifact]:
    return [
        SagaArtifact(saga=saga, path=path, content=content, size=byte_size(content))
        for path, content in artifacts
    ]


def _event_rows(saga: Saga, ctx: SagaContext) -> list[SagaEvent]:
    first = saga.last_sequence - len(ctx.events) + 1
    return [
        SagaEvent(saga=saga, sequence=first + i, type=kind, ts=ctx.ts, payload=payload)
        for i, (kind, payload) in enumerate(ctx.events)
    ]


_SAGA_FIELDS = ("state", "version", "last_sequence", "status", "updated_at", "finish_key")


def _write_orm(saga: Saga, ctx: SagaContext, artifacts: list[tuple[str, str]]) -> None:
    if artifacts:
        # One upsert for all artifacts, keyed by (saga, path).
        SagaArtifact.objects.bulk_create(
            _artifact_rows(saga, artifacts),
            update_conflicts=True,
            unique_fields=["saga", "path"],
            update_fields=["content", "size", "updated_at"],
        )
    if ctx.events:
        SagaEvent.objects.bulk_create(_event_rows(saga, ctx))
        Saga.objects.filter(pk=saga.pk).update(
            **{name: getattr(saga, name) for name in _SAGA_FIELDS}
        )


def _write_postgresql(saga: Saga, ctx: SagaContext, artifacts: list[tuple[str, str]]) -> None:
    """Artifact upsert, event insert and saga update as one statement (data-modifying CTEs)."""
    qn = connection.ops.quote_name
    ctes: list[str] = []
    params: list[Any] = []
    if artifacts:
        names = ("id", "created_at", "updated_at", "saga", "path", "content", "size")
        values, values_params = values_sql(SagaArtifact, _artifact_rows(saga, artifacts), names)
        columns = ", ".join(qn(SagaArtifact._meta.get_field(n).column) for n in names)
        ctes.append(
            f"{qn(SagaArtifact._meta.db_table)} ({columns}) {values} "
            f"ON CONFLICT ({qn('saga_id')}, {qn('path')}) DO UPDATE SET "
            + ", ".join(f"{qn(c)} = EXCLUDED.{qn(c)}" for c in ("content", "size", "updated_at"))
        )
        params += values_params
    if ctx.events:
        names = ("saga", "sequence", "type", "ts", "payload")
        values, values_params = values_sql(SagaEvent, _event_rows(saga, ctx), names)
        columns = ", ".join(qn(SagaEvent._meta.get_field(n).column) for n in names)
        ctes.append(f"{qn(SagaEvent._meta.db_table)} ({columns}) {values}")
        params += values_params
    if not ctes:
        return
    inserts = [f"INSERT INTO {cte}" for cte in ctes]
    if ctx.events:
        fields = [Saga._meta.get_field(name) for name in _SAGA_FIELDS]
        main = (
            f"UPDATE {qn(Saga._meta.db_table)} SET "  # noqa: S608 (model table and columns)
            + ", ".join(f"{qn(f.column)} = %s" for f in fields)
            + f" WHERE {qn('id')} = %s"
        )
        params += [f.get_db_prep_save(getattr(saga, f.attname), connection) for f in fields]
        params.append(Saga._meta.pk.get_db_prep_value(saga.pk, connection))
    else:
        main = inserts.pop()
    if inserts:
        main = "WITH " + ", ".join(f"w{i} AS ({ins})" for i, ins in enumerate(inserts)) + " " + main
    with connection.cursor() as cursor:
        cursor.execute(main, params)


def _response(saga: Saga, ctx: SagaContext, outcome: dict[str, Any]) -> dict[str, Any]:
    response = {**outcome, "progress": progress(saga.state)}
    if outcome["nextAction"] in ("worker_mode_queued", "revision_queued") and current_stage(
        saga.state
    ):
        response["workerContext"] = worker_context(
            saga.state, tool_hint=ctx.profile.worker_tool_hint, revision_reason=ctx.revision_reason
        )
    if _awaits_plan(saga.state, outcome):
        # Whichever call leads here (start, last clarification answer, rejected planner plan),
        # the agent needs the plan format to write planYaml.
        response["planPrompt"] = plan_prompt(profile=ctx.profile)
    return response


def _awaits_plan(state: dict[str, Any], outcome: dict[str, Any]) -> bool:
    return outcome["nextAction"] == "await_human" and transition_kind(state) == (
        "awaiting_plan_yaml"
    )


def _status_response(saga: Saga, ctx: SagaContext, notice: str) -> dict[str, Any]:
    """The saga's current status for a repeated request; nothing is written."""
    outcome = current_outcome(ctx)
    response = {**_response(saga, ctx, outcome), "alreadyRecorded": True, "notice": notice}
    if outcome["nextAction"] == "continue_worker_now" and current_stage(saga.state):
        response["workerContext"] = worker_context(
            saga.state, tool_hint=ctx.profile.worker_tool_hint, revision_reason=ctx.revision_reason
        )
    return response


def plan_prompt(*, profile: Profile) -> str:
    low, high = profile.stage_range
    kinds = ", ".join(k for k in profile.allowed_kinds if k not in ("command",))
    return (
        f"Write a {profile.id} plan with {low}-{high} stages for this goal. For each stage use a "
        "'## Stage N: <title>' heading, a 'Goal:' line, and a ```yaml block containing 'done:' "
        "(a list of checks) and 'evaluator: auto|deep'.\n"
        "Check kinds: file-exists (with path, optional minBytes), file-size-gt (path, minBytes), "
        "file-schema (path, schema as JSON Schema), progress-items (path, minItems), log-scan "
        "(path, pattern), free-form (with desc). 'command' is not executed on this platform. "
        f"Allowed for this profile: {kinds}.\n"
        "Paths are relative to the saga's artifacts; submit artifacts with "
        "saga_advance(artifacts=[{path, content}]).\n\nExample:\n\n" + profile.planner_examples
    )


def _clean_request_id(request_id: Any) -> str:
    if request_id is None:
        return ""
    if not isinstance(request_id, str) or not request_id.strip():
        raise InvalidInput(_("requestId must be a non-empty string."))
    request_id = request_id.strip()
    if len(request_id) > MAX_REQUEST_ID_CHARS:
        raise InvalidInput(
            _("requestId is longer than %(n)d characters.") % {"n": MAX_REQUEST_ID_CHARS}
        )
    return request_id


def _start_response(saga: Saga, response: dict[str, Any]) -> dict[str, Any]:
    if "planPrompt" in response:
        return {
            "sagaId": saga.key,
            "status": "plan_required",
            "message": response["diagnostic"],
            **response,
        }
    return {"sagaId": saga.key, "status": "started", **response}


def _start_repeated(saga: Saga, *, goal: str, profile: Profile) -> dict[str, Any]:
    """A retried saga_start: the saga made by the first call, unchanged."""
    if saga.goal != goal or saga.profile != profile.id:
        raise SagaStateConflict(
            _("requestId %(rid)r was already used for saga %(id)s with another goal or profile.")
            % {"rid": saga.request_id, "id": saga.key},
            details={"sagaId": saga.key},
        )
    ctx = _context(saga, profile)
    notice = _("This requestId already started saga %(id)s; nothing was changed.") % {
        "id": saga.key
    }
    return _start_response(saga, _status_response(saga, ctx, notice))


def saga_start(*, user, goal: str, profile: str, request_id: str | None = None) -> dict[str, Any]:
    """Create a saga and run its first advance; raises UnknownProfile, InvalidInput, Conflict.

    With a request_id, a repeated call returns the saga the first call created.
    """
    prof = get_profile(profile)
    _reject_nul(goal, "goal")
    _reject_nul(request_id, "requestId")
    goal = (goal or "").strip()
    if not goal:
        raise InvalidInput(_("goal must not be empty."))
    if len(goal) > MAX_GOAL_CHARS:
        raise InvalidInput(_("goal is longer than %(n)d characters.") % {"n": MAX_GOAL_CHARS})
    request_key = _clean_request_id(request_id)
    max_active = _limit("SAGASMITH_SAGA_MAX_ACTIVE_PER_USER", 20)
    with transaction.atomic():
        # Concurrent starts by one user queue on their row (first, so a retried start finds the
        # saga its first attempt committed), and the count below cannot be read by two of them
        # before either has inserted. No key lock: rows that refer to the user are not held up.
        list(type(user).objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk"))
        if request_key:
            existing = (
                Saga.objects.select_for_update().filter(owner=user, request_id=request_key).first()
            )
            if existing is not None:
                return _start_repeated(existing, goal=goal, profile=prof)
        # D14: only sagas that are not terminated count against the limit.
        active = Saga.objects.filter(owner=user).exclude(
            status__in=[Saga.Status.COMPLETED, Saga.Status.TERMINATED]
        )
        if active.count() >= max_active:
            raise TooManyActiveSagas(_("You already have %(n)d active sagas.") % {"n": max_active})
        key = new_saga_key()
        state = new_state(
            saga_id=key,
            profile=prof.id,
            goal=goal,
            clarification_limit=prof.default_clarification_rounds,
        )
        try:
            with transaction.atomic():
                saga = Saga.objects.create(
                    key=key,
                    owner=user,
                    profile=prof.id,
                    goal=goal,
                    status=saga_status_for(state),
                    state=state,
                    request_id=request_key,
                )
        except IntegrityError:
            # A concurrent start with the same requestId committed first: answer with its saga.
            existing = Saga.objects.filter(owner=user, request_id=request_key).first()
            if not request_key or existing is None:
                raise
            return _start_repeated(existing, goal=goal, profile=prof)
        ctx = _context(saga, prof)
        ctx.emit(
            "saga_created",
            profile=prof.id,
            goal=goal,
            clarificationLimit=prof.default_clarification_rounds,
        )
        outcome = advance(ctx)
        _persist(saga, ctx)
        audit_record(
            actor=user,
            action="saga.started",
            subject_type="saga",
            subject_id=saga.key,
            details={"profile": prof.id},
        )
    return _start_response(saga, _response(saga, ctx, outcome))


def _clean_artifacts(artifacts: Any) -> list[tuple[str, str]]:
    if artifacts is None:
        return []
    if not isinstance(artifacts, list):
        raise InvalidArtifact(_("artifacts must be a list of {path, content} objects."))
    max_bytes = max_artifact_bytes()
    if len(artifacts) > MAX_ARTIFACTS_PER_CALL:
        raise InvalidArtifact(
            _("At most %(n)d artifacts per call.") % {"n": MAX_ARTIFACTS_PER_CALL}
        )
    cleaned: dict[str, str] = {}
    for item in artifacts:
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            raise InvalidArtifact(_("Each artifact needs a string path and string content."))
        path, content = item["path"].strip(), item.get("content", "")
        if not isinstance(content, str):
            raise InvalidArtifact(_("Artifact %(p)r: content must be a string.") % {"p": path})
        if not artifact_path_ok(path):
            raise InvalidArtifact(
                _("Artifact path %(p)r must be relative and must not contain '..'.")
                % {"p": path[:100]},
                details={"path": path[:255]},
            )
        if "\x00" in content:
            raise InvalidArtifact(
                _("Artifact %(p)r contains a character that cannot be stored (NUL).") % {"p": path},
                details={"path": path},
            )
        size = byte_size(content)
        if size > max_bytes:
            raise InvalidArtifact(
                _("Artifact %(p)r is %(size)d bytes; the limit is %(max)d bytes.")
                % {"p": path, "size": size, "max": max_bytes},
                details={"path": path, "size": size, "limit": max_bytes},
            )
        cleaned[path] = content
    return list(cleaned.items())


def _check_total_artifact_bytes(saga: Saga, cleaned: list[tuple[str, str]]) -> None:
    """Per-artifact limits alone let one saga store without bound; cap the total as stored."""
    limit = max_total_artifact_bytes()
    total = (saga.other_artifact_bytes or 0) + sum(byte_size(c) for _path, c in cleaned)
    if total > limit:
        raise ArtifactsTooLarge(
            _(
                "The artifacts of saga %(id)s would total %(size)d bytes; "
                "the limit is %(max)d bytes."
            )
            % {"id": saga.key, "size": total, "max": limit},
            details={"size": total, "limit": limit},
        )


def _url_status(value: Any) -> Any:
    """A status as sent (number or text), else its text: NaN or a nested object is not stored."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def _diagnostic_items(values: list[str], key: str) -> list[str]:
    field = f"workerDiagnostics.{key}"
    if len(values) > MAX_DIAGNOSTIC_ITEMS:
        raise InvalidInput(
            _("%(field)s has %(n)d items; the limit is %(max)d.")
            % {"field": field, "n": len(values), "max": MAX_DIAGNOSTIC_ITEMS},
            details={"field": field, "count": len(values), "limit": MAX_DIAGNOSTIC_ITEMS},
        )
    for index, value in enumerate(values):
        if len(value) > MAX_DIAGNOSTIC_ITEM_CHARS:
            raise InvalidInput(
                _("%(field)s[%(i)d] is %(n)d characters; the limit is %(max)d.")
                % {"field": field, "i": index, "n": len(value), "max": MAX_DIAGNOSTIC_ITEM_CHARS},
                details={
                    "field": field,
                    "index": index,
                    "length": len(value),
                    "limit": MAX_DIAGNOSTIC_ITEM_CHARS,
                },
            )
    return values


def _clean_diagnostics(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidInput(_("workerDiagnostics must be an object."))
    out: dict[str, Any] = {}
    for key in ("searchedTerms", "errorsCaught"):
        value = raw.get(key, [])
        if not isinstance(value, list):
            raise InvalidInput(_("workerDiagnostics.%(k)s must be a list.") % {"k": key})
        out[key] = _diagnostic_items([str(v) for v in value], key)
    urls = raw.get("urlsAttempted", [])
    if not isinstance(urls, list) or not all(isinstance(u, dict) for u in urls):
        raise InvalidInput(_("workerDiagnostics.urlsAttempted must be a list of {url, status}."))
    out["urlsAttempted"] = [
        {"url": str(u.get("url", "")), "status": _url_status(u.get("status"))} for u in urls
    ]
    _diagnostic_items([u["url"] for u in out["urlsAttempted"]], "urlsAttempted")
    _diagnostic_items([str(u["status"]) for u in out["urlsAttempted"]], "urlsAttempted.status")
    out["notes"] = str(raw.get("notes") or "")
    if len(out["notes"]) > MAX_DIAGNOSTIC_NOTES_CHARS:
        raise InvalidInput(
            _("workerDiagnostics.notes is longer than %(n)d characters.")
            % {"n": MAX_DIAGNOSTIC_NOTES_CHARS},
            details={
                "field": "workerDiagnostics.notes",
                "length": len(out["notes"]),
                "limit": MAX_DIAGNOSTIC_NOTES_CHARS,
            },
        )
    return out


def saga_advance(
    *,
    user,
    saga_id: str,
    plan_yaml: str | None = None,
    worker_finished: bool = False,
    artifacts: list[dict[str, Any]] | None = None,
    eval_result: dict[str, Any] | None = None,
    human_input: str | None = None,
    worker_diagnostics: dict[str, Any] | None = None,
    stage_id: str | None = None,
) -> dict[str, Any]:
    """Apply inputs and advance once; bad input raises before anything is written.

    A workerFinished whose stage_id names a stage before the cursor is a retry of a call that
    was already applied: it changes nothing and returns the current status. Raises
    InvalidInput for an unknown stage and SagaStateConflict for one not yet started.
    """
    if stage_id is not None and (not isinstance(stage_id, str) or not stage_id.strip()):
        raise InvalidInput(_("stageId must be a non-empty string."))
    for field, value in (
        ("planYaml", plan_yaml),
        ("humanInput", human_input),
        ("evalResult", eval_result),
        ("workerDiagnostics", worker_diagnostics),
        ("stageId", stage_id),
    ):
        _reject_nul(value, field)
    cleaned = _clean_artifacts(artifacts)
    verdict = verdict_coerce(eval_result) if eval_result is not None else None
    diagnostics = _clean_diagnostics(worker_diagnostics)
    if human_input is not None and not isinstance(human_input, str):
        raise InvalidInput(_("humanInput must be a string."))
    human = (human_input or "").strip() or None
    if human and len(human) > MAX_HUMAN_INPUT_CHARS:
        raise InvalidInput(
            _("humanInput is longer than %(n)d characters.") % {"n": MAX_HUMAN_INPUT_CHARS}
        )
    if plan_yaml is not None and len(plan_yaml) > MAX_PLAN_CHARS:
        raise InvalidInput(_("planYaml is longer than %(n)d characters.") % {"n": MAX_PLAN_CHARS})
    with transaction.atomic():
        saga = saga_get(
            owner=user,
            saga_id=saga_id,
            lock=True,
            artifact_bytes_except=[path for path, _content in cleaned] if cleaned else None,
        )
        if cleaned:
            _check_total_artifact_bytes(saga, cleaned)
        prof = get_profile(saga.profile)
        s = saga.state
        ctx = _context(saga, prof)
        if worker_finished and stage_id is not None:
            finished = stage_id.strip()
            if _stage_already_finished(s, finished):
                notice = _(
                    "workerFinished for %(stage)s was already recorded; nothing was changed."
                ) % {"stage": finished}
                return _status_response(saga, ctx, notice)
        finish_digest = (
            _finish_digest(stage_id, cleaned, diagnostics, verdict, human)
            if worker_finished and cleaned
            else ""
        )
        if finish_digest and saga.finish_key == f"{finish_digest}:{saga.last_sequence}":
            notice = _("This workerFinished was already recorded; nothing was changed.")
            return _status_response(saga, ctx, notice)
        cursor_before = s["cursor"]
        if s["termination"] and (plan_yaml is not None or cleaned):
            raise SagaTerminated(
                _("Saga %(id)s already terminated: %(reason)s")
                % {"id": saga.key, "reason": s["termination"]["reason"]}
            )
        if s["termination"]:
            # Spec pre-check: terminated, nothing written; the state guards below would name
            # actions (planYaml, humanInput, saga_cancel) that can no longer apply.
            return _response(saga, ctx, advance(ctx))
        if plan_yaml is not None:
            if s["plan"] is not None:
                raise SagaStateConflict(_("A plan was already accepted for this saga."))
            plan = plan_parse(plan_yaml, default_mode=prof.default_evaluator_mode)
            plan_validate(plan, profile=prof)
            apply_plan(ctx, plan)
        kind = transition_kind(s)
        if human and kind == "awaiting_plan_yaml":
            raise InvalidInput(
                _("The saga is waiting for a plan; send planYaml. humanInput is not used here.")
            )
        if worker_finished and kind == "awaiting_human":
            raise SagaStateConflict(
                _("The saga is awaiting human input; send humanInput or saga_cancel first.")
            )
        if worker_finished and stage_id is not None:
            _check_current_stage(s, stage_id.strip())
        # Written with the events after advance(); checks read this call's content from memory.
        ctx.known_artifacts.update(cleaned)
        stage = current_stage(s)
        if diagnostics is not None and worker_finished and stage is not None:
            # Only this call's diagnostics are classified; the row is kept for the record.
            ctx.worker_diagnostics = diagnostics
            attempt = s["recoveryAttempts"].get(stage["id"], 0) + 1
            SagaDiagnostics.objects.update_or_create(
                saga=saga, stage_id=stage["id"], attempt=attempt, defaults={"payload": diagnostics}
            )
        outcome = advance(
            ctx, worker_finished=worker_finished, human_input=human, eval_result=verdict
        )
        # Only a finish that passed its stage is remembered: sending the same failing work
        # again is how a worker that cannot do better runs down the recovery cascade.
        passed = s["cursor"] > cursor_before
        _persist(saga, ctx, cleaned, finish_digest=finish_digest if passed else "")
    return _response(saga, ctx, outcome)


def _finish_digest(*parts: Any) -> str:
    """Fingerprint of a workerFinished call, so a repeat without stageId is not counted twice.

    Only calls that carry artifacts get one: with none, a retry cannot be told from the next
    stage's finish after artifacts were sent separately (those writes record no event).
    """
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stage_index(state: dict[str, Any], stage_id: str) -> int | None:
    return next((i for i, st in enumerate(state["stages"]) if st["id"] == stage_id), None)


def _stage_already_finished(state: dict[str, Any], stage_id: str) -> bool:
    """True when the stage lies before the cursor: its workerFinished was applied and passed."""
    index = _stage_index(state, stage_id)
    return index is not None and index < state["cursor"]


def _check_current_stage(state: dict[str, Any], stage_id: str) -> None:
    """A workerFinished naming a stage must name the current one (checked after a new plan)."""
    stage = current_stage(state)
    if stage is not None and stage["id"] == stage_id:
        return
    if _stage_index(state, stage_id) is None:
        raise InvalidInput(
            _("stageId %(stage)r is not a stage of this saga.") % {"stage": stage_id[:60]}
        )
    raise SagaStateConflict(
        _("Stage %(stage)s has not started; the current stage is %(current)s.")
        % {"stage": stage_id, "current": stage["id"] if stage else "none"}
    )


def saga_cancel(*, user, saga_id: str, reason: str | None = None) -> dict[str, Any]:
    """Terminate as aborted_by_user; raises SagaNotFound or SagaTerminated."""
    _reject_nul(reason, "reason")
    reason = (reason or "").strip()[:500] or "Cancelled by user"
    with transaction.atomic():
        saga = saga_get(owner=user, saga_id=saga_id, lock=True)
        if saga.state["termination"]:
            raise SagaTerminated(
                _("Saga %(id)s already terminated: %(reason)s")
                % {"id": saga.key, "reason": saga.state["termination"]["reason"]}
            )
        ctx = _context(saga, get_profile(saga.profile))
        terminate(ctx, "aborted_by_user", reason)
        _persist(saga, ctx)
        audit_record(actor=user, action="saga.cancelled", subject_type="saga", subject_id=saga.key)
    return {"sagaId": saga.key, "status": "cancelled", "reason": reason}


def saga_replay(*, saga: Saga) -> dict[str, Any]:
    """Rebuild the state from events and list differences from the stored state (read-only)."""
    from .replay import state_diff, state_rebuild
    from .selectors import saga_events

    events = saga_events(saga=saga)
    rebuilt = state_rebuild(events, saga_id=saga.key)
    return {
        "eventCount": len(events),
        "rebuilt": rebuilt,
        "differences": state_diff(saga.state, rebuilt),
    }
