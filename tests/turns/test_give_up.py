"""A turn that wrote nothing and whose publication kept failing: it ends, and the room says so."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from apps.projections.models import OutboxEvent
from apps.quota.models import QuotaAccount, Reservation
from apps.rooms.models import Message
from apps.turns.errors import TurnCancelled
from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_action_submit, turn_cancel, turn_run
from apps.turns.services.jobs import job_view
from apps.turns.types import AgentMessage, AgentOutput

pytestmark = pytest.mark.django_db


class Chatty:
    """Narrates and calls no tool: the domain cannot have acted."""

    def run_turn(self, context, call):
        return AgentOutput(messages=(AgentMessage("Nothing happens."),))


@pytest.fixture
def failing_publication(settings, monkeypatch, turns_stay_queued):
    """Every publication fails, and the first failure is the last try."""
    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 1
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:100")


def submit(room, user, key="give-up"):
    job, _created = turn_action_submit(
        membership=room.membership(user), text="look around", idempotency_key=key
    )
    return job


def account(user) -> tuple[int, int]:
    return tuple(QuotaAccount.objects.filter(user=user).values_list("balance", "reserved").get())


def outcomes(job) -> list[Message]:
    return list(
        Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk)).order_by(
            "sequence"
        )
    )


def last_job_event(job) -> dict:
    event = (
        OutboxEvent.objects.filter(event_type="turn.job", payload__id=str(job.pk))
        .order_by("-id")
        .first()
    )
    return event.payload


def test_a_turn_given_up_tells_its_player_why_and_releases_its_credits_once(
    dnd_room, failing_publication, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Chatty())
    with django_capture_on_commit_callbacks(execute=False):
        job = submit(room, room.player)
    balance, reserved = account(room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    error = {
        "code": "publication_failed",
        "message": "Injected publication fault.",
        "retryable": False,
        "recovery": "Act again.",
    }
    assert (job.status, job.charged, job_view(job)["error"]) == ("failed", 0, error)
    (outcome,) = outcomes(job)
    recipients = [link.user_id for link in outcome.recipient_links.all()]
    assert (outcome.audience, recipients, outcome.body, outcome.data) == (
        "private",
        [room.player.pk],
        "Injected publication fault.",
        {
            "job_id": str(job.pk),
            "trigger_message_id": str(job.trigger_message_id),
            "status": "failed",
            "error": error,
        },
    )
    assert not Message.objects.filter(event_type="turn.narration").exists()
    assert last_job_event(job) == {**job_view(job), "access_version": 0}
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (reservation.status, reservation.close_reason) == ("released", "failed")
    # Its credits back, once.
    assert account(room.player) == (balance + reservation.amount, reserved - reservation.amount)


def test_a_turn_given_up_after_an_unexpected_fault_says_it_will_not_be_published(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The fault's own text is for the log; the player is not told the outcome is coming."""
    settings.SAGASMITH_TURN_PUBLISH_ATTEMPTS = 1
    room = dnd_room
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Chatty())

    def broken(**kwargs):
        raise RuntimeError("connection pool exhausted")

    monkeypatch.setattr("apps.turns.services.publish.projection_reads", broken)
    with django_capture_on_commit_callbacks(execute=False):
        job = submit(room, room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    said = "The turn's outcome could not be published."
    assert (job.error_code, job.error_message) == ("publication_failed", said)
    (outcome,) = outcomes(job)
    assert (outcome.body, outcome.data["error"]["message"]) == (said, said)


def test_a_turn_given_up_after_its_player_left_is_dropped_for_the_others(
    dnd_room, failing_publication, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    membership = room.membership(room.player)

    class Leaving:
        def run_turn(self, context, call):
            CampaignMembership.objects.filter(pk=membership.pk).update(
                status=CampaignMembership.Status.LEFT
            )
            return AgentOutput(messages=(AgentMessage("Nothing happens."),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Leaving())
    with django_capture_on_commit_callbacks(execute=False):
        job = submit(room, room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    (outcome,) = outcomes(job)
    assert (outcome.audience, outcome.body, outcome.data) == (
        "public",
        "“look around” was dropped: its player is no longer in the campaign.",
        {"job_id": str(job.pk), "status": "failed"},
    )
    assert not outcome.recipient_links.exists()
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_a_cancelled_turn_given_up_ends_cancelled(
    dnd_room, failing_publication, monkeypatch, django_capture_on_commit_callbacks
):
    """The player cancels while the agent runs; it stops (its ending is stored cancelled), and
    publishing that ending keeps failing: the turn ends cancelled, as the player asked."""
    room = dnd_room

    class Cancelled:
        def run_turn(self, context, call):
            job = RoomTurnJob.objects.get(pk=context.job_id)
            turn_cancel(job=job, membership=room.membership(room.player))
            raise TurnCancelled("The turn was cancelled.")

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Cancelled())
    with django_capture_on_commit_callbacks(execute=False):
        job = submit(room, room.player)
    balance, reserved = account(room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert (job.status, job.charged, job.cancel_requested, job_view(job)["error"]) == (
        "cancelled",
        0,
        True,
        {
            "code": "cancelled",
            "message": "The turn was cancelled.",
            "retryable": False,
            "recovery": "Send the action again if you still want it.",
        },
    )
    (outcome,) = outcomes(job)
    assert (outcome.audience, outcome.body, outcome.data) == (
        "public",
        f"{room.player.label} cancelled “look around”.",
        {
            "job_id": str(job.pk),
            "status": "cancelled",
            "cancelled_by": str(room.player.pk),
            "cancelled_by_body": "You cancelled “look around”.",
        },
    )
    assert last_job_event(job) == {**job_view(job), "access_version": 0}
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (reservation.status, reservation.close_reason) == ("released", "cancelled")
    # Its credits back, once.
    assert account(room.player) == (balance + reservation.amount, reserved - reservation.amount)


def test_giving_up_writes_the_room_entry_and_the_ending_together(
    dnd_room, failing_publication, monkeypatch, django_capture_on_commit_callbacks
):
    """Should the job's last write fail, nothing of the ending is kept: the job is still
    running (for the sweep to take up), with no outcome in the room and its credits reserved."""
    room = dnd_room
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Chatty())
    with django_capture_on_commit_callbacks(execute=False):
        job = submit(room, room.player)
    events = OutboxEvent.objects.count()

    def broken(job, changes, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("apps.turns.services.publish.job_update_announced", broken)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        turn_run(job_id=job.pk, heartbeat=False)
    job.refresh_from_db()
    assert (job.status, job.finished_at) == ("running", None)
    assert outcomes(job) == []
    assert OutboxEvent.objects.count() == events + 1  # the claim's `turn.job`
    assert Reservation.objects.get(pk=job.reservation_id).status == "active"
