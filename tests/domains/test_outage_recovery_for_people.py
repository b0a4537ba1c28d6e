"""What a person is told to do when a game server is down or too slow: plain words, not the
API's advice about idempotency keys (a player cannot send a key; API clients have `retryable`
and the Idempotency-Key header's documented replay for that)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from apps.domains.client import domain_call
from apps.domains.errors import DomainTimeout, DomainUnavailable
from tests.domains.conftest import domains_setting

pytestmark = pytest.mark.django_db

RECOVERY = "Try again in a moment."


def test_an_unreachable_server_tells_people_plainly_what_to_do(user, closed_port):
    url = f"http://127.0.0.1:{closed_port}/mcp"  # nothing listens there
    with override_settings(SAGASMITH_DOMAINS=domains_setting(url)):
        with pytest.raises(DomainUnavailable) as caught:
            domain_call(
                system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                campaign_id="c-1",
            )  # fmt: skip

    assert caught.value.as_envelope() == {
        "error": {
            "code": "domain_unavailable",
            "message": "The D&D 5e (SRD 5.1) rules server is unavailable.",
            "retryable": True,
            "recovery": RECOVERY,
            "details": {"system_id": "dnd5e", "tool": "campaign_get"},
        }
    }


def test_a_server_too_slow_to_answer_gives_the_same_plain_advice():
    error = DomainTimeout("The D&D 5e (SRD 5.1) rules server did not answer in time.")

    assert (error.code, error.status, error.retryable, error.recovery) == (
        "domain_timeout", 503, True, RECOVERY,
    )  # fmt: skip
