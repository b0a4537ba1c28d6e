"""The scripted agent's narrative intents as a table types them, against a live server."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _asked(run) -> list[tuple[str, str]]:
    return [
        (o.structured["question"], o.structured["likelihood"])
        for o in run.caller.outcomes
        if o.tool == "oracle_ask"
    ]


def test_the_oracle_reads_odds_and_questions_as_a_player_types_them(live_domains, gm, player):
    """ "50/50", "very-likely", "(likely)", single quotes or none at all: each is a question
    the oracle answers, not the help list."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    for text, asked in [
        ('ask the oracle "Is it raining?" 50/50', ("Is it raining?", "even")),
        ('ask the oracle "Is it raining?" very-likely', ("Is it raining?", "very_likely")),
        ('ask the oracle "Is it raining?" (likely)', ("Is it raining?", "likely")),
        ('ask the oracle "Is it raining?", even odds', ("Is it raining?", "even")),
        ("ask the oracle 'Isn't it raining?' unlikely", ("Isn't it raining?", "unlikely")),
        ("ask the oracle is it raining?", ("is it raining?", "even")),
        ("Ask the oracle: is the door locked? likely.", ("is the door locked?", "likely")),
        ("ask the oracle is it raining, very unlikely", ("is it raining", "very_unlikely")),
        ("ask the oracle does the bridge hold (certain)", ("does the bridge hold", "certain")),
        # Words after the question that are no odds are part of it.
        ("ask the oracle is it raining? or snowing", ("is it raining? or snowing", "even")),
        ("ask the oracle is the guard likely to wake", ("is the guard likely to wake", "even")),
    ]:
        run = table.run(player, text, job_id=text)
        assert _asked(run) == [asked], text
        assert [audience for _text, audience in run.texts] == ["trigger"], text


def test_an_empty_oracle_question_is_answered_with_an_example_and_changes_nothing(
    live_domains, gm, player
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    example = "Ask the oracle a yes-or-no question, like: ask the oracle “Is it locked?” likely"
    for text in ('ask the oracle ""', "ask the oracle “  ” likely"):
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == ([(example, "requester")], []), text
    unknown = table.run(player, 'ask the oracle "Is it raining?" maybe', job_id="maybe")
    assert unknown.texts == [
        ("Likelihood “maybe” is not one of impossible, very unlikely, unlikely, even, likely, "
         "very likely, certain.", "requester"),
    ]  # fmt: skip
    assert table.revision() == before
