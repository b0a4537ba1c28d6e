"""A claim of the wrong type is a malformed token, refused, never read as absent."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("character", [7, ["pc-1"], {"id": "pc-1"}, True])
def test_non_string_character_claim_is_refused(dnd, character):
    result = dnd.call("campaign_get", {}, character=character)

    assert result.structured_content == {
        "error": {
            "code": "authorization_denied",
            "message": "delegation token character must be a string",
            "retryable": False,
            "recovery": "obtain a new delegation for this tool and campaign",
        }
    }


@pytest.mark.parametrize("view", [["public"], {"public": True}, 1])
def test_non_string_view_claim_is_refused(dnd, view):
    result = dnd.call("campaign_get", {}, view=view)

    assert result.structured_content == {
        "error": {
            "code": "authorization_denied",
            "message": "delegation token view must be one of: public",
            "retryable": False,
            "recovery": "obtain a new delegation for this tool and campaign",
        }
    }


@pytest.mark.parametrize("claim", ["owner", "turn"])
@pytest.mark.parametrize("value", [7, ["user:1"], {"sub": "user:1"}, True])
def test_non_string_owner_or_turn_claim_is_refused(dnd, claim, value):
    result = dnd.call("campaign_get", {}, **{claim: value})

    assert result.structured_content == {
        "error": {
            "code": "authorization_denied",
            "message": f"delegation token {claim} must be a string",
            "retryable": False,
            "recovery": "obtain a new delegation for this tool and campaign",
        }
    }
