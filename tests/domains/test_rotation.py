"""Key rotation against a live server, never restarted: a new kid verifies on its first token,
and an old kid verifies until it is removed from the JWKS."""

from __future__ import annotations

import json
import time
import uuid
from io import StringIO

import pytest
from django.core.management import call_command

from apps.domains.client import delegation_mint, domain_call
from apps.domains.errors import DomainUnavailable
from apps.domains.keys import active_key, keyring
from apps.domains.registry import get_plugin
from domain_servers.common.delegation import JWKS_CHECK_INTERVAL
from tests.domains.conftest import error_of

pytestmark = pytest.mark.django_db


def campaign_get(user, campaign_id):
    return domain_call(
        system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
        campaign_id=campaign_id,
    )  # fmt: skip


def old_kid_read(domain_env, user, campaign_id, kid):
    return stale_read(domain_env, user, campaign_id, keyring().get(kid))


def stale_read(domain_env, user, campaign_id, signing_key):
    delegation = delegation_mint(
        plugin=get_plugin("dnd5e"), tool="campaign_get", requester=user,
        campaign_id=campaign_id, base_rev=0, signing_key=signing_key,
    )  # fmt: skip
    return domain_env.server.raw_call(
        "campaign_get", {"campaign_id": campaign_id}, delegation.token
    )


def published_kids(domain_env) -> list[str]:
    return [key["kid"] for key in json.loads(domain_env.jwks.read_text())["keys"]]


def test_rotation_needs_no_restart_and_old_kid_is_valid_until_removed(domain_env, user):
    old = active_key()
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    domain_call(
        system_id="dnd5e", tool="campaign_create",
        arguments={"name": "Rotate", "expected_revision": 0, "idempotency_key": "r"},
        requester=user, campaign_id=campaign_id,
    )  # fmt: skip

    out = StringIO()
    call_command("delegation_keys", "rotate", stdout=out)
    new = active_key()
    assert new.kid != old.kid
    assert out.getvalue().startswith(f"{new.kid} now signing\n")
    assert published_kids(domain_env) == [new.kid, old.kid]

    # The running server re-reads its JWKS on the first token with a kid it does not know.
    read = campaign_get(user, campaign_id)
    assert read.delegation_kid == new.kid
    assert read.authority_revision == 1
    old_signed = old_kid_read(domain_env, user, campaign_id, old.kid)
    assert not old_signed.is_error, old_signed.structured_content
    assert old_signed.structured_content["authority_revision"] == 1

    # Removal: still usable for signing in this test, but no longer published, and no longer
    # trusted once the server's next look at its file (every JWKS_CHECK_INTERVAL seconds).
    stale_key = keyring().get(old.kid)
    call_command("delegation_keys", "remove", old.kid, stdout=StringIO())
    removed_at = time.monotonic()
    assert published_kids(domain_env) == [new.kid]
    assert not (domain_env.key_dir / f"{old.kid}.pem").exists()
    while not (refused := stale_read(domain_env, user, campaign_id, stale_key)).is_error:
        assert time.monotonic() - removed_at < JWKS_CHECK_INTERVAL + 2, "removed kid verifies"
        time.sleep(0.1)
    assert error_of(refused)["code"] == "authorization_denied"
    assert error_of(refused)["message"] == "delegation token kid is unknown"
    assert campaign_get(user, campaign_id).delegation_kid == new.kid


def test_staged_rotation_publishes_before_signing(domain_env, user):
    current = active_key()
    out = StringIO()
    call_command("delegation_keys", "rotate", "--staged", stdout=out)
    staged = keyring().keys[1]
    assert out.getvalue().startswith(f"{staged.kid} published, not yet signing\n")
    assert active_key().kid == current.kid
    assert published_kids(domain_env)[:2] == [current.kid, staged.kid]

    call_command("delegation_keys", "activate", staged.kid, stdout=StringIO())
    assert active_key().kid == staged.kid
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    created = domain_call(
        system_id="dnd5e", tool="campaign_create",
        arguments={"name": "Staged", "expected_revision": 0, "idempotency_key": "s"},
        requester=user, campaign_id=campaign_id,
    )  # fmt: skip
    assert created.delegation_kid == staged.kid


def test_server_restart_after_outage_recovers(domain_env, user):
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    domain_call(
        system_id="dnd5e", tool="campaign_create",
        arguments={"name": "Outage", "expected_revision": 0, "idempotency_key": "o"},
        requester=user, campaign_id=campaign_id,
    )  # fmt: skip
    domain_env.server.stop()
    with pytest.raises(DomainUnavailable) as caught:
        campaign_get(user, campaign_id)
    assert caught.value.retryable is True
    assert caught.value.status == 503
    domain_env.server.start()
    assert campaign_get(user, campaign_id).authority_revision == 1
