"""A creature that falls asleep, passes out or faints is unconscious, as one knocked out is
(and "<name> wakes up" is already its way back); a subject that is no creature here is
answered with those present."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_unconscious import _gm_says

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text", ["Ilsa falls asleep", "Ilsa passes out.", "Ilsa faints!", "Ilsa is asleep"]
)
def test_the_gm_puts_a_creature_to_sleep_in_words(text):
    calls = _gm_says(text, ["prone", "unconscious"]).calls
    assert [c for c in calls if c[0] == "condition_add"] == [
        ("condition_add", {"target_id": "pc-1", "condition": "unconscious"})
    ]


def test_a_creature_no_longer_asleep_is_woken():
    calls = _gm_says("Ilsa is no longer asleep", ["prone"]).calls
    assert [c for c in calls if c[0] == "condition_remove"] == [
        ("condition_remove", {"target_id": "pc-1", "condition": "unconscious"})
    ]


def test_a_subject_that_is_no_creature_here_is_not_put_to_sleep():
    recorder = _gm_says("the whole town falls asleep", ["unconscious"])
    assert [c[0] for c in recorder.calls] == ["combat_status"]
