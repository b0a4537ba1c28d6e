"""A domain server that fails during a tool call: the error and the operators' log name the
tool, as a timeout's and a refusal's do. (One that cannot be reached at all: test_client.py and
test_outage_recovery_for_people.py assert the same details and log line.)"""

from __future__ import annotations

import uuid

import pytest
from django.test import override_settings

from apps.domains.client import domain_call
from apps.domains.errors import DomainUnavailable
from tests.domains.conftest import domains_setting
from tests.domains.gateway import Gateway

pytestmark = pytest.mark.django_db


def test_a_gateway_outage_during_a_call_names_the_tool_being_called(domain_env, user, caplog):
    failing = {"now": False}

    def answer():
        return (
            (503, {"Content-Type": "text/plain"}, b"no healthy upstream")
            if failing["now"]
            else None
        )

    gateway = Gateway(domain_env.server.url, answer)
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url)):
            domain_call(
                system_id="dnd5e", tool="campaign_create", requester=user, campaign_id=campaign_id,
                arguments={"name": "Gateway", "expected_revision": 0, "idempotency_key": "gw-1"},
            )  # fmt: skip
            failing["now"] = True
            with pytest.raises(DomainUnavailable) as caught:
                domain_call(
                    system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                    campaign_id=campaign_id,
                )  # fmt: skip
    finally:
        gateway.close()

    assert caught.value.details == {"system_id": "dnd5e", "tool": "campaign_get"}
    assert [m for m in caplog.messages if "is unavailable" in m] == [
        f"The dnd5e rules server at {gateway.url} is unavailable: "
        "Server returned an error response (JSON-RPC -32603) (calling campaign_get)"
    ]
