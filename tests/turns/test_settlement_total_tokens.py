"""A model turn is charged the tokens its endpoint reports: the prompt's and the completion's,
which is what providers bill, or the total alone where an endpoint reports no parts."""

from __future__ import annotations

import pytest

from apps.quota.models import LedgerEntry
from tests.turns.fake_llm import FakeLLM, completion, tool_call
from tests.turns.test_jobs import submit
from tests.turns.test_settlement import FINAL, _run_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def model(settings, monkeypatch):
    """The openai provider against a fake chat-completions endpoint: set `.script`."""
    llm = FakeLLM()
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    yield llm
    llm.close()


ROLL = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])


def _charged(job) -> tuple[int, int]:
    entry = LedgerEntry.objects.get(reservation_id=job.reservation_id)
    return job.charged, entry.amount


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"total_tokens": 1200}, {"total_tokens": 1200}),
        # The parts of one answer and the total of the other: each answer's own is charged.
        ({"prompt_tokens": 1000, "completion_tokens": 200}, {"total_tokens": 1200}),
    ],
    ids=["total-only", "parts-then-total"],
)
def test_an_endpoint_reporting_only_a_total_is_charged_that_total(
    first, second, dnd_room, settings, model, turns_stay_queued,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    settings.SAGASMITH_TURN_RESERVE_CREDITS = 20  # more than the charge: min() keeps it whole
    model.script = [
        (200, {**ROLL, "usage": first}),
        (200, {**completion(content=FINAL), "usage": second}),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["succeeded"]
    # The turn, its roll and three started thousands of tokens (2400).
    assert (job.status, _charged(job)) == ("succeeded", (5, 5))


def test_a_total_that_disagrees_with_the_parts_is_not_charged(
    dnd_room, settings, model, turns_stay_queued, django_capture_on_commit_callbacks
):
    settings.SAGASMITH_TURN_RESERVE_CREDITS = 20
    usage = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 9000}
    model.script = [
        (200, {**ROLL, "usage": usage}),
        (200, {**completion(content=FINAL), "usage": usage}),
    ]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    assert _run_due(job, django_capture_on_commit_callbacks) == ["succeeded"]
    # The parts' 2400 tokens, three started thousands, not the totals' 18.
    assert (job.status, _charged(job)) == ("succeeded", (5, 5))
