"""A tool result the MCP SDK cannot parse or validate (pydantic's ValidationError, or the
RuntimeError of its output-schema check) is the server breaking the contract: a classified,
non-retryable DomainProtocolError naming the tool, never an unclassified exception."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import pytest
from django.test import override_settings
from pydantic_core import PydanticSerializationError

from apps.domains.client import domain_call, domain_connections_close
from apps.domains.errors import DomainProtocolError
from tests.domains.conftest import domains_setting
from tests.domains.gateway import Gateway

pytestmark = pytest.mark.django_db


def unknown_content_block(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "content": [{"type": "hologram", "text": "?"}]}


def structured_content_a_list(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "structuredContent": ["not", "an", "object"]}


def structured_content_against_its_schema(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "structuredContent": {"unexpected": True}}


@pytest.mark.parametrize(
    "rewrite",
    [unknown_content_block, structured_content_a_list, structured_content_against_its_schema],
)
def test_an_unusable_tool_result_is_a_classified_protocol_error(domain_env, user, caplog, rewrite):
    gateway = Gateway(domain_env.server.url, rewrite=rewrite)
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url)):
            with caplog.at_level(logging.WARNING), pytest.raises(DomainProtocolError) as caught:
                domain_call(
                    system_id="dnd5e", tool="campaign_create", requester=user,
                    campaign_id=campaign_id,
                    arguments={"name": "Odd", "expected_revision": 0, "idempotency_key": "odd-1"},
                )  # fmt: skip
    finally:
        domain_connections_close()
        gateway.close()
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_protocol_error", 502, False)
    assert error.message == (
        "The D&D 5e (SRD 5.1) rules server gave an answer that this site cannot use."
    )
    assert error.recovery == "Report this to the operators; the domain server broke the contract."
    assert error.details == {"system_id": "dnd5e", "tool": "campaign_create"}
    [logged] = [m for m in caplog.messages if "outside the contract" in m]
    assert logged.startswith(
        f"The dnd5e rules server at {gateway.url} answered campaign_create outside the contract: "
    )


def test_arguments_this_site_cannot_send_are_its_own_fault_not_the_servers(domain_env, user):
    # pydantic cannot serialise the argument: a ValueError of our making, raised before
    # anything is sent, so no server is blamed for it.
    try:
        with pytest.raises(PydanticSerializationError):
            domain_call(
                system_id="dnd5e", tool="dice_roll", requester=user,
                campaign_id=f"c-{uuid.uuid4().hex[:12]}", arguments={"expression": object()},
            )  # fmt: skip
    finally:
        domain_connections_close()
