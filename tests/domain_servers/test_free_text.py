"""Free text a client sends (names, titles, labels, notes): what the servers store and show."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, Game


def _refused(error: dict) -> tuple[str, str]:
    return error["code"], error["message"]


def test_a_name_holding_a_lone_surrogate_is_an_invalid_request_not_a_fault(dnd: Game) -> None:
    """A lone surrogate cannot be written as UTF-8: hashing or storing it failed, so the
    caller read a retryable `internal` fault that no retry could ever get past."""
    revision = dnd.read("campaign_get")["authority_revision"]

    error = dnd.fail("character_create", {"name": "Wolf\ud800"}, GM)

    assert error == {
        "code": "invalid_request",
        "message": "arguments.name holds a lone surrogate (U+D800), which is not text",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert dnd.read("campaign_get")["authority_revision"] == revision


def test_a_lone_surrogate_anywhere_in_the_arguments_is_refused_by_its_path(
    narrative: Game,
) -> None:
    narrative.write("phase_set", {"phase": "play"})

    error = narrative.fail("character_create", {"name": "Ash", "tags": ["brave", "\udfff"]})

    assert _refused(error) == (
        "invalid_request",
        "arguments.tags[1] holds a lone surrogate (U+DFFF), which is not text",
    )
