"""The oracle's reply says the odds it was asked at, what a twist ("and", "but") means and what
its number is (the d100 roll, against the most that answers yes at those odds): a table reading
"YES, AND (4)" could not tell whether it was asked at likely or at even odds, nor what 4 was."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

ANSWERS = {
    "yes": "Yes",
    "no": "No",
    "yes, and": "Yes, and something more happens",
    "yes, but": "Yes, but with a catch",
    "no, and": "No, and it gets worse",
    "no, but": "No, but something comes of it",
}
THRESHOLDS = {"very likely": 85, "even": 50, "unlikely": 30, "impossible": 5}


def _wordings(question: str, odds: str, result: str, roll: int) -> set[str]:
    said = f"{ANSWERS[result]} (rolled {roll} on d100; yes on {THRESHOLDS[odds]} or less)."
    return {
        f"The oracle answers “{question}” at {odds} odds: {said}",
        f"Asked “{question}” at {odds} odds, the oracle answers: {said}",
    }


@pytest.mark.parametrize(
    ("text", "odds"),
    [
        ('ask the oracle "Is the door locked?" very likely', "very likely"),
        ('ask the oracle "Is the door locked?"', "even"),
        ("ask the oracle is the door locked? probably not", "unlikely"),
        ('ask the oracle "Is the door locked?" impossible', "impossible"),
    ],
)
def test_the_oracle_says_the_odds_it_was_asked_at(live_domains, gm, player, text, odds):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for n in range(6):
        run = table.run(player, text, job_id=f"{text} {n}")
        [outcome] = [o.structured for o in run.caller.outcomes if o.tool == "oracle_ask"]
        [(said, audience)] = run.texts
        assert audience == "trigger"
        assert said in _wordings("Is the door locked?", odds, outcome["result"], outcome["roll"])


def test_each_twist_is_said_in_words(live_domains, gm, player):
    """Asked often enough at even odds, the oracle gives each of its answers."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    seen = {}
    for n in range(120):
        run = table.run(player, 'ask the oracle "Is it?"', job_id=f"twist {n}")
        [outcome] = [o.structured for o in run.caller.outcomes if o.tool == "oracle_ask"]
        seen[outcome["result"]] = run.texts[0][0]
        if len(seen) == len(ANSWERS):
            break
    assert set(seen) == set(ANSWERS)
    for result, said in seen.items():
        assert said.split(": ", 1)[1].split(" (rolled ")[0] == ANSWERS[result], result


def test_an_unquoted_question_is_shown_with_a_capital_first_letter(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    run = table.run(player, "is the door locked? (likely)", job_id="door")
    [outcome] = [o.structured for o in run.caller.outcomes if o.tool == "oracle_ask"]
    assert (outcome["question"], outcome["roll"]) == ("is the door locked?", 4)
    assert run.texts == [
        (
            "The oracle answers “Is the door locked?” at likely odds: Yes, and something more "
            "happens (rolled 4 on d100; yes on 70 or less).",
            "trigger",
        )
    ]
