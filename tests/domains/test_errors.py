"""The status mapping of every contract error code, and results outside the contract."""

from __future__ import annotations

import json

import pytest
from mcp_types import CallToolResult, TextContent

from apps.domains.client import Delegation, _to_result
from apps.domains.errors import DomainError, DomainProtocolError
from apps.domains.plugins.dnd5e import Dnd5ePlugin
from apps.domains.registry import HttpTarget

PLUGIN = Dnd5ePlugin(
    system_id="dnd5e", target=HttpTarget("http://127.0.0.1:1/mcp"), audience=None, timeout=5
)
DELEGATION = Delegation(token="t", kid="k", claims={"jti": "j"})


def error_result(code: str, retryable: bool) -> CallToolResult:
    payload = {
        "error": {"code": code, "message": f"{code} happened", "retryable": retryable,
                  "recovery": f"recover from {code}"},
    }  # fmt: skip
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(payload))],
        structured_content=payload,
        is_error=True,
    )


@pytest.mark.parametrize(
    ("code", "retryable", "status"),
    [
        ("authorization_denied", False, 403),
        ("phase_denied", False, 409),
        ("stale_revision", True, 409),
        ("idempotency_conflict", False, 409),
        ("invalid_request", False, 400),
        ("not_found", False, 404),
        ("needs_ruling", False, 409),
        ("internal", True, 502),
        ("something_new", False, 502),
    ],
)
def test_structured_error_keeps_code_retryable_and_recovery(code, retryable, status):
    with pytest.raises(DomainError) as caught:
        _to_result(PLUGIN, "attack", error_result(code, retryable), DELEGATION)
    assert caught.value.as_envelope() == {
        "error": {
            "code": code,
            "message": f"{code} happened",
            "retryable": retryable,
            "recovery": f"recover from {code}",
            "details": {"system_id": "dnd5e", "tool": "attack"},
        }
    }
    assert caught.value.status == status
    assert caught.value.domain_code == code


def test_error_without_the_contract_shape_is_a_protocol_error(caplog):
    raw = "Traceback: KeyError 'hp' at /srv/dnd5e/rules.py:88"
    result = CallToolResult(content=[TextContent(type="text", text=raw)], is_error=True)
    with pytest.raises(DomainProtocolError) as caught:
        _to_result(PLUGIN, "attack", result, DELEGATION)
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_protocol_error", 502, False)
    # The server's own text can reach players (a job's error, the room): only the log has it.
    assert (
        error.message
        == "The D&D 5e (SRD 5.1) rules server gave an answer that this site cannot use."
    )
    assert raw not in str(error.as_envelope())
    assert error.details == {"system_id": "dnd5e", "tool": "attack"}
    assert caplog.messages == [
        "The dnd5e rules server at http://127.0.0.1:1/mcp answered attack outside the contract: "
        f"isError without the contract's error object: {raw}"
    ]


def test_success_keeps_the_full_result():
    structured = {"total": 7, "authority_revision": 3}
    result = CallToolResult(
        content=[TextContent(type="text", text=json.dumps(structured))],
        structured_content=structured,
        _meta={"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
    )
    converted = _to_result(PLUGIN, "dice_roll", result, DELEGATION)
    assert converted.structured == structured
    assert converted.receipt is None
    assert converted.authority_revision == 3
    assert converted.content == [{"type": "text", "text": json.dumps(structured)}]
    assert converted.result == {
        "_meta": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
        "content": [{"type": "text", "text": json.dumps(structured)}],
        "structuredContent": structured,
        "isError": False,
        "resultType": "complete",
    }
    assert (converted.delegation_kid, converted.delegation_jti) == ("k", "j")
