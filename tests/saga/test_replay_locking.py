"""Replay against live state, crash recovery from events, and row-lock serialization."""

import threading
import time
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import close_old_connections, connection

from apps.saga import services
from apps.saga.models import Saga, SagaEvent
from apps.saga.replay import state_rebuild
from apps.saga.selectors import saga_events
from tests.saga.conftest import finish, postgres_or_skip, simple_plan, started


def replay_matches(saga_id):
    saga = Saga.objects.get(key=saga_id)
    report = services.saga_replay(saga=saga)
    assert report["differences"] == []
    return report


@pytest.mark.django_db
def test_replay_equals_live_state_through_an_auto_run(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    replay_matches(saga_id)
    finish(user, saga_id)  # fix-attempt
    replay_matches(saga_id)
    finish(user, saga_id, "part1.md")
    replay_matches(saga_id)
    finish(user, saga_id, "part2.md")
    report = replay_matches(saga_id)
    assert report["rebuilt"]["termination"]["reason"] == "completed"


@pytest.mark.django_db
def test_replay_equals_live_state_through_a_deep_run_with_every_layer(user):
    saga_id, _ = started(
        user,
        profile="research",
        goal="[clarify] q",
    )
    services.saga_advance(user=user, saga_id=saga_id, human_input="a1")
    services.saga_advance(user=user, saga_id=saga_id, human_input="a2")
    services.saga_advance(user=user, saga_id=saga_id, plan_yaml=simple_plan(2, "deep"))
    replay_matches(saga_id)
    bad = {"passed": False, "issues": ["thin"]}
    for _ in range(3):
        finish(user, saga_id, "part1.md")
        services.saga_advance(user=user, saga_id=saga_id, eval_result=bad)
        replay_matches(saga_id)
    services.saga_advance(user=user, saga_id=saga_id)  # re-queue after microcompact
    finish(user, saga_id, "part1.md")
    services.saga_advance(user=user, saga_id=saga_id, eval_result=bad)  # full rework
    replay_matches(saga_id)
    finish(user, saga_id, "part1.md")
    services.saga_advance(user=user, saga_id=saga_id, eval_result={"passed": True, "score": 3})
    finish(user, saga_id, "part2.md")
    services.saga_advance(
        user=user,
        saga_id=saga_id,
        eval_result={"passed": False, "escalate": True, "issues": ["no"]},
    )
    replay_matches(saga_id)
    services.saga_advance(user=user, saga_id=saga_id, human_input="relax it")
    finish(user, saga_id, "part2.md")
    out = services.saga_advance(user=user, saga_id=saga_id, eval_result={"passed": True})
    assert out["reason"] == "completed"
    report = replay_matches(saga_id)
    assert report["rebuilt"]["cursor"] == 2  # D1: a deep pass advances once
    assert report["rebuilt"]["clarificationHistory"][1] == {
        "question": "Question 2?",
        "answer": "a2",
    }


@pytest.mark.django_db
def test_replay_after_cancel_matches(user):
    saga_id, _ = started(user)
    services.saga_cancel(user=user, saga_id=saga_id)
    assert replay_matches(saga_id)["rebuilt"]["termination"]["reason"] == "aborted_by_user"


@pytest.mark.django_db
def test_rebuild_from_events_resumes_midflight(user):
    saga_id, _ = started(user, goal="resume me", profile="curation", plan=simple_plan(3))
    finish(user, saga_id, "part1.md")
    finish(user, saga_id)
    saga = Saga.objects.get(key=saga_id)
    rebuilt = state_rebuild(saga_events(saga=saga), saga_id=saga_id)
    assert (rebuilt["goal"], rebuilt["profile"], rebuilt["cursor"]) == ("resume me", "curation", 1)
    assert rebuilt["recoveryAttempts"] == {"stage-02": 1}
    # Losing the stored state: put the rebuilt one back and the saga carries on.
    Saga.objects.filter(pk=saga.pk).update(state=rebuilt)
    out = finish(user, saga_id, "part2.md")
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-03")


@pytest.mark.django_db
def test_replay_command_reports_match_and_difference(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    stdout = StringIO()
    call_command("saga_replay", saga_id, stdout=stdout)
    assert stdout.getvalue().splitlines() == [
        f"{saga_id}: 4 events replayed",
        "rebuilt state matches the stored state",
    ]
    saga = Saga.objects.get(key=saga_id)
    saga.state["cursor"] = 1
    saga.save(update_fields=["state"])
    stdout = StringIO()
    with pytest.raises(CommandError, match="1 field\\(s\\) differ"):
        call_command("saga_replay", saga_id, stdout=stdout)
    assert stdout.getvalue().splitlines()[1] == "cursor: stored=1 rebuilt=0"
    with pytest.raises(CommandError, match="was not found"):
        call_command("saga_replay", "saga-0-none")


@pytest.mark.django_db(transaction=True)
def test_row_lock_serializes_concurrent_calls(user, settings):
    postgres_or_skip()
    saga_id, _ = started(user, goal="[clarify] lock", profile="research")
    settings.SAGASMITH_SAGA_CLARIFIER = "tests.saga.test_replay_locking.slow_clarifier"
    timings, errors = {}, []
    barrier = threading.Barrier(2)

    def worker(name):
        close_old_connections()
        try:
            barrier.wait()
            start = time.monotonic()
            services.saga_advance(user=user, saga_id=saga_id, human_input=f"answer {name}")
            timings[name] = (start, time.monotonic())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in "AB"]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert errors == []
    saga = Saga.objects.get(key=saga_id)
    assert sorted(h["answer"] for h in saga.state["clarificationHistory"]) == [
        "answer A",
        "answer B",
    ]
    assert list(
        SagaEvent.objects.filter(saga=saga).values_list("sequence", flat=True).order_by("sequence")
    ) == list(range(1, saga.last_sequence + 1))
    # Whichever call got the lock second waited for the first one's slow clarifier.
    assert min(end - start for start, end in timings.values()) >= 0.25


def slow_clarifier(*, goal, profile, history, round):  # noqa: A002
    time.sleep(0.3)
    return {"skip": False, "questions": [f"Question {round + 1}?"]}
