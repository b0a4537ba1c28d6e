"""The oracle's reply says the odds it was asked at, and what a twist ("and", "but") means:
a table reading "YES, AND (4)" could not tell whether it was asked at likely or at even odds."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

TWISTS = {
    "yes": "",
    "no": "",
    "yes, and": " — yes, and something more happens",
    "yes, but": " — yes, but with a catch",
    "no, and": " — no, and it gets worse",
    "no, but": " — no, but something comes of it",
}


def _wordings(question: str, odds: str, result: str, roll: int) -> set[str]:
    said = f"{result.upper()} ({roll}){TWISTS[result]}."
    return {
        f"“{question}” The oracle, asked at {odds} odds: {said}",
        f"The oracle weighs “{question}” at {odds} odds: {said}",
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
        assert said in _wordings(outcome["question"], odds, outcome["result"], outcome["roll"])


def test_each_twist_is_said_in_words(live_domains, gm, player):
    """Asked often enough at even odds, the oracle gives each of its answers."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    seen = {}
    for n in range(120):
        run = table.run(player, 'ask the oracle "Is it?"', job_id=f"twist {n}")
        [outcome] = [o.structured for o in run.caller.outcomes if o.tool == "oracle_ask"]
        seen[outcome["result"]] = run.texts[0][0]
        if len(seen) == len(TWISTS):
            break
    assert set(seen) == set(TWISTS)
    for result, said in seen.items():
        assert said.endswith(f"{TWISTS[result]}."), result
