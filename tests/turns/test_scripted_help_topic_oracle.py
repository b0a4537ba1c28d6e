""" "help oracle" shows both ways the oracle is asked: the command, and a yes-or-no question
with its odds in brackets; each form it shows is understood as the oracle's."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s

ORACLE_HELP = (
    "The oracle:\n"
    '- ask the oracle "<question>" [impossible|very unlikely|unlikely|even|likely|'
    "very likely|certain]; even unless you say\n"
    "- or a yes-or-no question with its odds in brackets, e.g. is the door locked? (likely)\n"
    '- e.g. ask the oracle "Is the door locked?" likely; it answers yes or no, '
    'with "and" or "but" when something more happens'
)


@pytest.mark.parametrize("gm", [True, False])
def test_oracle_help_shows_the_bracketed_odds_form(gm):
    assert s.help_topic_text("narrative", "help oracle", gm=gm) == ORACLE_HELP


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("is the door locked? (likely)", {"unquoted": "is the door locked? (likely)"}),
        (
            'ask the oracle "Is the door locked?" likely',
            {"question": "Is the door locked?", "likelihood": "likely"},
        ),
    ],
)
def test_each_oracle_form_the_help_shows_asks_the_oracle(text, groups):
    intent, match = s._parse("narrative", text)
    assert intent is not None
    assert intent.handler is s.nar_oracle
    assert {k: match.groupdict().get(k) for k in groups} == groups
