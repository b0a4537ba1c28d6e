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
