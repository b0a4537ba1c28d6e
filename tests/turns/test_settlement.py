"""Settling what a turn may have done on the domain when it is cancelled, refused over and
over, narrated again after an outage, or raced by the recovery sweep."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django import db
from django.utils import timezone

from apps.campaigns.models import Campaign
from apps.domains.client import domain_call
from apps.domains.errors import DomainError, DomainUnavailable
from apps.quota.models import Reservation
from apps.turns.errors import classify_error
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services import turn_cancel, turn_recovery_sweep, turn_run
from apps.turns.services.run import PROBE_REVISION
from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.test_jobs import narrations, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def model(settings, monkeypatch):
    """The openai provider against a fake chat-completions endpoint: set `.script`."""
    from tests.turns.fake_llm import FakeLLM

    llm = FakeLLM()
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    yield llm
    llm.close()


# The model's final answer in the tests that script one.
FINAL = '{"messages": [{"text": "The die lands.", "audience": "trigger"}]}'


def _internal(tool: str) -> DomainError:
    return DomainError(
        "boom", domain_code="internal", system_id="dnd5e", tool=tool, retryable=True, recovery=""
    )


def _dice_fails(monkeypatch, fault, state=None) -> dict:
    """Make every dice_roll send (not the probe that cannot run) raise `fault()` while
    state["down"]; state["sends"] counts those sends."""
    import apps.turns.tool_calls as tool_calls

    state = state if state is not None else {}
    state.setdefault("down", True)
    state.setdefault("sends", 0)

    def failing(**kw):
        if kw["tool"] == "dice_roll" and kw["arguments"]["expected_revision"] < PROBE_REVISION:
            state["sends"] += 1
            if state["down"]:
                raise fault()
        return domain_call(**kw)

    monkeypatch.setattr(tool_calls, "domain_call", failing)
    return state


def _run_due(job, capture, times: int = 1) -> list[str]:
    outcomes = []
    for _ in range(times):
        RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
        with capture(execute=False):
            outcomes.append(turn_run(job_id=job.pk, heartbeat=False))
    job.refresh_from_db()
    return outcomes


def test_a_cancelled_waiting_write_is_asked_about_never_sent_again(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    start = room.domain_revision()
    state = _dice_fails(monkeypatch, lambda: _internal("dice_roll"))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    _run_due(job, django_capture_on_commit_callbacks, times=4)
    assert job.status == "waiting"
    with django_capture_on_commit_callbacks(execute=False):
        turn_cancel(job=job, membership=room.membership(room.player))
    state["down"], sends = False, state["sends"]
    # Long enough after the last send that it cannot still be running on the domain.
    monkeypatch.setattr("apps.turns.services.run.SEND_SETTLE_MARGIN", timedelta(seconds=-60))
    _run_due(job, django_capture_on_commit_callbacks)
    # The domain is back, but the cancelled write is only asked about: it never ran.
    assert (job.status, job.charged, state["sends"] - sends) == ("cancelled", 0, 0)
    assert room.domain_revision() == start
    assert Operation.objects.get(job=job).state == "refused"
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_a_write_refused_as_retryable_forever_ends_once_its_tries_are_spent(
    dnd_room, settings, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 4
    room = dnd_room
    start = room.domain_revision()
    _dice_fails(monkeypatch, lambda: _internal("dice_roll"))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    # Back-dated sends: the probe may then call the unanswered write settled.
    monkeypatch.setattr("apps.turns.services.run.SEND_SETTLE_MARGIN", timedelta(seconds=-60))
    outcomes = _run_due(job, django_capture_on_commit_callbacks, times=5)
    # Three attempts run the agent; the fourth, its publication tries spent, asks the domain
    # whether the write committed instead of sending it again, and ends the turn.
    assert [str(o) for o in outcomes] == ["queued", "queued", "waiting", "failed", "skipped"]
    assert (job.status, job.charged, job.attempt, job.error_code) == (
        "failed", 0, 4, "attempts_exhausted"
    )  # fmt: skip
    assert Operation.objects.get(job=job).state == "refused"
    assert room.domain_revision() == start
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_a_renarration_sends_no_step_the_turn_never_reached(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Out of attempts at its second roll, whose re-send before publication commits, the turn is
    narrated again from its journal. The agent then goes on to a third roll the turn never
    reached: it is not sent (a narration only tells what happened), and the stored failure
    stands, with the two committed rolls published and charged."""
    import apps.turns.tool_calls as tool_calls

    room = dnd_room
    start = room.domain_revision()
    sends: dict[str, int] = {}

    class ThreeRolls:
        name = "test"

        def run_turn(self, turn, call_tool):
            for _ in range(3):
                call_tool("dice_roll", {"expression": "1d6"})
            return AgentOutput(messages=(AgentMessage("rolled"),))

    def patched(**kw):
        step = kw["arguments"].get("idempotency_key", "").rpartition(":")[2]
        sends[step] = sends.get(step, 0) + 1
        if step == "2" and sends[step] <= 3:
            raise DomainUnavailable("down")
        return domain_call(**kw)

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: ThreeRolls())
    monkeypatch.setattr(tool_calls, "domain_call", patched)
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=3) == [
        "queued", "queued", "failed"
    ]  # fmt: skip
    # Step 2: each attempt's send, then the one before publication; step 3: never.
    assert sends == {"1": 1, "2": 4}
    states = list(job.operations.order_by("step").values_list("step", "state"))
    assert states == [(1, "returned"), (2, "returned")]
    assert room.domain_revision() == start + 2
    assert (job.status, job.error_code, job.charged, job.result_revision) == (
        "failed", "attempts_exhausted", 3, start + 2
    )  # fmt: skip
    assert job.recovery == "Part of the turn happened; read the room before acting again."


def test_a_model_narrating_an_ended_turn_is_offered_no_further_call(
    dnd_room, monkeypatch, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Out of attempts at its roll, whose re-send before publication commits, a model turn is
    narrated from its journal: the model is shown the roll and asked for its answer with
    tools closed, so it tells what happened instead of going on with the turn."""
    from tests.turns.fake_llm import completion, tool_call

    room = dnd_room
    start = room.domain_revision()
    state: dict = {}

    def outage() -> DomainUnavailable:
        state["down"] = state["sends"] < 3  # back for the re-send after the last attempt
        return DomainUnavailable("The rules server is down.")

    _dice_fails(monkeypatch, outage, state)
    model.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])),
        (200, completion(content=FINAL)),  # the narration
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=3) == [
        "queued", "queued", "succeeded"
    ]  # fmt: skip
    assert state["sends"] == 4  # one per attempt, then the re-send that committed
    narration = model.requests[-1]
    assert (len(model.requests), narration["tool_choice"]) == (2, "none")
    assert narration["messages"][0]["content"].endswith(
        "\nThe turn is over: no more tool calls. Narrate only what the tool results already "
        "in the conversation show."
    )
    assert [m["role"] for m in narration["messages"]] == ["system", "user", "assistant", "tool"]
    assert [m.body for m in narrations(job)] == ["The die lands."]
    assert room.domain_revision() == start + 1


@pytest.mark.parametrize("audience", ["public", "gm"])
def test_a_write_settled_before_a_models_narration_is_shown_at_the_turns_view(
    dnd_room, monkeypatch, model, turns_stay_queued, django_capture_on_commit_callbacks, audience
):
    """A GM's public model turn whose spawn commits only on the re-send before publication is
    narrated from its journal: that re-send asks for the turn's view as every send of the turn
    does, so the model is shown the monster's public card, not its hit points or GM notes (a
    GM-only turn shows them)."""
    import apps.turns.tool_calls as tool_calls
    from apps.campaigns.services.authority import authority_write, campaign_refresh
    from tests.turns.fake_llm import completion, tool_call

    room = dnd_room
    authority_write(campaign=room.campaign, tool="phase_set", arguments={"phase": "play"},
                    requester=room.gm, key="phase_set")  # fmt: skip
    campaign_refresh(campaign=room.campaign, requester=room.gm)
    start = room.domain_revision()
    views = []

    def outage(**kw):
        if kw["tool"] == "monster_spawn" and kw["arguments"]["expected_revision"] < PROBE_REVISION:
            views.append(kw.get("view"))
            if len(views) <= 3:  # back for the re-send after the last attempt
                raise DomainUnavailable("The rules server is down.")
        return domain_call(**kw)

    monkeypatch.setattr(tool_calls, "domain_call", outage)
    spawn = {"monster_key": "goblin", "gm_notes": "The baron's lost son."}
    model.script = [
        (200, completion(tool_calls=[tool_call("c1", "monster_spawn", spawn)])),
        (200, completion(content=FINAL)),  # the narration
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="A goblin appears.", audience=audience)
    assert _run_due(job, django_capture_on_commit_callbacks, times=3) == [
        "queued", "queued", "succeeded"
    ]  # fmt: skip
    shown = json.loads(model.requests[-1]["messages"][-1]["content"])
    assert shown["receipt"]["authority_revision"] == room.domain_revision() == start + 1
    if audience == "public":
        assert shown["character"] == {"id": "mon-1", "name": "Goblin", "kind": "monster",
                                      "monster_key": "goblin", "conditions": [],
                                      "status": "unhurt"}  # fmt: skip
    else:
        assert shown["character"]["gm_notes"] == "The baron's lost son."
        assert shown["character"]["hp"] == {"current": 7, "max": 7, "temp": 0}
    view = "public" if audience == "public" else None
    assert views == [view] * 4  # one per attempt, then the re-send that committed


def _tokens(prompt: int, completion: int) -> dict[str, int]:
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}  # fmt: skip


# Each attempt's model use in the two tests below: 1200 tokens, two started thousands alone.
FIRST, SECOND = _tokens(1000, 200), _tokens(1100, 100)
BOTH = {"model_calls": 2, "prompt_tokens": 2100, "completion_tokens": 300, "total_tokens": 2400}


def _charged_once_for_both(job) -> None:
    from apps.quota.models import LedgerEntry
    from apps.turns.services.publish import _actual_credits

    expected = _actual_credits({"usage": BOTH}, list(job.operations.all()), lambda: False)
    # The turn, its roll and three started thousands of tokens (the last attempt's alone: two).
    assert expected == 5
    entry = LedgerEntry.objects.get(reservation_id=job.reservation_id)
    assert (job.status, job.charged, entry.kind, entry.amount) == (
        "succeeded", expected, "charge", expected
    )  # fmt: skip
    assert job.agent_output["usage"] == BOTH


def test_a_retried_model_turn_is_charged_every_attempts_tokens_once(
    dnd_room, settings, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """The model's tokens of an attempt that then failed retryably are charged with the
    retry's: quota settles what the turn used, not its last attempt's share."""
    from tests.turns.fake_llm import completion, tool_call

    settings.SAGASMITH_TURN_RESERVE_CREDITS = 20  # more than the charge: min() keeps it whole
    room = dnd_room
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    model.script = [
        (200, {**roll, "usage": FIRST}),
        (503, {"error": "overloaded"}),
        (200, {**completion(content=FINAL), "usage": SECOND}),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=2) == ["queued", "succeeded"]
    _charged_once_for_both(job)


def test_the_tokens_of_an_attempt_whose_worker_died_are_charged_once(
    dnd_room, settings, monkeypatch, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """The worker dies after the model's first answer (its roll was journaled, not answered);
    the sweep hands the turn to another attempt, which finishes it. Both attempts' tokens are
    charged, each once."""
    import apps.turns.tool_calls as tool_calls
    from tests.turns.fake_llm import completion, tool_call

    class WorkerKilled(BaseException):
        """The worker process stops during the call."""

    settings.SAGASMITH_TURN_RESERVE_CREDITS = 20
    room = dnd_room
    state = {"die": True}

    def dies_once(**kw):
        if state.pop("die", False):
            raise WorkerKilled
        return domain_call(**kw)

    monkeypatch.setattr(tool_calls, "domain_call", dies_once)
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    model.script = [
        (200, {**roll, "usage": FIRST}),
        (200, {**completion(content=FINAL), "usage": SECOND}),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=False):
        turn_run(job_id=job.pk, heartbeat=False)
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["requeued"] == 1
    assert _run_due(job, django_capture_on_commit_callbacks) == ["succeeded"]
    assert list(job.operations.values_list("step", "state", "attempt")) == [(1, "returned", 2)]
    _charged_once_for_both(job)


def test_a_turn_the_sweep_ended_is_charged_its_model_tokens(
    dnd_room, monkeypatch, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """The worker dies after its roll committed, and the player cancels the turn: the
    cancelled ending the sweep stores knows nothing of the model's tokens, which are charged
    with the committed roll all the same."""
    import apps.turns.tool_calls as tool_calls
    from apps.turns.services.publish import _actual_credits
    from tests.turns.fake_llm import completion, tool_call

    class WorkerKilled(BaseException):
        """The worker process stops once the call returned."""

    def commits_then_dies(**kw):
        domain_call(**kw)
        raise WorkerKilled

    monkeypatch.setattr(tool_calls, "domain_call", commits_then_dies)
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    model.script = [(200, {**roll, "usage": FIRST})]
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=False):
        turn_run(job_id=job.pk, heartbeat=False)
    monkeypatch.setattr(tool_calls, "domain_call", domain_call)
    with django_capture_on_commit_callbacks(execute=False):
        turn_cancel(job=job, membership=room.membership(room.player))
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["cancelled"] == 1
    assert _run_due(job, django_capture_on_commit_callbacks) == ["cancelled"]
    assert list(job.operations.values_list("step", "state")) == [(1, "returned")]
    usage = {"model_calls": 1, **FIRST}
    expected = _actual_credits({"usage": usage}, list(job.operations.all()), lambda: False)
    assert expected == 4  # the turn, its roll and two started thousands of tokens
    assert (job.charged, job.agent_output["usage"]) == (expected, usage)


def test_a_late_campaign_read_never_moves_the_projection_back(dnd_room):
    from apps.campaigns.services.authority import campaign_refresh

    room = dnd_room
    domain = room.domain_revision()
    # A publication stored a newer revision and phase while the read was under way.
    Campaign.objects.filter(pk=room.campaign.pk).update(
        authority_revision=domain + 5, phase="combat"
    )
    late = Campaign.objects.get(pk=room.campaign.pk)
    late.authority_revision = domain - 1  # as the reader had it before
    campaign_refresh(campaign=late, requester=room.gm)
    stored = Campaign.objects.values_list("authority_revision", "phase").get(pk=room.campaign.pk)
    assert stored == (domain + 5, "combat")
    assert late.authority_revision == domain


def test_the_sweep_leaves_a_job_whose_lease_a_late_beat_renewed(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    from apps.turns.services import recovery
    from apps.turns.services.jobs import turn_claim, turn_heartbeat

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
        claimed, _busy = turn_claim(job_id=job.pk, worker="w1")
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    requeue = recovery.turn_requeue

    def beat_lands_first(**kw):
        turn_heartbeat(job=claimed, worker="w1")
        return requeue(**kw)

    monkeypatch.setattr(recovery, "turn_requeue", beat_lands_first)
    with django_capture_on_commit_callbacks(execute=False):
        counts = turn_recovery_sweep()
    job.refresh_from_db()
    assert (counts["requeued"], job.status, job.worker) == (0, "running", "w1")
    assert turn_heartbeat(job=claimed, worker="w1") is False


def test_a_cancel_stops_a_running_turn_before_its_next_call_between_beats(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)

    class CancelsThenRolls:
        name = "test"

        def run_turn(self, turn, call_tool):
            call_tool("dice_roll", {"expression": "1d20"})
            turn_cancel(
                job=RoomTurnJob.objects.get(pk=turn.job_id), membership=room.membership(room.gm)
            )
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("done"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: CancelsThenRolls())
    with django_capture_on_commit_callbacks(execute=False):
        outcome = turn_run(job_id=job.pk, heartbeat=True)
    job.refresh_from_db()
    # The first roll happened and is published and charged; the second was never sent.
    assert (outcome, job.status, job.operations.count()) == ("cancelled", "cancelled", 1)
    assert room.domain_revision() == before + 1
    assert job.charged == 2


@pytest.mark.parametrize(
    "fault",
    [db.OperationalError("server closed the connection"), db.InterfaceError("closed")],
)
def test_a_database_that_went_away_is_a_transient_fault(fault):
    from celery.exceptions import SoftTimeLimitExceeded

    for exc in (fault, SoftTimeLimitExceeded()):
        classified = classify_error(exc)
        assert (classified.code, classified.retryable) == ("transient_fault", True)


def test_a_receipt_already_passed_still_reports_its_own_revision(dnd_room):
    from apps.campaigns.services.authority import receipt_apply
    from apps.domains.client import DomainResult

    room = dnd_room
    stale = Campaign.objects.get(pk=room.campaign.pk)
    Campaign.objects.filter(pk=stale.pk).update(authority_revision=stale.authority_revision + 3)
    receipt = {"authority_revision": stale.authority_revision + 2}
    result = DomainResult(
        system_id="dnd5e", tool="dice_roll", structured={"receipt": receipt}, content=[],
        result={}, receipt=receipt, delegation_kid="", delegation_jti="",
    )  # fmt: skip
    wrote = receipt_apply(campaign=stale, result=result)
    assert (wrote, stale.authority_revision) == (
        False, Campaign.objects.get(pk=stale.pk).authority_revision - 1
    )  # fmt: skip


def test_a_public_announcement_names_only_public_scopes(dnd_room):
    from apps.turns.projections import projection_reads

    room = dnd_room
    revision = room.campaign.authority_revision
    receipts = [
        {"authority_revision": revision + 1, "changed_scopes": ["log"], "entity_ids": []},
        {"authority_revision": revision + 2, "audience": "gm",
         "changed_scopes": ["character:secret-npc"], "entity_ids": ["secret-npc"]},
    ]  # fmt: skip
    refresh = projection_reads(campaign=room.campaign, receipts=receipts, requester=room.gm)
    assert (refresh.audience, refresh.changed_scopes, refresh.entity_ids, refresh.revision) == (
        "public", ["log"], [], revision + 2
    )  # fmt: skip


def test_a_gm_only_turns_roll_is_not_named_beside_its_public_change(dnd_room):
    """The domain calls every roll public; in a GM-only turn it is the GMs' alone, so the
    announcement that the turn's public change needs does not name it."""
    from apps.turns.projections import projection_reads

    room = dnd_room
    revision = room.campaign.authority_revision
    receipts = [
        {"authority_revision": revision + 1, "audience": "public", "changed_scopes": ["dice"],
         "entity_ids": []},
        {"authority_revision": revision + 2, "audience": "public",
         "changed_scopes": ["character:pc-1"], "entity_ids": ["pc-1"]},
    ]  # fmt: skip
    refresh = projection_reads(
        campaign=room.campaign, receipts=receipts, requester=room.gm, turn_audience="gm"
    )
    assert (refresh.audience, refresh.changed_scopes, refresh.entity_ids, refresh.revision) == (
        "public", ["character:pc-1"], ["pc-1"], revision + 2
    )  # fmt: skip


def test_a_write_that_never_reached_the_domain_is_sent_again_however_long_it_takes(
    dnd_room, settings, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Unreachable (not refused) past the publication tries: once the domain is back, the
    write runs and the turn is narrated, as an undisturbed one would be."""
    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 4
    room = dnd_room
    start = room.domain_revision()
    state = _dice_fails(monkeypatch, lambda: DomainUnavailable("down"))
    monkeypatch.setattr("apps.turns.services.run.SEND_SETTLE_MARGIN", timedelta(seconds=-60))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    _run_due(job, django_capture_on_commit_callbacks, times=6)
    assert (job.status, job.attempt) == ("waiting", 6)
    state["down"] = False
    assert _run_due(job, django_capture_on_commit_callbacks) == ["succeeded"]
    assert (job.status, job.charged, room.domain_revision()) == ("succeeded", 2, start + 1)


def test_a_cancel_between_beats_stops_a_write_being_sent_again(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    start = room.domain_revision()
    state = _dice_fails(monkeypatch, lambda: DomainUnavailable("down"))

    class CancelledThenRolls:
        name = "test"

        def run_turn(self, turn, call_tool):
            if not state["down"]:
                # The GM cancels after the heartbeat's last look, before the re-send.
                turn_cancel(
                    job=RoomTurnJob.objects.get(pk=turn.job_id),
                    membership=room.membership(room.gm),
                )
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("rolled"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: CancelledThenRolls())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["queued"]
    state["down"] = False
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        turn_run(job_id=job.pk, heartbeat=True)
    job.refresh_from_db()
    # Cancelled, its write never sent again; it waits only until the first send cannot still
    # be running, then ends cancelled.
    assert (job.status, state["sends"], room.domain_revision()) == ("waiting", 1, start)
    assert job.agent_output["final_status"] == "cancelled"


def test_a_write_no_worker_sent_is_not_run_once_the_sweep_gives_the_turn_up(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    import apps.turns.tool_calls as tool_calls

    room = dnd_room
    start = room.domain_revision()

    class WorkerKilled(BaseException):
        """The worker process stops between journaling the write and sending it."""

    def killed(**kw):
        raise WorkerKilled

    monkeypatch.setattr(tool_calls, "domain_call", killed)
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(max_attempts=1)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=False):
        turn_run(job_id=job.pk, heartbeat=False)
    monkeypatch.setattr(tool_calls, "domain_call", domain_call)
    assert list(job.operations.values_list("tool", "state")) == [("dice_roll", "dispatched")]
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["exhausted"] == 1
    # Long enough after the dispatch that no send of it can still be running.
    monkeypatch.setattr("apps.turns.services.run.SEND_SETTLE_MARGIN", timedelta(seconds=-60))
    _run_due(job, django_capture_on_commit_callbacks)
    # Reported failed, so nothing ran on the domain and nothing was charged.
    assert (job.status, job.error_code, job.charged) == ("failed", "worker_lease_exhausted", 0)
    assert room.domain_revision() == start
    assert Operation.objects.get(job=job).state == "refused"
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_a_write_the_rules_refuse_after_an_outage_is_narrated_not_reported_unavailable(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    from apps.rooms.models import Message

    room = dnd_room
    start = room.domain_revision()
    state = _dice_fails(monkeypatch, lambda: DomainUnavailable("The rules server is down."))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    outcomes = _run_due(job, django_capture_on_commit_callbacks, times=3)
    assert [str(o) for o in outcomes] == ["queued", "queued", "waiting"]
    # Back, the domain refuses the write by its rules (in play, "no action left this turn").
    refusal = DomainError(
        "Bram has no action left this turn", domain_code="invalid_request", system_id="dnd5e",
        tool="dice_roll", retryable=False, recovery="fix the arguments and retry",
    )  # fmt: skip

    def refuses():
        raise refusal

    _dice_fails(monkeypatch, refuses, state)
    _run_due(job, django_capture_on_commit_callbacks)
    # The player is told the rules' answer, as without the outage, not "unavailable".
    assert (job.status, job.error_code, job.charged) == ("succeeded", "", 0)
    narration = Message.objects.get(event_type="turn.narration", data__job_id=str(job.pk))
    assert "Bram has no action left this turn" in narration.body
    # No failure outcome: only the others' note that the refusal was told privately.
    outcomes = Message.objects.filter(event_type="turn.outcome")
    assert [(m.audience, m.data["status"]) for m in outcomes] == [("public", "succeeded")]
    assert room.domain_revision() == start
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_a_turn_the_sweep_gave_up_after_a_write_committed_sends_nothing_more(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """The worker died after its first write returned and before its second was journaled;
    the sweep gives the turn up. Publication applies the committed write (charged once) and
    says part of the turn happened; the agent is not run again, so the second write never
    reaches the domain after the turn was reported failed."""
    room = dnd_room
    start = room.domain_revision()
    state = {"die": True}

    class WorkerKilled(BaseException):
        """The worker process stops between two steps."""

    class TwoRolls:
        name = "test"

        def run_turn(self, turn, call_tool):
            call_tool("dice_roll", {"expression": "1d20"})
            if state["die"]:
                raise WorkerKilled
            call_tool("dice_roll", {"expression": "1d6"})
            return AgentOutput(messages=(AgentMessage("rolled twice"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: TwoRolls())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(max_attempts=1)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=False):
        turn_run(job_id=job.pk, heartbeat=False)
    state["die"] = False
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["exhausted"] == 1
    assert _run_due(job, django_capture_on_commit_callbacks) == ["failed"]
    assert room.domain_revision() == start + 1
    assert list(job.operations.values_list("step", "state")) == [(1, "returned")]
    assert (job.error_code, job.charged) == ("worker_lease_exhausted", 2)
    assert job.recovery == "Part of the turn happened; read the room before acting again."
    assert Reservation.objects.get(pk=job.reservation_id).status == "settled"


def test_a_turn_out_of_tries_whose_narration_fails_after_a_write_says_part_happened(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Out of attempts with a committed write, the turn is narrated from its journal; when
    that fails too, the stored failure stands and does not claim nothing happened."""
    room = dnd_room
    start = room.domain_revision()
    state = {"calls": 0}

    class RollsThenFails:
        name = "test"

        def run_turn(self, turn, call_tool):
            call_tool("dice_roll", {"expression": "1d20"})
            state["calls"] += 1
            raise DomainUnavailable("The rules server is down.")

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: RollsThenFails())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(max_attempts=1)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["failed"]
    assert state["calls"] == 2  # the attempt, and the narration from the journal
    assert room.domain_revision() == start + 1
    assert (job.error_code, job.charged) == ("attempts_exhausted", 2)
    assert job.recovery == "Part of the turn happened; read the room before acting again."


def test_a_turn_past_its_time_limit_stops_before_its_next_call(
    dnd_room, settings, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Celery's thread pool does not enforce the task's time limits, so the turn keeps its own:
    past it, no further tool call is sent; the turn ends failed (not retried), and what it
    already wrote is published and charged, saying part of it happened."""
    import time

    room = dnd_room
    start = room.domain_revision()
    settings.SAGASMITH_TURN_RUN_SECONDS = 0.2

    class Slow:
        name = "test"

        def run_turn(self, turn, call_tool):
            call_tool("dice_roll", {"expression": "1d20"})
            time.sleep(0.3)  # a slow model
            call_tool("dice_roll", {"expression": "1d6"})
            return AgentOutput(messages=(AgentMessage("rolled twice"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Slow())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["failed"]
    assert room.domain_revision() == start + 1
    assert list(job.operations.values_list("step", "state")) == [(1, "returned")]
    assert (job.error_code, job.retryable, job.charged) == ("turn_timeout", False, 2)
    assert job.error_message == "The turn took longer than 0.2 seconds."
    assert job.recovery == "Part of the turn happened; read the room before acting again."


def test_a_model_turn_retried_after_its_write_committed_resumes_from_the_journal(
    dnd_room, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """A model does not repeat itself: after its endpoint failed past a committed write, the
    retry shows the model the steps already answered (from the journal, not sent again) and
    lets it go on from there, instead of failing as journal_diverged when it calls another
    tool first."""
    from tests.turns.fake_llm import completion, tool_call

    room = dnd_room
    start = room.domain_revision()
    model.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])),
        (503, {"error": "overloaded"}),
        # The retry: this time the model looks at the campaign before answering.
        (200, completion(tool_calls=[tool_call("c2", "campaign_get", {})])),
        (200, completion(content=FINAL)),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=2) == ["queued", "succeeded"]
    retry = model.requests[2]["messages"]
    shown = [m for m in retry if m["role"] in ("assistant", "tool")]
    assert [(m["role"], m.get("tool_calls", [{}])[0].get("function", {}).get("name"))
            for m in shown] == [("assistant", "dice_roll"), ("tool", None)]  # fmt: skip
    assert room.domain_revision() == start + 1
    assert list(job.operations.values_list("step", "tool", "state")) == [
        (1, "dice_roll", "returned"), (2, "campaign_get", "returned")
    ]  # fmt: skip
    assert [m.body for m in narrations(job)] == ["The die lands."]


def test_a_tool_not_offered_takes_no_step_so_a_retry_replays_every_write(
    dnd_room, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """A model's call to a tool it was not offered never reaches the domain and is not
    journaled: it takes no step, so the journal has no hole and a retry is shown (and answered
    from the journal) every write made before, instead of making it again under a new key."""
    from tests.turns.fake_llm import completion, tool_call

    room = dnd_room
    start = room.domain_revision()
    model.script = [
        (200, completion(tool_calls=[tool_call("c0", "roll_dice", {"expression": "1d20"})])),
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])),
        (503, {"error": "overloaded"}),
        (200, completion(content=FINAL)),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=2) == ["queued", "succeeded"]
    assert room.domain_revision() == start + 1
    assert list(job.operations.values_list("step", "tool", "state")) == [
        (1, "dice_roll", "returned")
    ]
    assert job.charged == 3  # the turn, its one call, both attempts' 45 model tokens


def test_a_worker_whose_turn_the_sweep_took_back_journals_and_sends_nothing_more(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    """A worker that stalled past its lease (the sweep requeued its turn) and then goes on
    journals no further step, so it sends nothing: the next claim runs the turn alone."""
    room = dnd_room
    start = room.domain_revision()

    class Stalls:
        name = "test"

        def run_turn(self, turn, call_tool):
            RoomTurnJob.objects.filter(pk=turn.job_id).update(
                lease_expires_at=timezone.now() - timedelta(seconds=1)
            )
            assert turn_recovery_sweep()["requeued"] == 1
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("rolled"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Stalls())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["lease_lost"]
    assert (job.status, job.operations.count(), room.domain_revision()) == ("queued", 0, start)


def test_a_model_slower_than_the_turns_time_limit_is_cut_off_at_it(
    dnd_room, settings, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """The time limit bounds the model's requests too: one that would run past it is given only
    the time left, and the turn ends turn_timeout (not a retryable agent timeout, which would
    run the slow turn again), with its committed roll published."""
    import time

    from tests.turns.fake_llm import completion, tool_call

    room = dnd_room
    start = room.domain_revision()
    settings.SAGASMITH_TURN_RUN_SECONDS = 1.0
    model.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])),
        ("sleep", 3.0, completion(content=FINAL)),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    began = time.monotonic()
    assert _run_due(job, django_capture_on_commit_callbacks) == ["failed"]
    assert time.monotonic() - began < 2.5
    assert (job.error_code, job.retryable, job.error_message) == (
        "turn_timeout", False, "The turn took longer than 1 seconds."
    )  # fmt: skip
    assert room.domain_revision() == start + 1
    assert job.recovery == "Part of the turn happened; read the room before acting again."


def test_a_domain_code_longer_than_the_column_is_stored_cut_to_it():
    """A server breaking the contract with a long code must not make every publication fail on
    the job's 80-character error_code column (nothing could be stored, the turn would wait)."""
    long_code = "a_code_no_contract_names_" * 5
    error = DomainError("No.", domain_code=long_code, system_id="dnd5e", tool="attack",
                        retryable=False, recovery="Stop.")  # fmt: skip
    assert (
        classify_error(error).code
        == long_code[: RoomTurnJob._meta.get_field("error_code").max_length]
    )


def test_every_failed_narrations_model_tokens_are_charged(
    dnd_room, settings, monkeypatch, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    """Out of attempts at its roll, whose re-send before publication commits, a model turn is
    narrated from its journal, and the narration fails after its model request; so does the
    publication, and the next pass narrates (and fails) again. Every model request the turn
    made is charged, the second narration's too, each once."""
    from tests.turns.fake_llm import completion, tool_call

    settings.SAGASMITH_TURN_RESERVE_CREDITS = 20
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:3")  # the first publication
    room = dnd_room
    state: dict = {}

    def outage() -> DomainUnavailable:
        state["down"] = state["sends"] < 3  # back for the re-send after the last attempt
        return DomainUnavailable("The rules server is down.")

    _dice_fails(monkeypatch, outage, state)
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    # A narration whose model asks for a tool all the same (tools closed), and again when
    # offered none, fails.
    again = (200, {**roll, "usage": _tokens(0, 0)})
    model.script = [
        (200, {**roll, "usage": FIRST}),
        (200, {**roll, "usage": _tokens(10, 5)}), again,  # the first narration
        (200, {**roll, "usage": SECOND}), again,  # the second
    ]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert _run_due(job, django_capture_on_commit_callbacks, times=4)[2:] == [
        "waiting", "failed"
    ]  # fmt: skip
    assert len(model.requests) == 5
    assert list(job.operations.values_list("step", "state")) == [(1, "returned")]
    usage = {"model_calls": 5, "prompt_tokens": 2110, "completion_tokens": 305,
             "total_tokens": 2415}  # fmt: skip
    # The turn, its roll, and three started thousands of tokens (without the last: two).
    assert (job.error_code, job.charged, job.agent_output["usage"]) == (
        "attempts_exhausted", 5, usage
    )  # fmt: skip
