"""RoomTurnJob lifecycle in-process (eager Celery) against a live dnd5e server."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from apps.projections.models import OutboxEvent
from apps.quota.models import LedgerEntry, Reservation
from apps.rooms.models import Message
from apps.turns import conf
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.projections import projection_apply, projection_reads
from apps.turns.selectors import room_turn_job_is_live
from apps.turns.services import jobs as jobs_module
from apps.turns.services import (
    turn_action_submit,
    turn_cancel,
    turn_claim,
    turn_heartbeat,
    turn_recovery_sweep,
    turn_run,
)
from apps.turns.services.publish import dice_from
from apps.turns.services.run import JournalCaller
from apps.turns.types import AgentMessage, AgentOutput
from tests.saga.conftest import postgres_or_skip

pytestmark = pytest.mark.django_db


def narrations(job) -> list[Message]:
    return list(
        Message.objects.filter(event_type="turn.narration", data__job_id=str(job.pk)).order_by(
            "sequence"
        )
    )


def gm_writes_at(room, revision: int) -> None:
    """A write of the GM's straight to the domain (as another turn's would be): it takes
    `revision`, which the room's projection does not know of yet."""
    from apps.domains.client import domain_call

    domain_call(
        system_id="dnd5e", tool="dice_roll", requester=room.gm, campaign_id=str(room.campaign.id),
        arguments={"expression": "1d4", "expected_revision": revision, "idempotency_key": "gm-1"},
    )  # fmt: skip


def test_a_read_that_moves_the_revision_on_announces_the_state_changed(dnd_room):
    """A plain read (a stale base_revision looked up, a membership change) can learn of a write
    before its own turn publishes it; that turn's receipt then advances nothing, so the read
    announces the change itself, naming every scope the room's panels show."""
    from apps.campaigns.services.authority import campaign_refresh
    from apps.domains.registry import get_plugin
    from apps.turns.projections import CARD

    room = dnd_room
    start = room.domain_revision()
    gm_writes_at(room, start)
    campaign_refresh(campaign=room.campaign, requester=room.gm)
    campaign_refresh(campaign=room.campaign, requester=room.gm)  # nothing new: no event
    scopes = {s for panel in (CARD, *get_plugin("dnd5e").panels) for s in panel.scopes}
    (event,) = OutboxEvent.objects.filter(event_type="state.changed")
    assert (event.audience, event.payload) == ("public", {
        "authority_revision": start + 1, "changed_scopes": sorted(scopes), "entity_ids": [],
        "audience": "public", "access_version": 0,
    })  # fmt: skip


def submit(room, user, text="roll 1d20", key="action-key-1", **extra):
    return turn_action_submit(
        membership=room.membership(user), text=text, idempotency_key=key, **extra
    )


def test_action_runs_once_end_to_end(dnd_room, eager, django_capture_on_commit_callbacks):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=True):
        job, created = submit(room, room.player)
    assert created is True
    job.refresh_from_db()
    assert job.status == RoomTurnJob.Status.SUCCEEDED
    assert job.attempt == 1
    assert job.tools == sorted(job.tools) and "dice_roll" in job.tools and len(job.tools) <= 16
    assert job.trigger_message.mode == "action" and job.trigger_message.body == "roll 1d20"
    ops = list(job.operations.all())
    assert [(op.step, op.tool, op.state, op.write) for op in ops] == [
        (1, "dice_roll", "returned", True)
    ]
    assert ops[0].idempotency_key == f"turn-{job.pk}:1"
    assert ops[0].result["structuredContent"]["receipt"]["authority_revision"] == before + 1
    assert ops[0].result["content"][0]["type"] == "text"
    # Exactly one narration, carrying the dice.
    (narration,) = narrations(job)
    assert narration.audience == "public"
    assert narration.data["dice"][0]["expression"] == "1d20"
    assert narration.data["dice"][0]["total"] == ops[0].result["structuredContent"]["total"]
    # A plain roll names who made it: the dice panel lists everyone's rolls.
    assert (narration.data["dice"][0]["by"], narration.data["dice"][0]["by_id"]) == (
        room.player.label,
        str(room.player.pk),
    )
    # The authority moved once and the projection followed.
    assert room.domain_revision() == before + 1
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == before + 1
    assert job.result_revision == before + 1
    changed = OutboxEvent.objects.filter(event_type="state.changed").get()
    assert changed.payload == {
        "authority_revision": before + 1,
        "changed_scopes": ["dice"],
        "entity_ids": [],
        "audience": "public",
        "access_version": 0,
    }
    assert changed.audience == "public"
    # Quota: reserved 5, settled 1 (turn) + 1 (tool call).
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (reservation.status, reservation.amount, reservation.settled_amount) == (
        "settled",
        5,
        2,
    )
    assert job.charged == 2
    assert LedgerEntry.objects.filter(reservation=reservation).count() == 1
    assert room_turn_job_is_live(str(job.pk)) is False


@pytest.mark.parametrize(
    ("who", "audience"), [("player", "public"), ("gm", "public"), ("gm", "gm")]
)
def test_a_rolls_state_changed_goes_to_the_audience_of_the_roll(
    dnd_room, eager, django_capture_on_commit_callbacks, who, audience
):
    """A roll changes no panel: its `state.changed` is the only trace of it besides the
    narration, so it goes no wider than the roll (a GM-only roll's to the GMs alone)."""
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=True):
        job, _created = submit(room, getattr(room, who), audience=audience)
    (narration,) = narrations(job)
    assert (narration.audience, narration.data["dice"][0]["expression"]) == (audience, "1d20")
    (changed,) = OutboxEvent.objects.filter(event_type="state.changed")
    assert (changed.audience, changed.payload) == (audience, {
        "authority_revision": before + 1, "changed_scopes": ["dice"], "entity_ids": [],
        "audience": audience, "access_version": 0,
    })  # fmt: skip


@pytest.mark.parametrize(
    ("text", "ops"),
    [
        ("dance a jig", []),  # not understood: no call at all
        ("roll 1000d1000", [("dice_roll", "refused")]),  # the rules said no
        # The agent looked, then asked back or said no itself: nothing was done either.
        ("atack the goblin", "reads"),  # misspelt: "did you mean: attack the goblin?"
        ("look at the dragon", "reads"),  # no one here by that name
    ],
)
def test_a_turn_that_changed_nothing_and_used_no_model_is_free(
    dnd_room, eager, django_capture_on_commit_callbacks, text, ops
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = submit(room, room.player, text=text)
    job.refresh_from_db()
    operations = list(job.operations.all())
    if ops == "reads":
        assert operations and all(op.state == "returned" and not op.write for op in operations)
    else:
        assert [(op.tool, op.state) for op in operations] == ops
    assert (job.status, job.charged) == ("succeeded", 0)
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (reservation.status, reservation.settled_amount) == ("released", None)
    assert not LedgerEntry.objects.filter(reservation=reservation).exists()
    assert room.domain_revision() == before
    (narration,) = narrations(job)
    assert narration.body  # the player is still told why


def test_repeated_key_returns_the_first_job(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    enqueued = []
    monkeypatch.setattr(
        "apps.turns.services.jobs.enqueue_run", lambda job_id: enqueued.append(job_id)
    )
    with django_capture_on_commit_callbacks(execute=True):
        first, created = submit(room, room.player)
        again, created_again = submit(room, room.player)
    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert enqueued == [first.pk]
    assert RoomTurnJob.objects.count() == 1
    assert Message.objects.filter(mode="action").count() == 1
    from apps.core.errors import IdempotencyConflict

    with pytest.raises(IdempotencyConflict):
        submit(room, room.player, text="roll 2d6")


def test_a_key_reused_in_another_campaign_is_a_conflict(
    dnd_room, django_capture_on_commit_callbacks
):
    import uuid

    from apps.campaigns.models import CampaignMembership
    from apps.campaigns.services.campaigns import campaign_create
    from apps.core.errors import IdempotencyConflict
    from apps.rooms.services import room_get_or_create
    from tests.campaigns.conftest import join

    room = dnd_room
    other = campaign_create(
        owner=room.gm, name="Second", system_id="dnd5e", idempotency_key=uuid.uuid4().hex
    )
    join(other, room.gm, room.player)
    room_get_or_create(campaign=other)
    with django_capture_on_commit_callbacks(execute=False):
        first, _ = submit(room, room.player, key="same-key")
    elsewhere = CampaignMembership.objects.select_related("campaign", "user").get(
        campaign=other, user=room.player
    )
    with pytest.raises(IdempotencyConflict) as raised:
        turn_action_submit(membership=elsewhere, text="roll 1d20", idempotency_key="same-key")
    assert raised.value.details == {"job_id": str(first.pk)}
    assert RoomTurnJob.objects.filter(campaign=other).count() == 0
    assert Message.objects.filter(room__campaign=other, mode="action").count() == 0


def test_a_key_a_chat_message_already_used_is_a_conflict(dnd_room):
    from apps.core.errors import Conflict
    from apps.rooms.services import room_message_post

    room = dnd_room
    room_message_post(
        membership=room.membership(room.player), body="hello", mode=Message.Mode.CHAT,
        client_message_id="turn:taken",
    )  # fmt: skip
    with pytest.raises(Conflict) as raised:
        submit(room, room.player, key="taken")
    assert raised.value.code == "client_message_id_reused"
    assert RoomTurnJob.objects.count() == 0


def test_stale_base_revision_changes_nothing(dnd_room):
    from apps.turns.errors import StaleRevision

    room = dnd_room
    counts = (Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count())
    with pytest.raises(StaleRevision) as caught:
        submit(room, room.player, base_revision=room.campaign.authority_revision - 1)
    assert caught.value.status == 409
    assert caught.value.details == {
        "base_revision": room.campaign.authority_revision - 1,
        "current_revision": room.campaign.authority_revision,
    }
    assert RoomTurnJob.objects.count() == 0
    after = (Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count())
    assert after == counts


@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_in_one_room_respect_its_limit(dnd_room, settings, monkeypatch):
    """Two workers claim two jobs of one room at once: the second waits on the campaign lock and
    then counts the first as running, so exactly one claim wins and the other is busy."""
    postgres_or_skip()
    room = dnd_room
    settings.SAGASMITH_TURN_ROOM_CONCURRENCY = 1
    first, _ = submit(room, room.player, key="k-race-1")
    second, _ = submit(room, room.gm, key="k-race-2")
    RoomTurnJob.objects.update(available_at=timezone.now() - timedelta(seconds=1))
    # The first claim holds its locks for a while before it writes, so the second one is
    # certainly waiting on the campaign row when the first commits.
    selection = jobs_module._facade_selection
    first_in = threading.Event()

    def slow_selection(job, campaign, role):
        if job.pk == first.pk:
            first_in.set()
            time.sleep(0.5)
        return selection(job, campaign, role)

    monkeypatch.setattr(jobs_module, "_facade_selection", slow_selection)
    outcomes = {}

    def claim(job, worker):
        try:
            outcomes[job.pk] = turn_claim(job_id=job.pk, worker=worker)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(first, "w1"))]
    threads[0].start()
    assert first_in.wait(10)
    threads.append(threading.Thread(target=claim, args=(second, "w2")))
    threads[1].start()
    for thread in threads:
        thread.join(20)
    claimed, busy = outcomes[first.pk]
    assert (claimed.status, busy) == ("running", False)
    assert outcomes[second.pk] == (None, True)
    statuses = dict(RoomTurnJob.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "running", second.pk: "queued"}
    assert OutboxEvent.objects.filter(event_type="turn.job", payload__status="running").count() == 1


def test_claim_is_conditional_and_room_limit_holds(
    dnd_room, settings, django_capture_on_commit_callbacks
):
    room = dnd_room
    settings.SAGASMITH_TURN_ROOM_CONCURRENCY = 1
    with django_capture_on_commit_callbacks(execute=False):
        first, _ = submit(room, room.player, key="k-first-1")
        second, _ = submit(room, room.gm, key="k-second-1")
    claimed, busy = turn_claim(job_id=first.pk, worker="w1")
    assert (claimed.status, claimed.attempt, busy) == ("running", 1, False)
    assert turn_claim(job_id=first.pk, worker="w2") == (None, False)
    RoomTurnJob.objects.filter(pk=second.pk).update(
        available_at=timezone.now() - timedelta(minutes=5)
    )
    assert turn_claim(job_id=second.pk, worker="w2") == (None, True)
    second.refresh_from_db()
    assert (second.status, second.attempt) == ("queued", 0)
    # A busy attempt restarts the sweep's grace: its own retry message is on its way.
    assert timezone.now() - second.available_at < timedelta(seconds=5)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["reenqueued"] == 0


def test_longest_idempotency_key_is_accepted_and_replays(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    key = "k" * 160
    with django_capture_on_commit_callbacks(execute=False):
        first, created = submit(room, room.player, key=key)
        again, created_again = submit(room, room.player, key=key)
        other, created_other = submit(room, room.player, key="k" * 159 + "j")
    assert (created, created_again, again.pk, created_other) == (True, False, first.pk, True)
    assert other.pk != first.pk


def test_publication_failure_waits_then_publishes_once(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:1")
    scheduled = []
    monkeypatch.setattr(
        "apps.turns.services.publish.enqueue_run",
        lambda job_id, countdown: scheduled.append((job_id, countdown)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "waiting"
    assert scheduled == [(job.pk, 2.0)]  # the retry is enqueued on commit, after the backoff
    job.refresh_from_db()
    # Worded for whoever reads the job row: no class name before an application error's message.
    assert (job.status, job.error_code, job.error_message) == (
        "waiting", "publication_failed", "Injected publication fault."
    )  # fmt: skip
    assert job.agent_output["messages"]
    assert narrations(job) == []  # the failed publication left nothing behind
    assert OutboxEvent.objects.filter(event_type="state.changed").count() == 0
    assert room.domain_revision() == before + 1
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert (job.status, job.attempt) == ("succeeded", 2)
    assert len(narrations(job)) == 1
    assert job.operations.count() == 1  # published from the journal: no second call
    assert room.domain_revision() == before + 1
    assert LedgerEntry.objects.filter(reservation_id=job.reservation_id).count() == 1


def _run_until_the_domain_committed(room, monkeypatch, capture) -> RoomTurnJob:
    """Submit and run a roll whose worker dies after the domain committed, before the journal
    recorded the result: the operation stays dispatched."""
    from apps.turns.services.jobs import LeaseLost

    with capture(execute=False):
        job, _ = submit(room, room.player)

    def die(self, step, name, outcome):
        raise LeaseLost("simulated worker death")

    with monkeypatch.context() as patch:
        patch.setattr(JournalCaller, "_after", die)
        assert turn_run(job_id=job.pk, heartbeat=False) == "lease_lost"
    return job


def test_dispatched_call_is_recalled_with_the_same_key(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """A worker dies after the domain committed but before the journal recorded the result:
    recovery re-sends the same key and the domain replays (one mutation)."""
    room = dnd_room
    before = room.domain_revision()
    job = _run_until_the_domain_committed(room, monkeypatch, django_capture_on_commit_callbacks)
    op = Operation.objects.get(job=job)
    assert (op.state, op.result) == ("dispatched", None)
    assert room.domain_revision() == before + 1
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        counts = turn_recovery_sweep()
    assert counts["requeued"] == 1
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    op.refresh_from_db()
    assert (op.state, op.attempt) == ("returned", 2)
    assert op.result["_meta"]["idempotent_replay"] is True
    assert room.domain_revision() == before + 1
    assert len(narrations(job)) == 1


def test_cancel_after_an_unanswered_write_that_committed_publishes_and_charges_it(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    """The worker stopped after the domain committed, before the journal had the result; the
    player then cancels the requeued job. A worker takes it at once and asks the domain whether
    the key committed without letting it run: it did, so its replay is journaled, its receipt
    applied and charged, and the player sees the dice on the turn's outcome. The write ran
    once."""
    room = dnd_room
    before = room.domain_revision()
    job = _run_until_the_domain_committed(room, monkeypatch, django_capture_on_commit_callbacks)
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["requeued"] == 1
    job.refresh_from_db()
    assert job.available_at > timezone.now()  # in its backoff
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = turn_cancel(job=job, membership=room.membership(room.player))
    assert (cancelled.status, cancelled.cancel_requested) == ("queued", True)
    job.refresh_from_db()
    assert (job.status, job.charged, job.result_revision) == ("cancelled", 2, before + 1)
    op = Operation.objects.get(job=job)
    assert (op.state, op.result["_meta"]["idempotent_replay"]) == ("returned", True)
    assert op.receipt["authority_revision"] == before + 1
    assert Reservation.objects.get(pk=job.reservation_id).status == "settled"
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == room.domain_revision() == before + 1
    # Everyone who saw the action sees it was cancelled after the write stood, with the dice it
    # rolled, as a finished turn's; the player gets no private copy.
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (marker.audience, marker.body, marker.data) == (
        "public",
        f"{room.player.label} cancelled “roll 1d20” after the rules had acted: what they did "
        "stands.",
        {
            "job_id": str(job.pk),
            "status": "cancelled",
            "cancelled_by": str(room.player.pk),
            "cancelled_by_body": "You cancelled “roll 1d20” after the rules had acted: what they "
            "did stands.",
            "dice": dice_from([op], by=room.player.label, by_id=str(room.player.pk)),
        },
    )
    assert [d["tool"] for d in marker.data["dice"]] == ["dice_roll"]
    assert narrations(job) == []
    with django_capture_on_commit_callbacks(execute=False):
        nxt, _ = submit(room, room.player, key="after-cancel")
    assert turn_run(job_id=nxt.pk, heartbeat=False) == "succeeded"
    assert room.domain_revision() == before + 2


def test_cancel_after_a_write_that_never_arrived_refuses_it_without_running_it(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    """The write was journaled as dispatched but the domain never got it (unreachable); the
    player cancels the requeued job once that send is long over (a send that may still be
    running is waited for: see the next test). The worker's question cannot run it: the step
    is refused, nothing is charged, and the domain's revision does not move, now or later."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.errors import DomainUnavailable

    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)

    def unreachable(**kwargs):
        raise DomainUnavailable("connection refused")

    with monkeypatch.context() as patch, django_capture_on_commit_callbacks(execute=False):
        patch.setattr(tool_calls, "domain_call", unreachable)
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    assert Operation.objects.get(job=job).state == "dispatched"
    Operation.objects.filter(job=job).update(updated_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        turn_cancel(job=job, membership=room.membership(room.gm))
    job.refresh_from_db()
    assert (job.status, job.charged) == ("cancelled", 0)
    op = Operation.objects.get(job=job)
    assert (op.state, op.error["code"]) == ("refused", "stale_revision")
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert room.domain_revision() == before
    assert turn_run(job_id=job.pk, heartbeat=False) == "skipped"
    assert room.domain_revision() == before


def test_an_outage_that_outlasts_the_tries_tells_the_player_what_to_do(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """A read-first action while the domain stays unreachable: its tries run out, nothing was
    written, and the player reads advice for a player (not the API's idempotency hint)."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.errors import DomainUnavailable

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, text="look at goblin")

    def unreachable(**kwargs):
        raise DomainUnavailable("The dnd5e rules server is unavailable.")

    monkeypatch.setattr(tool_calls, "domain_call", unreachable)
    outcomes = []
    for _ in range(3):
        RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=False):
            outcomes.append(turn_run(job_id=job.pk, heartbeat=False))
    job.refresh_from_db()
    assert outcomes == ["queued", "queued", "failed"]
    recovery = "Nothing happened in the game. Send the action again in a minute."
    assert (job.error_code, job.error_message, job.retryable, job.recovery, job.charged) == (
        "attempts_exhausted", "The dnd5e rules server is unavailable.", False, recovery, 0
    )  # fmt: skip
    outcome = Message.objects.get(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (outcome.body, outcome.data["error"]["recovery"]) == (
        "The dnd5e rules server is unavailable.", recovery
    )  # fmt: skip


def _a_write_that_timed_out(room, monkeypatch, capture):
    """A submitted job whose first attempt's write timed out before reaching the domain (it
    is requeued with the step dispatched), and the call's arguments, for a late send."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.errors import DomainTimeout

    with capture(execute=False):
        job, _ = submit(room, room.player)
    timed_out = []

    def times_out(**kwargs):
        timed_out.append(dict(kwargs))
        raise DomainTimeout("no answer in time")

    with monkeypatch.context() as patch, capture(execute=False):
        patch.setattr(tool_calls, "domain_call", times_out)
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    return job, timed_out


def test_a_cancel_looks_twice_when_the_key_commits_under_its_first_look(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    """A send of the write that timed out is still running on the domain and commits just after
    the cancel's first look missed it. The campaign has moved past the key's revision, so the
    second look is final: it finds the key, and the write is published and charged, once."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainError
    from apps.turns.services.run import PROBE_REVISION

    room = dnd_room
    before = room.domain_revision()
    job, timed_out = _a_write_that_timed_out(room, monkeypatch, django_capture_on_commit_callbacks)
    looks = []

    def late_commit(**kwargs):
        if kwargs["arguments"].get("expected_revision") == PROBE_REVISION:
            looks.append(kwargs["tool"])
            if len(looks) == 1:
                try:
                    domain_call(**kwargs)
                except DomainError:
                    domain_call(**timed_out[0])  # the timed-out send commits now
                    raise
        return domain_call(**kwargs)

    monkeypatch.setattr(tool_calls, "domain_call", late_commit)
    with django_capture_on_commit_callbacks(execute=True):
        turn_cancel(job=job, membership=room.membership(room.player))
    assert looks == ["dice_roll", "dice_roll"]
    job.refresh_from_db()
    assert (job.status, job.charged, job.result_revision) == ("cancelled", 2, before + 1)
    op = Operation.objects.get(job=job)
    assert (op.state, op.result["_meta"]["idempotent_replay"]) == ("returned", True)
    assert room.domain_revision() == before + 1


def test_a_cancel_waits_while_a_timed_out_send_may_still_commit(
    dnd_room, eager, monkeypatch, django_capture_on_commit_callbacks
):
    """The cancel's look misses the key and the campaign is still at the key's revision: a
    send that timed out moments ago may yet commit there, so the turn waits and looks again
    instead of refusing. Here it does commit, and the second look publishes and charges it."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.turns.services.run import PROBE_REVISION

    room = dnd_room
    before = room.domain_revision()
    job, timed_out = _a_write_that_timed_out(room, monkeypatch, django_capture_on_commit_callbacks)
    probes = []

    def commits_after_the_first_look(**kwargs):
        if kwargs["arguments"].get("expected_revision") == PROBE_REVISION:
            probes.append(kwargs["tool"])
        result = domain_call(**kwargs)
        if kwargs["tool"] == "campaign_get" and len(timed_out) == 1:
            timed_out.append(domain_call(**timed_out[0]))  # the slow send commits now
        return result

    monkeypatch.setattr(tool_calls, "domain_call", commits_after_the_first_look)
    with django_capture_on_commit_callbacks(execute=True):
        turn_cancel(job=job, membership=room.membership(room.player))
    job.refresh_from_db()
    assert (job.status, job.error_message, probes) == (
        "waiting",
        "The turn's last write may still be running.",
        ["dice_roll"],
    )
    assert Operation.objects.get(job=job).state == "dispatched"
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert (job.charged, job.result_revision) == (2, before + 1)
    op = Operation.objects.get(job=job)
    assert (op.state, op.result["_meta"]["idempotent_replay"]) == ("returned", True)
    assert room.domain_revision() == before + 1


def test_a_cancel_during_a_last_attempt_that_fails_sends_the_write_no_more(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The player cancels while the last attempt's write is under way, and the call times out
    before reaching the domain. The turn ends cancelled, and publication asks the domain about
    the write rather than sending it again: nothing runs and nothing is charged."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainTimeout

    room = dnd_room
    job, start = _a_last_attempt(room, settings, django_capture_on_commit_callbacks)
    membership = room.membership(room.player)

    def cancelled_then_timed_out(**kwargs):
        monkeypatch.setattr(tool_calls, "domain_call", domain_call)  # later calls get through
        turn_cancel(job=RoomTurnJob.objects.get(pk=job.pk), membership=membership)
        raise DomainTimeout("no answer in time")

    monkeypatch.setattr(tool_calls, "domain_call", cancelled_then_timed_out)
    with django_capture_on_commit_callbacks(execute=False):
        outcome = turn_run(job_id=job.pk, heartbeat=False)
    job.refresh_from_db()
    assert (outcome, job.status, job.charged) == ("waiting", "waiting", None)
    # The send it made may still be running: once that is over, the look is final.
    Operation.objects.filter(job=job).update(updated_at=timezone.now() - timedelta(minutes=5))
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert (job.status, job.charged) == ("cancelled", 0)
    assert Operation.objects.get(job=job).state == "refused"
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert room.domain_revision() == start


def test_a_write_beaten_to_its_revision_goes_again_at_the_current_one(
    dnd_room, django_capture_on_commit_callbacks
):
    """Another write in the room (a concurrent turn, a GM) took the revision the job started
    from: the domain refuses the step as stale, which proves its key never committed, so the
    step is sent again with the same key at the current revision, and the turn succeeds."""

    room = dnd_room
    start = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    gm_writes_at(room, start)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert (job.start_revision, job.result_revision, job.charged) == (start, start + 2, 2)
    op = Operation.objects.get(job=job)
    assert (op.state, op.attempt) == ("returned", 1)
    # The journal holds what was last sent, so a recovery re-send replays this very write.
    assert op.arguments["expected_revision"] == start + 1
    assert op.idempotency_key == op.arguments["idempotency_key"] == f"turn-{job.pk}:1"
    assert op.receipt["previous_revision"] == start + 1
    assert room.domain_revision() == start + 2
    assert len(narrations(job)) == 1


def test_a_stale_answer_to_a_write_that_did_commit_is_settled_by_its_replay(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """The domain can answer stale_revision from its commit check while another send of the same
    step (an attempt that timed out but still ran) commits it. The refreshed send then gets
    idempotency_conflict: the earlier arguments are sent again and their replay is the result,
    so the write is published once, as committed."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainError

    room = dnd_room
    start = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    sent = []

    def committed_but_stale(**kwargs):
        sent.append((kwargs["tool"], kwargs["arguments"].get("expected_revision")))
        result = domain_call(**kwargs)
        if len(sent) == 1:
            raise DomainError(
                f"campaign revision moved past {start} during the call",
                domain_code="stale_revision", system_id="dnd5e", tool=kwargs["tool"],
                retryable=True, recovery="refresh the campaign revision and retry",
            )  # fmt: skip
        return result

    monkeypatch.setattr(tool_calls, "domain_call", committed_but_stale)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    # The write, the revision read, the refreshed send (conflict), the earlier one (replay).
    assert sent == [
        ("dice_roll", start), ("campaign_get", None), ("dice_roll", start + 1),
        ("dice_roll", start),
    ]  # fmt: skip
    op = Operation.objects.get(job=job)
    assert (op.state, op.arguments["expected_revision"]) == ("returned", start)
    assert op.receipt["authority_revision"] == start + 1
    assert room.domain_revision() == start + 1
    job.refresh_from_db()
    assert (job.result_revision, job.charged) == (start + 1, 2)
    assert len(narrations(job)) == 1


def test_an_action_based_on_a_revision_is_not_sent_at_another(
    dnd_room, django_capture_on_commit_callbacks
):
    """A client that named the revision it acted on (base_revision) gets its action there or
    not at all: a write refused as stale is not sent again at the newer revision, and the turn
    ends at once as stale (no attempt runs the agent again for the same refusal)."""
    room = dnd_room
    start = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, base_revision=room.campaign.authority_revision)
    gm_writes_at(room, start)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    # Not retryable: the same action names the same passed revision; the player acts anew.
    assert (job.attempt, job.error_code, job.retryable, job.charged) == (
        1, "stale_revision", False, 0,
    )  # fmt: skip
    assert job.recovery.startswith("Reload the room")
    op = Operation.objects.get(job=job)
    assert (op.state, op.error["code"], op.arguments["expected_revision"]) == (
        "refused", "stale_revision", start,
    )  # fmt: skip
    assert room.domain_revision() == start + 1


def test_a_later_attempt_finds_the_committed_arguments_in_the_journal(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """The stale answer came while the write committed, and the refreshed send was never
    answered: the next attempt re-sends the journaled (refreshed) arguments, gets
    idempotency_conflict, and finds the committed ones among the revisions the step was sent
    at. The write is published once, as committed."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainError, DomainUnavailable

    room = dnd_room
    start = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    sent = []

    def stale_then_dropped(**kwargs):
        sent.append((kwargs["tool"], kwargs["arguments"].get("expected_revision")))
        if len(sent) == 1:
            domain_call(**kwargs)  # commits
            raise DomainError(
                "moved past during the call", domain_code="stale_revision", system_id="dnd5e",
                tool=kwargs["tool"], retryable=True, recovery="",
            )  # fmt: skip
        if len(sent) == 3:
            raise DomainUnavailable("connection dropped")
        return domain_call(**kwargs)

    monkeypatch.setattr(tool_calls, "domain_call", stale_then_dropped)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    op = Operation.objects.get(job=job)
    assert (op.state, op.arguments["expected_revision"], op.sent_revisions) == (
        "dispatched", start + 1, [start],
    )  # fmt: skip
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    assert sent[3:] == [("dice_roll", start + 1), ("dice_roll", start)]
    op.refresh_from_db()
    assert (op.state, op.arguments["expected_revision"], op.sent_revisions) == (
        "returned", start, [start + 1],
    )  # fmt: skip
    assert op.receipt["authority_revision"] == start + 1
    assert room.domain_revision() == start + 1
    job.refresh_from_db()
    assert (job.status, job.result_revision, job.charged) == ("succeeded", start + 1, 2)
    assert len(narrations(job)) == 1


def test_a_refresh_that_cannot_read_the_revision_leaves_the_write_stale(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """The revision read fails: the write's own stale refusal stands (retryable, the step stays
    dispatched for the next attempt), not the read's error."""
    from apps.domains.errors import DomainError
    from apps.turns.tool_calls import ToolCaller

    room = dnd_room
    start = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    gm_writes_at(room, start)

    def denied(self):
        raise DomainError(
            "not a member", domain_code="authorization_denied", system_id="dnd5e",
            tool="campaign_get", retryable=False, recovery="",
        )  # fmt: skip

    monkeypatch.setattr(ToolCaller, "_current_revision", denied)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    job.refresh_from_db()
    assert (job.status, job.error_code, job.retryable) == ("queued", "stale_revision", True)
    op = Operation.objects.get(job=job)
    assert (op.state, op.arguments["expected_revision"]) == ("dispatched", start)


@pytest.mark.django_db(transaction=True)
def test_two_actions_at_once_in_one_room_both_succeed(dnd_room, monkeypatch):
    """Two players act at the same moment: both turns start from the same revision, one wins
    it on the domain, and the other's write goes again at the next revision."""
    room = dnd_room
    player2 = type(room.player).objects.create_user(
        email="second@example.test", password=None, display_name="Second",
        terms_version=room.player.terms_version, privacy_version=room.player.privacy_version,
    )  # fmt: skip
    from tests.campaigns.conftest import join

    join(room.campaign, room.gm, player2)
    start = room.domain_revision()
    first, _ = submit(room, room.player, key="k-at-once-1")
    second, _ = submit(room, player2, key="k-at-once-2")
    # Both turns have journaled their write (both claimed at the same revision) before either
    # reaches the domain.
    both_dispatched = threading.Barrier(2, timeout=20)
    before = JournalCaller._before

    def dispatched_together(self, step, name, sent):
        before(self, step, name, sent)
        both_dispatched.wait()

    monkeypatch.setattr(JournalCaller, "_before", dispatched_together)
    outcomes = {}

    def run(job):
        try:
            outcomes[job.pk] = turn_run(job_id=job.pk, heartbeat=False)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert outcomes == {first.pk: "succeeded", second.pk: "succeeded"}
    ops = Operation.objects.filter(job__in=[first, second])
    assert sorted(op.arguments["expected_revision"] for op in ops) == [start, start + 1]
    assert {op.state for op in ops} == {"returned"}
    assert room.domain_revision() == start + 2
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == start + 2
    assert len(narrations(first)) == len(narrations(second)) == 1


def _a_last_attempt(room, settings, capture):
    """A submitted job with one attempt in all, and the domain's revision before it."""
    settings.SAGASMITH_TURN_MAX_ATTEMPTS = 1
    start = room.domain_revision()
    with capture(execute=False):
        job, _ = submit(room, room.player)
    return job, start


def test_an_unanswered_write_beaten_to_its_revision_is_refused_and_the_turn_ends(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The last attempt's write went unanswered (the domain dropped the connection) and another
    write then took its revision: the re-send before publication gets stale_revision, which
    proves the key never committed, so the step is refused and the job ends instead of waiting
    for ever. Nothing is sent again at a newer revision once the agent's output is stored."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainUnavailable

    room = dnd_room
    job, start = _a_last_attempt(room, settings, django_capture_on_commit_callbacks)
    sent = []

    def dropped_once(**kwargs):
        sent.append(kwargs["arguments"]["expected_revision"])
        if len(sent) == 1:
            gm_writes_at(room, start)
            raise DomainUnavailable("connection dropped")
        return domain_call(**kwargs)

    monkeypatch.setattr(tool_calls, "domain_call", dropped_once)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    assert sent == [start, start, start]  # the re-send, and the second look that settles it
    op = Operation.objects.get(job=job)
    assert (op.state, op.error["code"]) == ("refused", "stale_revision")
    job.refresh_from_db()
    assert (job.status, job.error_code, job.charged) == ("failed", "attempts_exhausted", 0)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert room.domain_revision() == start + 1


def test_a_stale_answer_to_the_re_send_while_its_key_commits_is_settled_by_a_second_look(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The re-send before publication can be answered stale by the commit check while another
    send of the same key (one that timed out but still ran) commits it. The campaign has then
    moved past the key's revision, so a second send's idempotency lookup tells the two apart:
    here it replays. The turn that ran out of attempts is then narrated from its journal (the
    write is not sent again), published and charged, once: the room hears what happened."""
    import apps.turns.tool_calls as tool_calls
    from apps.domains.client import domain_call
    from apps.domains.errors import DomainError, DomainUnavailable

    room = dnd_room
    job, start = _a_last_attempt(room, settings, django_capture_on_commit_callbacks)
    sent = []

    def late_commit(**kwargs):
        sent.append(kwargs["arguments"]["expected_revision"])
        if len(sent) == 1:
            raise DomainUnavailable("timed out")
        if len(sent) == 2:
            domain_call(**kwargs)  # the timed-out send, still running, commits first
            raise DomainError(
                "expected_revision is not the current revision", domain_code="stale_revision",
                system_id="dnd5e", tool=kwargs["tool"], retryable=True, recovery="",
            )  # fmt: skip
        return domain_call(**kwargs)

    monkeypatch.setattr(tool_calls, "domain_call", late_commit)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    assert sent == [start, start, start]
    op = Operation.objects.get(job=job)
    assert (op.state, op.result["_meta"]["idempotent_replay"]) == ("returned", True)
    job.refresh_from_db()
    assert (job.status, job.charged, job.result_revision) == ("succeeded", 2, start + 1)
    total = op.result["structuredContent"]["total"]
    ((audience, body),) = [(m.audience, m.body) for m in narrations(job)]
    # The phrasing is seeded by the job id (random here): any of the roll's three.
    assert audience == "public" and body in {
        f"The dice tumble: 1d20 = {total}.",
        f"1d20 is rolled: {total}.",
        f"1d20 comes up {total}.",
    }
    assert Reservation.objects.get(pk=job.reservation_id).status == "settled"
    assert room.domain_revision() == start + 1


def test_a_requester_removed_mid_turn_ends_it(dnd_room, django_capture_on_commit_callbacks):
    """Nothing private can reach a player who left: the job still ends and frees its quota."""
    from apps.campaigns.services.membership import membership_remove

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    membership_remove(campaign=room.campaign, actor=room.gm, user=room.player)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert (job.status, job.error_code, job.charged) == ("failed", "not_member", 0)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    # Whoever saw the action is told it was dropped; nothing is addressed to the one who left.
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (marker.audience, marker.body, marker.data) == (
        "public",
        "“roll 1d20” was dropped: its player is no longer in the campaign.",
        {"job_id": str(job.pk), "status": "failed"},
    )


def _requeued_after_the_domain_committed(room, monkeypatch, capture) -> RoomTurnJob:
    """A roll the domain committed whose worker died before journaling it, swept back to the
    queue and due now: its retry re-sends the dispatched write."""
    job = _run_until_the_domain_committed(room, monkeypatch, capture)
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with capture(execute=False):
        assert turn_recovery_sweep()["requeued"] == 1
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    return job


def _retry_leaves_the_write_unknown(job, capture) -> None:
    """Run the retry, which fails; its re-sent write is journaled unknown, not refused."""
    with capture(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    op = Operation.objects.get(job=job)
    assert (op.state, op.error["code"]) == ("unknown", "authorization_denied")


def test_a_player_removed_before_the_retry_of_a_committed_write_is_not_told_it_was_dropped(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """The domain refuses a non-member before it looks up the key, so the re-send's refusal
    says nothing of the earlier send: the write is not journaled as refused (which means it
    never happened), the room is told part of it may have happened and the projection reads
    the campaign back, so the room does not stay behind what the domain did."""
    from apps.campaigns.services.membership import membership_remove

    room = dnd_room
    before = room.domain_revision()
    job = _requeued_after_the_domain_committed(
        room, monkeypatch, django_capture_on_commit_callbacks
    )
    membership_remove(campaign=room.campaign, actor=room.gm, user=room.player)
    _retry_leaves_the_write_unknown(job, django_capture_on_commit_callbacks)
    assert (job.status, job.error_code, job.charged) == ("failed", "not_member", 0)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (marker.audience, marker.body) == (
        "public",
        "“roll 1d20” ended: its player is no longer in the campaign, and part of it may have "
        "happened.",
    )
    room.campaign.refresh_from_db()
    assert room.domain_revision() == before + 2  # the roll, then the removal
    assert room.campaign.authority_revision == before + 2


def test_a_player_made_observer_before_the_retry_of_a_committed_write_is_not_told_it_cannot_happen(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    from apps.campaigns.services.membership import membership_change_role

    room = dnd_room
    before = room.domain_revision()
    job = _requeued_after_the_domain_committed(
        room, monkeypatch, django_capture_on_commit_callbacks
    )
    membership_change_role(campaign=room.campaign, actor=room.gm, user=room.player, role="observer")
    _retry_leaves_the_write_unknown(job, django_capture_on_commit_callbacks)
    assert (job.status, job.error_code, job.charged, job.recovery) == (
        "failed",
        "write_unknown",
        0,
        "Part of the turn may have happened; read the room before acting again.",
    )
    assert narrations(job) == []
    (outcome,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (outcome.audience, outcome.body) == (
        "private",
        "The game server would not say whether part of this turn happened: you may no longer "
        "act in this campaign.",
    )
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == room.domain_revision() == before + 2


def test_a_cancelled_turn_whose_player_was_removed_keeps_its_committed_write_unknown(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """A cancel asks the domain about the unanswered write without letting it run; the player
    it would ask as is gone, so the step is left unknown (never "refused") and the room's
    projection reads the campaign back."""
    from apps.campaigns.services.membership import membership_remove
    from apps.turns.services import turn_cancel

    room = dnd_room
    before = room.domain_revision()
    job = _requeued_after_the_domain_committed(
        room, monkeypatch, django_capture_on_commit_callbacks
    )
    with django_capture_on_commit_callbacks(execute=False):
        turn_cancel(job=job, membership=room.membership(room.gm))
    membership_remove(campaign=room.campaign, actor=room.gm, user=room.player)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    op = Operation.objects.get(job=job)
    assert (op.state, op.error["code"]) == ("unknown", "authorization_denied")
    job.refresh_from_db()
    assert (job.status, job.charged) == ("cancelled", 0)
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == room.domain_revision() == before + 2


def test_dice_ride_on_a_message_everyone_who_saw_the_action_sees(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    class SecretFirst:
        def run_turn(self, context, call):
            call("dice_roll", {"expression": "1d20"})
            return AgentOutput(
                messages=(AgentMessage("The GM notes the roll.", "gm"), AgentMessage("It rolls."))
            )

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: SecretFirst())
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    assert [(m.audience, m.body, len(m.data.get("dice", []))) for m in narrations(job)] == [
        ("gm", "The GM notes the roll.", 0),
        ("public", "It rolls.", 1),
    ]


def test_sweep_reenqueues_a_job_whose_message_was_lost(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The broker keeps no unacked copies: a message lost with its worker (or never sent) is
    re-sent by the sweep once the job has waited past the grace period, and the turn runs once."""
    room = dnd_room
    settings.SAGASMITH_TURN_REENQUEUE_SECONDS = 30
    with django_capture_on_commit_callbacks(execute=False):  # the enqueue never happens
        lost, _ = submit(room, room.player, key="lost-1")
        fresh, _ = submit(room, room.gm, key="fresh-1")
    RoomTurnJob.objects.filter(pk=lost.pk).update(
        available_at=timezone.now() - timedelta(seconds=31)
    )
    sent = []
    monkeypatch.setattr("apps.turns.services.recovery.enqueue_run", sent.append)
    counts = turn_recovery_sweep()
    assert (counts["reenqueued"], sent) == (1, [lost.pk])  # the fresh job is within its grace
    assert turn_run(job_id=lost.pk, heartbeat=False) == "succeeded"
    assert turn_run(job_id=lost.pk, heartbeat=False) == "skipped"  # a duplicate is harmless
    assert len(narrations(lost)) == 1


def test_lease_exhausted_fails_and_releases(dnd_room, django_capture_on_commit_callbacks):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(
        status="running",
        attempt=3,
        worker="dead",
        lease_expires_at=timezone.now() - timedelta(seconds=1),
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["exhausted"] == 1
    assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert (job.status, job.error_code, job.charged) == ("failed", "worker_lease_exhausted", 0)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert Operation.objects.filter(job=job).count() == 0
    outcome = Message.objects.get(event_type="turn.outcome")
    assert outcome.audience == "private" and outcome.data["status"] == "failed"


def test_cancel_of_a_turn_waiting_to_publish_that_wrote_nothing_is_immediate_and_free(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    """A read-only turn whose publication failed waits with its narration stored: cancelling
    it ends it at once, charges nothing and publishes nothing."""
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, text="look around")
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:1")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "waiting"
    monkeypatch.delenv("SAGASMITH_TURN_FAULT")
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = turn_cancel(job=job, membership=room.membership(room.player))
    assert (cancelled.status, cancelled.charged, cancelled.error_message) == (
        "cancelled", 0, "Cancelled before it was published."
    )  # fmt: skip
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert turn_run(job_id=job.pk, heartbeat=False) == "skipped"
    assert narrations(job) == []
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert marker.body == f"{room.player.label} cancelled “look around” before it was published."


def test_cancel_queued_is_immediate(dnd_room, django_capture_on_commit_callbacks):
    from apps.core.errors import PermissionDenied

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm)
    with pytest.raises(PermissionDenied):
        turn_cancel(job=job, membership=room.membership(room.player))
    cancelled = turn_cancel(job=job, membership=room.membership(room.gm))
    assert (cancelled.status, cancelled.cancel_requested) == ("cancelled", True)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    job.refresh_from_db()
    assert job.charged == 0  # as any other release says it
    assert turn_run(job_id=job.pk, heartbeat=False) == "skipped"
    # The action does not stand unanswered: whoever saw it sees it was cancelled.
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (marker.audience, marker.body, marker.data) == (
        job.trigger_audience,
        f"{room.gm.label} cancelled “roll 1d20” before it ran.",
        {
            "job_id": str(job.pk),
            "status": "cancelled",
            "cancelled_by": str(room.gm.pk),
            "cancelled_by_body": "You cancelled “roll 1d20” before it ran.",
        },
    )


def test_cancelling_a_requeued_job_drops_the_requeue_s_retry_hint(
    dnd_room, django_capture_on_commit_callbacks
):
    from apps.turns.services import job_view

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    # As a worker fault left it: queued for a retry that says it will happen by itself.
    RoomTurnJob.objects.filter(pk=job.pk).update(
        attempt=1, error_code="transient_fault", error_message="connection reset",
        retryable=True, recovery="The turn will be retried automatically.",
    )  # fmt: skip
    job.refresh_from_db()
    cancelled = turn_cancel(job=job, membership=room.membership(room.player))
    assert cancelled.status == "cancelled"
    cancelled.refresh_from_db()
    assert job_view(cancelled)["error"] == {
        "code": "cancelled",
        "message": "Cancelled before it ran.",
        "retryable": False,
        "recovery": "Send the action again if you still want it.",
    }


def test_cancel_while_running_stops_before_the_next_call(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)

    class CancellingAgent:
        name = "test"

        def run_turn(self, turn, call_tool):
            turn_cancel(job=RoomTurnJob.objects.get(pk=turn.job_id),
                        membership=room.membership(room.gm))  # fmt: skip
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("unreachable"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: CancellingAgent())
    assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert (job.status, job.error_code) == ("cancelled", "cancelled")
    assert Operation.objects.filter(job=job).count() == 0
    assert room.domain_revision() == before
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    (marker,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (marker.audience, marker.body) == ("public", f"{room.gm.label} cancelled “roll 1d20”.")


def test_receipt_that_does_not_advance_invalidates_nothing(dnd_room):
    room = dnd_room
    campaign = room.campaign
    stale = {
        "authority_revision": campaign.authority_revision,
        "changed_scopes": ["dice"],
        "entity_ids": [],
        "audience": "public",
    }
    refresh = projection_reads(campaign=campaign, receipts=[stale], requester=room.gm)
    assert refresh.advances is False and refresh.reads == []
    projection_apply(campaign=campaign, refresh=refresh)
    assert OutboxEvent.objects.filter(event_type="state.changed").count() == 0


def _receipt(revision: int, previous: int, scopes=("dice",)) -> dict:
    return {
        "authority_revision": revision,
        "previous_revision": previous,
        "changed_scopes": list(scopes),
        "entity_ids": [],
        "audience": "public",
    }


def test_rows_no_receipt_touched_follow_an_unbroken_chain(dnd_room):
    from apps.turns.models import ProjectionSnapshot

    room = dnd_room
    campaign = room.campaign
    start = campaign.authority_revision
    player = f"user:{room.player.pk}"
    for scope, audience, revision in [
        ("party", "gm", start), ("combat", player, start), ("grid", "gm", start - 1),
    ]:  # fmt: skip
        ProjectionSnapshot.objects.create(
            campaign=campaign, scope=scope, audience=audience, authority_revision=revision
        )

    def revisions() -> dict[tuple[str, str], int]:
        rows = ProjectionSnapshot.objects.filter(campaign=campaign)
        return {(row.scope, row.audience): row.authority_revision for row in rows}

    # A gap (start + 2 is not among the receipts): nothing is known of the rows.
    gap = [_receipt(start + 1, start), _receipt(start + 3, start + 2)]
    refresh = projection_reads(campaign=campaign, receipts=gap, requester=room.gm)
    assert refresh.chain_start is None
    projection_apply(campaign=campaign, refresh=refresh)
    assert revisions() == {
        ("party", "gm"): start, ("combat", player): start, ("grid", "gm"): start - 1,
    }  # fmt: skip

    # An unbroken chain of rolls: rows current at its start are current at its end; a row that
    # was already behind stays behind.
    chain = [_receipt(start + 2, start + 1), _receipt(start + 1, start)]
    refresh = projection_reads(campaign=campaign, receipts=chain, requester=room.gm)
    assert (refresh.chain_start, refresh.unchanged, refresh.reads) == (
        start, ["card", "party", "combat", "grid"], [],
    )  # fmt: skip
    projection_apply(campaign=campaign, refresh=refresh)
    assert revisions() == {
        ("party", "gm"): start + 2, ("combat", player): start + 2, ("grid", "gm"): start - 1,
    }  # fmt: skip


def test_a_public_announcement_names_only_public_entities(dnd_room):
    room = dnd_room
    start = room.campaign.authority_revision

    def receipt(revision, audience, entity):
        return {**_receipt(revision, revision - 1), "audience": audience, "entity_ids": [entity]}

    hidden = receipt(start + 1, "gm", "mon-1")
    private = receipt(start + 2, "player:user:someone", "fact-1")
    public = receipt(start + 3, "public", "pc-1")
    refresh = projection_reads(
        campaign=room.campaign, receipts=[hidden, private, public], requester=room.gm
    )
    assert (refresh.audience, refresh.entity_ids) == ("public", ["pc-1"])
    refresh = projection_reads(campaign=room.campaign, receipts=[hidden], requester=room.gm)
    assert (refresh.audience, refresh.entity_ids) == ("gm", ["mon-1"])


def test_panel_read_after_a_roll_asks_the_domain_nothing(
    dnd_room, eager, request, django_capture_on_commit_callbacks
):
    """A roll changes no panel and no character: after it, the viewers' panel reads (character
    cards included) come from the rows; after a change to the character, the card is re-read."""
    from apps.turns.panels import panel_for_viewer

    room = dnd_room
    binding = _fighter(room, room.player, "Ilsa")
    viewers = [room.membership(room.gm), room.membership(room.player)]
    before = [panel_for_viewer(membership=m) for m in viewers]  # reads and stores every row
    assert before[1]["character"]["id"] == binding.character_id
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = submit(room, room.player)
    job.refresh_from_db()
    assert job.status == RoomTurnJob.Status.SUCCEEDED
    reads = request.getfixturevalue("panel_reads")
    after = [panel_for_viewer(membership=m) for m in viewers]
    assert reads == []
    revision = before[0]["authority_revision"] + 1
    for old, new in zip(before, after, strict=True):
        assert new["authority_revision"] == revision
        assert {key: panel["revision"] for key, panel in new["panels"].items()} == {
            "party": revision, "combat": revision, "grid": revision,
        }  # fmt: skip
        assert new["panels"] == {
            key: {**panel, "revision": revision} for key, panel in old["panels"].items()
        }
        assert new["character"] == old["character"]

    # A write the rows know nothing about (its receipt applied, no panel refresh): the card
    # and the panels are read again, as each viewer.
    from apps.campaigns.services.authority import authority_write

    room.campaign.refresh_from_db()
    authority_write(
        campaign=room.campaign, tool="phase_set", requester=room.gm, key="play",
        arguments={"phase": "play"},
    )  # fmt: skip
    room.campaign.refresh_from_db()
    authority_write(
        campaign=room.campaign, tool="damage_apply", requester=room.gm, key="hurt-1",
        arguments={"target_id": binding.character_id, "amount": 1},
    )  # fmt: skip
    reads.clear()
    hurt = panel_for_viewer(membership=viewers[1])
    assert sorted(reads) == ["campaign_get", "character_get", "combat_render", "combat_status"]
    assert hurt["character"]["hp"]["current"] == after[1]["character"]["hp"]["current"] - 1


def test_quota_liveness_follows_the_job(dnd_room, settings, django_capture_on_commit_callbacks):
    from apps.quota.services import quota_reap_expired

    settings.SAGASMITH_QUOTA_OWNER_LIVENESS = {
        "room_turn": "apps.turns.selectors.room_turn_job_is_live"
    }
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    Reservation.objects.filter(pk=job.reservation_id).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert room_turn_job_is_live(str(job.pk)) is True
    quota_reap_expired()
    assert Reservation.objects.get(pk=job.reservation_id).status == "active"


def test_job_and_state_events_carry_the_access_version_they_were_written_under(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """Every writer of a `turn.job` or `state.changed` row (the submit's, the claim's and the
    ORM's; the first two are one statement on PostgreSQL) stores the campaign's access version
    in it, and hands the publisher the row as stored."""
    from apps.campaigns.models import Campaign
    from apps.projections import services as outbox_services
    from apps.turns.projections import state_changed_emit

    handed = []
    monkeypatch.setattr(outbox_services, "outbox_publish_on_commit", handed.append)
    room = dnd_room
    Campaign.objects.filter(pk=room.campaign.pk).update(access_version=7)
    with django_capture_on_commit_callbacks(execute=False):
        job, _created = submit(room, room.player)
    claimed, _busy = turn_claim(job_id=job.pk, worker="w1")
    turn_cancel(job=claimed, membership=room.membership(room.player))
    state_changed_emit(campaign_id=room.campaign.pk, revision=9, scopes=["combat"])
    stored = list(OutboxEvent.objects.exclude(event_type="room.entry").order_by("id"))
    assert [(e.event_type, e.payload["access_version"]) for e in stored] == [
        ("turn.job", 7), ("turn.job", 7), ("turn.job", 7), ("state.changed", 7),
    ]  # fmt: skip
    assert [(e.pk, e.payload) for e in handed if e.event_type != "room.entry"] == [
        (e.pk, e.payload) for e in stored
    ]


def test_hot_path_exact_query_counts(
    dnd_room, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """House style: exact statement counts on the hot path, for a one-dice_roll turn after a
    first one (the quota account and the projection rows exist). PostgreSQL reserves and settles
    quota in one statement each; SQLite takes the ORM path."""
    from django.db import connection

    room = dnd_room
    membership = room.membership(room.player)
    postgres = connection.vendor == "postgresql"
    submit_queries, run_queries = (
        (SUBMIT_QUERIES_PG, RUN_QUERIES_PG)
        if postgres
        else (SUBMIT_QUERIES_SQLITE, RUN_QUERIES_SQLITE)
    )
    with django_capture_on_commit_callbacks(execute=False):
        first, _created = turn_action_submit(
            membership=membership, text="roll 1d20", idempotency_key="count-0"
        )
    assert turn_run(job_id=first.pk, heartbeat=False) == "succeeded"
    with django_capture_on_commit_callbacks(execute=False):
        with django_assert_num_queries(submit_queries):
            job, created = turn_action_submit(
                membership=membership, text="roll 1d20", idempotency_key="count-1"
            )
    assert created is True
    with django_assert_num_queries(run_queries):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert job.status == RoomTurnJob.Status.SUCCEEDED and job.charged == 2


# Submit (its transaction is a savepoint in the test's): room counter, message and its outbox row
# (one statement on PostgreSQL, three elsewhere), the reservation (PostgreSQL: one statement;
# SQLite: select, savepoint, insert, update, release), the job, its key's hold among the room's
# chat keys and its turn.job outbox row (one statement on PostgreSQL). A repeated key is found by
# the unique constraints, not by a lookup first, and rolls the whole submit back without a
# savepoint of its own.
SUBMIT_QUERIES_PG = 5
SUBMIT_QUERIES_SQLITE = 14
# Run: claim (job with requester, campaign lock with role and bound character, running count,
# claim UPDATE with the facade, outbox row), cancel check, dispatched journal row, cancel check,
# returned journal row, agent output; publish (campaign, job lock, receipt with the phase,
# narration with the room counter and its outbox row, the untouched panels' rows moved to the
# new revision, state.changed, settlement, job end state with its outbox row).
# Both read the claim's job, requester and campaign (with role and character) in one statement.
# PostgreSQL writes the narration, counter and outbox row in one statement, settles in one,
# writes the end state with its outbox row in one, and claims with one more (the UPDATE guarded
# by the running count, with its outbox row). SQLite takes the ORM paths (running count, UPDATE
# and outbox row; three statements per entry; savepoint, reservation and account lock, grants,
# grant update, account, ledger entry, allocation, reservation, release).
# With heartbeat=False the two cancel checks are queries; a worker's heartbeat answers them.
RUN_QUERIES_PG = 19
RUN_QUERIES_SQLITE = 32


def test_a_heartbeat_renews_the_lease_and_the_quota_reservation(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
        claimed, busy = turn_claim(job_id=job.pk, worker="w1")
    assert busy is False
    # Both past due, as after a long model call: only the beat keeps the reaper away.
    past = timezone.now() - timedelta(seconds=1)
    RoomTurnJob.objects.filter(pk=job.pk).update(lease_expires_at=past)
    Reservation.objects.filter(pk=job.reservation_id).update(expires_at=past)
    started = timezone.now()
    assert turn_heartbeat(job=claimed, worker="w1") is False
    job.refresh_from_db()
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (job.status, job.worker, reservation.status) == ("running", "w1", "active")
    assert job.lease_expires_at > timezone.now() and reservation.expires_at > timezone.now()
    assert job.heartbeat_at >= started and reservation.heartbeat_at >= started
    assert job.lease_expires_at == job.heartbeat_at + timedelta(seconds=conf.lease_seconds())
    assert reservation.ttl_seconds == conf.reservation_ttl()
    assert reservation.expires_at == reservation.heartbeat_at + timedelta(
        seconds=conf.reservation_ttl()
    )


def test_a_turn_after_a_redeploy_added_its_tool_lists_the_catalog_again_once(
    dnd_room, eager, catalog_listings, django_capture_on_commit_callbacks
):
    room = dnd_room
    catalog_listings.stale = {"dice_roll"}  # listed before the server offered it
    with django_capture_on_commit_callbacks(execute=True):
        job, _ = submit(room, room.player)
    job.refresh_from_db()
    assert (job.status, job.error_code) == ("succeeded", "")
    assert [(op.tool, op.state) for op in job.operations.all()] == [("dice_roll", "returned")]
    assert catalog_listings.calls == ["dnd5e", "dnd5e"]


def test_heartbeat_that_cannot_renew_gives_the_job_up(settings, monkeypatch):
    """Failing beats reconnect each time, and once a whole lease passes unrenewed the run
    counts its lease as lost (the sweep may already have given the job to another worker)."""
    import time
    from types import SimpleNamespace

    from django.db import OperationalError

    from apps.turns.services import run

    settings.SAGASMITH_TURN_LEASE_SECONDS = 1
    beats, closes = [], []
    monkeypatch.setattr(
        run, "turn_heartbeat", lambda **kw: beats.append(1) or (_ for _ in ()).throw(
            OperationalError("server closed the connection unexpectedly")
        ),
    )  # fmt: skip
    monkeypatch.setattr(run, "connection", SimpleNamespace(close=lambda: closes.append(1)))
    heartbeat = run.Heartbeat(SimpleNamespace(pk="job", cancel_requested=False), "worker-1")
    heartbeat.start()
    deadline = time.monotonic() + 5
    while not heartbeat.lost and time.monotonic() < deadline:
        time.sleep(0.05)
    heartbeat.stop()
    assert heartbeat.lost is True
    assert len(beats) == len(closes) == 3  # at 1/3, 2/3 and 3/3 of the lease


def test_publication_that_keeps_failing_ends_only_turns_that_wrote_nothing(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    """A turn with no write ends failed (quota released) once its publication tries are spent;
    a turn whose write the domain committed keeps waiting, with the wait between tries capped."""

    class Chatty:
        def run_turn(self, context, call):
            return AgentOutput(messages=(AgentMessage("Nothing happens."),))

    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 3
    settings.SAGASMITH_TURN_RETRY_MAX_SECONDS = 3.0
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:100")
    room = dnd_room

    def run_until_settled(job) -> list[tuple[str, int]]:
        seen = []
        for _ in range(5):
            RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
            with django_capture_on_commit_callbacks(execute=True):
                turn_run(job_id=job.pk, heartbeat=False)
            job.refresh_from_db()
            seen.append((job.status, job.attempt))
        return seen

    with monkeypatch.context() as patch:
        patch.setattr("apps.turns.services.run.agent_provider", lambda: Chatty())
        with django_capture_on_commit_callbacks(execute=False):
            quiet, _ = submit(room, room.player, key="quiet")
        assert run_until_settled(quiet)[:3] == [("waiting", 1), ("waiting", 2), ("failed", 3)]
    assert (quiet.error_code, quiet.retryable, quiet.charged) == ("publication_failed", False, 0)
    assert Reservation.objects.get(pk=quiet.reservation_id).status == "released"

    with django_capture_on_commit_callbacks(execute=False):
        roll, _ = submit(room, room.player, key="roll")
    assert run_until_settled(roll) == [("waiting", n) for n in range(1, 6)]
    wait = (roll.available_at - roll.updated_at).total_seconds()
    assert wait == 3.0  # 2 s x attempt 5, capped
    assert Reservation.objects.get(pk=roll.reservation_id).status == "active"


def _to_play(room) -> None:
    """The GM sets the play phase on the domain and the campaign's projection follows."""
    from apps.campaigns.services.authority import authority_write, campaign_refresh

    room.campaign.refresh_from_db()
    authority_write(
        campaign=room.campaign, tool="phase_set", requester=room.gm, key="play",
        arguments={"phase": "play"},
    )  # fmt: skip
    campaign_refresh(campaign=room.campaign, requester=room.gm)


def _fighter(room, user, name):
    """A level 1 fighter made with the character form, bound to `user`."""
    from apps.campaigns.services.characters import character_create_for

    return character_create_for(
        campaign=room.campaign, user=user,
        form_data={"name": name, "template": "fighter", "level": 1},
    )  # fmt: skip


def test_a_character_the_gm_gives_a_player_is_theirs_to_act_as(
    dnd_room, django_capture_on_commit_callbacks
):
    from apps.campaigns.services.characters import binding_set

    room = dnd_room
    pregen = _fighter(room, room.gm, "Brann")
    binding_set(
        campaign=room.campaign, actor=room.gm, user=room.player, character_id=pregen.character_id
    )
    _to_play(room)
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, text="check athletics dc 10")
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    operation = job.operations.get()
    assert (operation.tool, operation.state) == ("ability_check", "returned")
    assert operation.arguments["character_id"] == pregen.character_id
    assert operation.result["structuredContent"]["character_id"] == pregen.character_id


def test_a_player_with_two_characters_acts_as_the_one_they_choose(
    dnd_room, django_capture_on_commit_callbacks
):
    from apps.core.errors import ValidationFailed

    room = dnd_room
    first = _fighter(room, room.player, "Thorin")
    second = _fighter(room, room.player, "Pip")
    gms = _fighter(room, room.gm, "Brann")
    _to_play(room)
    acted_as = []
    for key, chosen in (("as-default", ""), ("as-pip", second.character_id)):
        with django_capture_on_commit_callbacks(execute=False):
            job, _ = submit(room, room.player, text="check athletics dc 10", key=key,
                            character_id=chosen)  # fmt: skip
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
        result = job.operations.get().result["structuredContent"]
        acted_as.append(result["character_id"])
    assert acted_as == [first.character_id, second.character_id]
    # Only a character they control: the GM's is refused before anything is written.
    jobs = RoomTurnJob.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        submit(room, room.player, key="as-brann", character_id=gms.character_id)
    assert (refused.value.code, refused.value.message) == (
        "invalid_character", "You do not control that character."
    )  # fmt: skip
    assert RoomTurnJob.objects.count() == jobs


def test_a_player_whose_character_was_unbound_cannot_act_as_it(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """Unbinding takes the character's control back on the domain, and the delegation names no
    character for them: a model that acts as it anyway is refused by the domain."""
    from apps.campaigns.services.characters import binding_remove

    room = dnd_room
    binding = _fighter(room, room.player, "Ilsa")
    binding_remove(
        campaign=room.campaign, actor=room.gm, user=room.player, character_id=binding.character_id
    )
    _to_play(room)

    class ActsAsTheOldCharacter:
        def run_turn(self, context, call):
            assert context.character_id is None
            call("ability_check", {"character_id": binding.character_id, "skill": "athletics",
                                   "dc": 10})  # fmt: skip
            return AgentOutput(messages=(AgentMessage("Ilsa heaves."),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: ActsAsTheOldCharacter())
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, text="check athletics dc 10")
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    assert [(op.tool, op.state, op.error["code"]) for op in job.operations.all()] == [
        ("ability_check", "refused", "authorization_denied")
    ]
    assert room.domain_revision() == before


def test_a_character_a_players_turn_created_is_theirs_to_act_as(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    from apps.campaigns.models import ActorBinding

    room = dnd_room
    made = {}

    class Creates:
        def run_turn(self, context, call):
            outcome = call("character_create", {"name": "Rook", "template": "rogue", "level": 1})
            made["id"] = outcome.structured["character"]["id"]
            return AgentOutput(messages=(AgentMessage("Rook steps in."),))

    class Checks:
        def run_turn(self, context, call):
            assert context.character_id == made["id"]
            call("ability_check", {"character_id": made["id"], "skill": "stealth", "dc": 10})
            return AgentOutput(messages=(AgentMessage("Rook sneaks."),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Creates())
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player, text="create a rogue named Rook", key="create")
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    binding = ActorBinding.objects.get(campaign=room.campaign, user=room.player)
    assert (binding.character_id, binding.character_name, binding.can_control) == (
        made["id"], "Rook", True,
    )  # fmt: skip
    _to_play(room)
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Checks())
    with django_capture_on_commit_callbacks(execute=False):
        check, _ = submit(room, room.player, text="sneak", key="sneak")
    assert turn_run(job_id=check.pk, heartbeat=False) == "succeeded"
    assert [(op.tool, op.state) for op in check.operations.all()] == [("ability_check", "returned")]


def test_a_gms_secret_fact_is_posted_gm_only(
    live_domains, gm, player, django_capture_on_commit_callbacks
):
    """ "record fact … gm only" is itself the secret: the GM's action is posted GM-only even when
    the composer said everyone. Other actions keep the audience chosen."""
    import uuid

    from apps.campaigns.models import CampaignMembership
    from apps.campaigns.services.campaigns import campaign_create
    from apps.rooms.services import room_get_or_create
    from tests.campaigns.conftest import join

    campaign = campaign_create(
        owner=gm, name="Fog", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )
    join(campaign, gm, player)
    room_get_or_create(campaign=campaign)
    members = CampaignMembership.objects.select_related("campaign", "user")
    cases = [
        (gm, "record fact The ferryman is a ghost gm only", "gm"),
        (gm, "record fact The bell is cracked", "public"),
        (player, "record fact I am the heir gm only", "public"),  # players record no facts
    ]
    for n, (user, text, expected) in enumerate(cases):
        with django_capture_on_commit_callbacks(execute=False):
            job, _ = turn_action_submit(
                membership=members.get(campaign=campaign, user=user), text=text,
                idempotency_key=f"fact-{n}",
            )  # fmt: skip
        trigger = Message.objects.get(pk=job.trigger_message_id)
        assert (job.trigger_audience, trigger.audience, trigger.body) == (expected, expected, text)


def test_an_action_of_only_invisible_characters_is_refused(dnd_room):
    from apps.core.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as refused:
        submit(dnd_room, dnd_room.player, text="\u200b\u2060")
    assert refused.value.code == "invalid_body"
    assert Message.objects.count() == 0
