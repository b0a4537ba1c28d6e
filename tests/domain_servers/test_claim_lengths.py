"""Claims the event log stores are refused up front when longer than its columns."""

from __future__ import annotations

import pytest

from domain_servers.dnd5e.server import create as create_dnd5e
from tests.domain_servers.conftest import Game

LIMIT = 160


@pytest.fixture(scope="module")
def pg_game(pg_url):
    game = Game(create_dnd5e, "sagasmith-dnd5e", pg_url, "c" * 64)
    yield game
    game.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def game(request):
    return request.getfixturevalue("dnd" if request.param == "sqlite" else "pg_game")


def _phase_set(game, key: str, **claims):
    return game.call(
        "phase_set",
        {"phase": "play", "expected_revision": game.revision, "idempotency_key": key},
        **claims,
    )


def _refusal(claim: str) -> dict:
    return {
        "error": {
            "code": "authorization_denied",
            "message": f"delegation token {claim} is longer than {LIMIT} characters",
            "retryable": False,
            "recovery": "obtain a new delegation for this tool and campaign",
        }
    }


def test_over_long_act_sub_is_refused(game):
    result = _phase_set(game, "long-act", act="agent:" + "a" * (LIMIT - 5))

    assert result.structured_content == _refusal("act.sub")
    assert game.domain.storage.load("game")[0] == game.revision


def test_over_long_turn_is_refused(game):
    result = _phase_set(game, "long-turn", turn="t" * (LIMIT + 1))

    assert result.structured_content == _refusal("turn")
    assert game.domain.storage.load("game")[0] == game.revision


def test_over_long_sub_is_refused(game):
    result = _phase_set(game, "long-sub", sub="user" * 40 + ":gm")

    assert result.structured_content == _refusal("sub")


def test_act_sub_and_turn_of_the_column_length_are_saved(game):
    result = _phase_set(game, "at-limit", act="agent:" + "a" * (LIMIT - 6), turn="t" * LIMIT)

    assert not result.is_error, result.structured_content
    event = game.domain.storage.events_for("game")[-1]
    assert (len(event["actor"]), len(event["turn"])) == (LIMIT, LIMIT)
