"""Free text over the real transports: every server publishes and applies the one rule."""

from __future__ import annotations

import re
from typing import Any

import jsonschema

from tests.domain_contract.conftest import Harness, error_of


def _free_text(schema: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    """Every string argument but enums and the idempotency key (an opaque token the host
    chooses, compared byte for byte, never shown as text)."""
    if schema.get("type") == "string":
        return [] if "enum" in schema or path.endswith(".idempotency_key") else [(path, schema)]
    if schema.get("type") == "array":
        return _free_text(schema["items"], f"{path}[]")
    found = []
    for name, prop in schema.get("properties", {}).items():
        found += _free_text(prop, f"{path}.{name}")
    return found


def test_every_string_argument_is_bounded_and_patterned_in_a_valid_schema(
    harness: Harness,
) -> None:
    for tool in harness.client.list_tools().tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        for path, schema in _free_text(tool.input_schema, tool.name):
            assert 1 <= schema["maxLength"] <= 65_536, path
            assert "pattern" in schema, path
            assert re.compile(schema["pattern"]), path
            # No published string lets a terminal escape through.
            assert not jsonschema.Draft202012Validator(schema).is_valid("a\x1b[2Jb"), path
            # Nor a bidirectional override or a line separator.
            assert not jsonschema.Draft202012Validator(schema).is_valid("a\u202eb"), path
            assert not jsonschema.Draft202012Validator(schema).is_valid("a\u2028b"), path


def test_a_control_character_in_a_campaign_name_is_refused_and_nothing_is_created(
    harness: Harness,
) -> None:
    campaign = f"c-ctl-{harness.key()[-8:]}"

    result = harness.write("campaign_create", campaign, 0, {"name": "Gr\x07ey"})

    assert error_of(result) == {
        "code": "invalid_request",
        "message": (
            "arguments.name holds the control character U+0007; it must be one line of text"
        ),
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert error_of(harness.call("campaign_get", campaign))["code"] == "not_found"


def test_a_campaign_name_is_stored_without_the_spaces_around_it(harness: Harness) -> None:
    campaign = f"c-ws-{harness.key()[-8:]}"

    result = harness.write("campaign_create", campaign, 0, {"name": "  The Long Night\n"})

    assert not result.is_error, result.structured_content
    read = harness.call("campaign_get", campaign).structured_content
    assert read["campaign"]["name"] == "The Long Night"


def test_every_idempotency_key_is_bounded_printable_ascii(harness: Harness) -> None:
    for tool in harness.client.list_tools().tools:
        key = tool.input_schema["properties"].get("idempotency_key")
        if key is None:
            continue
        validator = jsonschema.Draft202012Validator(key)
        assert key["maxLength"] == 200, tool.name
        assert validator.is_valid("turn-8123:14"), tool.name
        assert not validator.is_valid("turn-8123:\x1b[2J"), tool.name
        assert not validator.is_valid("turn-8123:14 "), tool.name


def test_an_idempotency_key_holding_a_control_character_is_refused_and_nothing_is_created(
    harness: Harness,
) -> None:
    campaign = f"c-key-{harness.key()[-8:]}"

    result = harness.write("campaign_create", campaign, 0, {"name": "Grey"}, key="create\x00")

    assert error_of(result) == {
        "code": "invalid_request",
        "message": (
            "arguments.idempotency_key holds U+0000; an idempotency key is printable ASCII, "
            "without a space at either end"
        ),
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert error_of(harness.call("campaign_get", campaign))["code"] == "not_found"
