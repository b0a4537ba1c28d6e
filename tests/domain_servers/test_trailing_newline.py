"""Anchored patterns match the whole value: a trailing newline is not a valid identifier."""

from __future__ import annotations

import asyncio

from domain_servers.common.server import ID_PATTERN, PRINCIPAL_PATTERN
from domain_servers.common.testing import delegation_meta, mint_token
from domain_servers.narrative.tools import AUDIENCE_PATTERN


def test_fact_audience_with_a_trailing_newline_is_invalid(narrative):
    error = narrative.fail("fact_add", {"text": "A secret door.", "audience": "public\n"})

    assert error == {
        "code": "invalid_request",
        "message": f"arguments.audience does not match {AUDIENCE_PATTERN}",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }


def test_granted_principal_with_a_trailing_newline_is_invalid(dnd):
    error = dnd.fail("member_grant", {"principal": "user:newbie\n", "role": "player"})

    assert error == {
        "code": "invalid_request",
        "message": f"arguments.principal does not match {PRINCIPAL_PATTERN}",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }


def test_campaign_id_with_a_trailing_newline_is_invalid(dnd):
    dnd.campaign = "game\n"
    error = dnd.fail("campaign_get")

    assert error["message"] == f"arguments.campaign_id does not match {ID_PATTERN}"


def test_delegation_sub_with_a_trailing_newline_is_refused(dnd):
    result = dnd.call("campaign_get", {}, sub="user:gm\n")

    assert result.structured_content["error"] == {
        "code": "authorization_denied",
        "message": "delegation token sub must be a principal such as user:<id>",
        "retryable": False,
        "recovery": "obtain a new delegation for this tool and campaign",
    }


def test_traceparent_with_a_trailing_newline_is_not_echoed(dnd):
    token = mint_token(
        dnd.key, audience=dnd.audience, sub="user:gm", campaign="game", scope=["campaign_get"]
    )
    traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    meta = delegation_meta(token, traceparent=traceparent + "\n")

    result = asyncio.run(dnd.domain.call("campaign_get", {"campaign_id": "game"}, meta))

    assert not result.is_error
    assert result.meta is None
