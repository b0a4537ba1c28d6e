"""domain_call against a live dnd5e server process: delegation, results and error mapping."""

from __future__ import annotations

import sys
import time
import uuid

import jwt
import pytest
from django.test import override_settings

from apps.domains import client as client_module
from apps.domains.client import adomain_call, delegation_mint, domain_call
from apps.domains.errors import DomainError, DomainUnavailable
from apps.domains.keys import active_key, keyring
from apps.domains.plugins.dnd5e import Dnd5eCharacterForm
from apps.domains.registry import get_plugin
from domain_servers.common.testing import REPO_ROOT
from tests.domains.conftest import DND5E_PLUGIN, domains_setting, error_of

pytestmark = pytest.mark.django_db
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def new_campaign(requester) -> str:
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    result = domain_call(
        system_id="dnd5e",
        tool="campaign_create",
        arguments={"name": "Keep", "expected_revision": 0, "idempotency_key": f"k-{campaign_id}"},
        requester=requester,
        campaign_id=campaign_id,
    )
    assert result.receipt["authority_revision"] == 1
    return campaign_id


def test_campaign_create_with_minted_token_makes_the_requester_owner(domain_env, user):
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    created = domain_call(
        system_id="dnd5e",
        tool="campaign_create",
        arguments={"name": "Keep", "expected_revision": 0, "idempotency_key": "create-1"},
        requester=user,
        campaign_id=campaign_id,
        traceparent=TRACEPARENT,
    )
    assert created.system_id == "dnd5e"
    assert created.tool == "campaign_create"
    assert created.receipt == {
        "authority_revision": 1,
        "previous_revision": 0,
        "changed_scopes": ["campaign", "membership", "phase"],
        "entity_ids": [campaign_id],
        "audience": "public",
        "idempotency_key": "create-1",
    }
    assert created.authority_revision == 1
    assert created.idempotent_replay is False
    assert created.meta["traceparent"] == TRACEPARENT
    assert created.delegation_kid == active_key().kid
    assert created.result["isError"] is False
    assert created.result["structuredContent"] == created.structured
    assert created.content == created.result["content"]
    assert created.content[0]["type"] == "text"

    read = domain_call(
        system_id="dnd5e",
        tool="campaign_get",
        arguments={"campaign_id": campaign_id},
        requester=user,
        campaign_id=campaign_id,
    )
    assert read.receipt is None
    assert read.authority_revision == 1
    # `sub` came from the requester, so the server knows this user as the owner.
    assert read.structured["campaign"]["members"] == [
        {"principal": f"user:{user.pk}", "role": "owner"}
    ]
    assert read.structured["campaign"]["your_role"] == "owner"
    assert read.delegation_jti != created.delegation_jti


def test_retry_with_same_idempotency_key_replays(domain_env, user):
    campaign_id = new_campaign(user)
    arguments = {"phase": "play", "expected_revision": 1, "idempotency_key": "phase-1"}
    first = domain_call(
        system_id="dnd5e", tool="phase_set", arguments=arguments, requester=user,
        campaign_id=campaign_id,
    )  # fmt: skip
    again = domain_call(
        system_id="dnd5e", tool="phase_set", arguments=arguments, requester=user,
        campaign_id=campaign_id,
    )  # fmt: skip
    assert first.idempotent_replay is False
    assert again.idempotent_replay is True
    assert again.structured == first.structured
    assert again.receipt["authority_revision"] == 2


def test_minted_claims_are_exactly_the_contract(domain_env, user):
    plugin = get_plugin("dnd5e")
    before = int(time.time())
    delegation = delegation_mint(
        plugin=plugin,
        tool="dice_roll",
        requester=user,
        campaign_id="c-1",
        base_rev=4,
        turn="job-9",
        character="pc-1",
    )
    header = jwt.get_unverified_header(delegation.token)
    assert header == {"alg": "EdDSA", "kid": active_key().kid, "typ": "sagasmith-delegation+jwt"}
    key = jwt.PyJWK.from_dict(keyring().jwks()["keys"][0], algorithm="EdDSA").key
    claims = jwt.decode(
        delegation.token, key, algorithms=["EdDSA"], audience="sagasmith-dnd5e",
        issuer="sagasmith-web",
    )  # fmt: skip
    assert claims == delegation.claims
    assert before <= claims["iat"] <= int(time.time())
    assert claims["exp"] - claims["iat"] == 60
    assert claims == {
        "iss": "sagasmith-web",
        "aud": "sagasmith-dnd5e",
        "sub": f"user:{user.pk}",
        "act": {"sub": "host:sagasmith-web"},
        "owner": f"user:{user.pk}",
        "character": "pc-1",
        "campaign": "c-1",
        "turn": "job-9",
        "base_rev": 4,
        "scope": "dice_roll",
        "iat": claims["iat"],
        "exp": claims["iat"] + 60,
        "jti": delegation.jti,
    }
    assert len(delegation.jti) == 32


@pytest.mark.parametrize("lifetime", [301, 0, -1])
def test_a_lifetime_outside_1_to_300_seconds_is_refused(domain_env, user, lifetime):
    # 0 too: a lifetime given is never swapped for the setting's.
    with pytest.raises(ValueError, match=f"1..300 s, not {lifetime}$"):
        delegation_mint(
            plugin=get_plugin("dnd5e"), tool="campaign_get", requester=user,
            campaign_id="c-1", base_rev=0, lifetime=lifetime,
        )  # fmt: skip


def test_token_scope_is_exactly_the_called_tool(domain_env, user):
    campaign_id = new_campaign(user)
    delegation = delegation_mint(
        plugin=get_plugin("dnd5e"), tool="campaign_get", requester=user,
        campaign_id=campaign_id, base_rev=1,
    )  # fmt: skip
    assert delegation.claims["scope"] == "campaign_get"
    refused = domain_env.server.raw_call(
        "phase_set",
        {"campaign_id": campaign_id, "phase": "play", "expected_revision": 1,
         "idempotency_key": "scope-1"},
        delegation.token,
    )  # fmt: skip
    assert error_of(refused) == {
        "code": "authorization_denied",
        "message": "delegation scope does not include phase_set",
        "retryable": False,
        "recovery": "obtain a new delegation for this tool and campaign",
    }
    # Nothing changed: the campaign is still at revision 1 in the lobby.
    read = domain_call(
        system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
        campaign_id=campaign_id,
    )  # fmt: skip
    assert (read.authority_revision, read.structured["campaign"]["phase"]) == (1, "lobby")


def test_expired_token_is_refused(domain_env, user):
    campaign_id = new_campaign(user)
    delegation = delegation_mint(
        plugin=get_plugin("dnd5e"), tool="campaign_get", requester=user,
        campaign_id=campaign_id, base_rev=0, now=int(time.time()) - 120,
    )  # fmt: skip
    refused = domain_env.server.raw_call(
        "campaign_get", {"campaign_id": campaign_id}, delegation.token
    )
    assert error_of(refused)["message"] == "delegation token has expired"


def test_wrong_audience_maps_to_403(domain_env, user):
    campaign_id = new_campaign(user)
    setting = domains_setting(domain_env.server.url, audience="sagasmith-narrative")
    with override_settings(SAGASMITH_DOMAINS=setting):
        with pytest.raises(DomainError) as caught:
            domain_call(
                system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                campaign_id=campaign_id,
            )  # fmt: skip
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("authorization_denied", 403, False)
    assert error.message == "delegation token audience is not sagasmith-dnd5e"
    assert error.recovery == "obtain a new delegation for this tool and campaign"
    assert error.details == {"system_id": "dnd5e", "tool": "campaign_get"}
    assert error.as_envelope()["error"]["code"] == "authorization_denied"


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("not_found", ("not_found", 404, False)),
        ("stale_revision", ("stale_revision", 409, True)),
        ("idempotency_conflict", ("idempotency_conflict", 409, False)),
        ("invalid_request", ("invalid_request", 400, False)),
        ("phase_denied", ("phase_denied", 409, False)),
    ],
)
def test_live_structured_errors_map_to_application_errors(domain_env, user, case, expected):
    campaign_id = new_campaign(user)
    calls = {
        "not_found": ("campaign_get", {}, f"missing-{campaign_id}"),
        "stale_revision": (
            "phase_set", {"phase": "play", "expected_revision": 0, "idempotency_key": "s"},
            campaign_id,
        ),
        "idempotency_conflict": (
            "campaign_create", {"name": "Other", "expected_revision": 0,
                                "idempotency_key": f"k-{campaign_id}"}, campaign_id,
        ),
        "invalid_request": ("dice_roll", {"expression": "banana"}, campaign_id),
        "phase_denied": (
            "monster_spawn", {"monster_key": "goblin", "expected_revision": 1,
                              "idempotency_key": "m"}, campaign_id,
        ),
    }  # fmt: skip
    tool, arguments, target_campaign = calls[case]
    with pytest.raises(DomainError) as caught:
        domain_call(
            system_id="dnd5e", tool=tool, arguments=arguments, requester=user,
            campaign_id=target_campaign,
        )  # fmt: skip
    error = caught.value
    assert (error.code, error.status, error.retryable) == expected
    assert error.domain_code == expected[0]
    assert error.recovery
    assert error.details == {"system_id": "dnd5e", "tool": tool}


def test_character_form_arguments_create_a_character(domain_env, user):
    campaign_id = new_campaign(user)
    form = Dnd5eCharacterForm(data={"name": "Brann", "template": "fighter", "level": 3})
    assert form.is_valid(), form.errors
    created = domain_call(
        system_id="dnd5e",
        tool="character_create",
        arguments={**form.to_arguments(), "expected_revision": 1, "idempotency_key": "pc"},
        requester=user,
        campaign_id=campaign_id,
    )
    character = created.structured["character"]
    assert (character["name"], character["template"], character["level"]) == (
        "Brann", "fighter", 3,
    )  # fmt: skip
    assert character["controller"] == f"user:{user.pk}"
    assert created.receipt["changed_scopes"] == ["character:pc-1"]


async def test_async_variant_calls_through_the_same_pool(domain_env, user):
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    created = await adomain_call(
        system_id="dnd5e",
        tool="campaign_create",
        arguments={"name": "Async", "expected_revision": 0, "idempotency_key": "a"},
        requester=user,
        campaign_id=campaign_id,
    )
    assert created.receipt["authority_revision"] == 1


def test_connection_is_pooled_across_calls(domain_env, user):
    campaign_id = new_campaign(user)
    runtime = client_module._get_runtime()
    plugin = get_plugin("dnd5e")
    key = (plugin.system_id, plugin.target, plugin.timeout)
    first = runtime.connections[key].client
    for _ in range(3):
        domain_call(
            system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
            campaign_id=campaign_id,
        )  # fmt: skip
    assert runtime.connections[key].client is first


def test_server_down_is_a_retryable_unavailable_error(domain_env, user, caplog, closed_port):
    url = f"http://127.0.0.1:{closed_port}/mcp"
    with override_settings(SAGASMITH_DOMAINS=domains_setting(url)):
        started = time.monotonic()
        with pytest.raises(DomainUnavailable) as caught:
            domain_call(
                system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                campaign_id="c-1",
            )  # fmt: skip
        assert time.monotonic() - started < 5
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_unavailable", 503, True)
    # Players see the outage; only the log says where the server runs and why it failed.
    assert error.message == "The D&D 5e (SRD 5.1) rules server is unavailable."
    assert error.details == {"system_id": "dnd5e", "tool": "campaign_get"}
    assert (
        f"The dnd5e rules server at {url} is unavailable: "
        "ConnectError: All connection attempts failed (calling campaign_get)"
    ) in caplog.messages


def test_stdio_target_runs_a_managed_server_process(domain_env, user):
    command = [
        sys.executable, "-m", "domain_servers.dnd5e", "--transport", "stdio",
        "--db", f"sqlite:///{domain_env.base}/stdio.sqlite3", "--jwks", str(domain_env.jwks),
    ]  # fmt: skip
    setting = {"dnd5e": {"plugin": DND5E_PLUGIN, "command": command, "cwd": str(REPO_ROOT)}}
    with override_settings(SAGASMITH_DOMAINS=setting):
        campaign_id = new_campaign(user)
        read = domain_call(
            system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
            campaign_id=campaign_id,
        )  # fmt: skip
        assert read.structured["campaign"]["your_role"] == "owner"
        plugin = get_plugin("dnd5e")
        runtime = client_module._get_runtime()
        assert runtime.connections[(plugin.system_id, plugin.target, plugin.timeout)].alive
