"""The idempotency key a host sends with a write: a bounded, printable ASCII token."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import Game

RULE = "an idempotency key is printable ASCII, without a space at either end"


def _write(game: Game, key: str):
    return game.call(
        "dice_roll",
        {"expression": "1d20", "expected_revision": game.revision, "idempotency_key": key},
    )


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("turn-1:\x00", f"holds U+0000; {RULE}"),
        ("turn-1:\x1b[2J", f"holds U+001B; {RULE}"),
        ("turn-1:2\n", f"holds U+000A; {RULE}"),
        ("turn-1:\u202e2", f"holds U+202E; {RULE}"),
        ("caf\u00e9-1", f"holds U+00E9; {RULE}"),
        (" turn-1:2", f"has a space at an end; {RULE}"),
        ("turn-1:2 ", f"has a space at an end; {RULE}"),
        (" ", f"has a space at an end; {RULE}"),
    ],
)
def test_an_idempotency_key_that_is_not_printable_ascii_is_refused_naming_it(
    dnd: Game, key: str, reason: str
) -> None:
    """Any text went, among it a NUL PostgreSQL cannot store and a terminal escape for the
    event log every operator reads."""
    result = _write(dnd, key)

    assert result.is_error
    assert result.structured_content["error"] == {
        "code": "invalid_request",
        "message": f"arguments.idempotency_key {reason}",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert dnd.read("campaign_get")["authority_revision"] == dnd.revision


@pytest.mark.parametrize(
    "key",
    [
        # The shapes the web host sends: a turn's `<job key>:<step>`, and `<key>@<revision>`
        # for its own writes, some around a client's Idempotency-Key header (which may hold
        # spaces inside).
        "turn-8123:14",
        "campaign:c-0f3c9a:create",
        "character:42:9f86d081884c7d659a2feaa0c55ad015@12",
        "character:42:my key 1@3",
        "assign:42:pc-3:none:user:7@19",
        "remove:5:42:1733400000.123456@8",
        "role:5:gm:undo@4",
        "k" * 200,
    ],
)
def test_the_idempotency_keys_the_web_host_sends_are_accepted(dnd: Game, key: str) -> None:
    result = _write(dnd, key)

    assert not result.is_error, result.structured_content
    assert result.structured_content["receipt"]["idempotency_key"] == key


def test_an_idempotency_key_past_its_bound_is_refused_naming_it(dnd: Game) -> None:
    result = _write(dnd, "k" * 201)

    assert result.structured_content["error"]["message"] == (
        "arguments.idempotency_key is longer than 200 characters"
    )
