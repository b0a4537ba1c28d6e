"""Forged and stretched delegations: the verifier pins EdDSA and the trusted key, takes `aud` and
`scope` exactly, and bounds the token's time."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
import uuid
from typing import Any

import pytest

from domain_servers.common.delegation import (
    TOKEN_TYPE,
    Delegation,
    DelegationVerifier,
    check_call,
)
from domain_servers.common.errors import DomainError
from domain_servers.common.testing import SigningKey, delegation_meta, mint_token
from tests.domain_servers.conftest import Game

AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:00000000-0000-4000-8000-000000000001"
NOW = 1_800_000_000


@pytest.fixture
def trusted() -> SigningKey:
    return SigningKey.generate("web-trusted")


@pytest.fixture
def verifier(trusted: SigningKey) -> DelegationVerifier:
    return DelegationVerifier({trusted.kid: trusted.private_key.public_key()}, AUDIENCE)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _claims(**overrides: Any) -> dict[str, Any]:
    claims = {
        "iss": "sagasmith-web",
        "aud": AUDIENCE,
        "sub": OWNER,
        "act": {"sub": "host:sagasmith-web"},
        "campaign": "c1",
        "base_rev": 0,
        "scope": "campaign_get",
        "iat": NOW,
        "exp": NOW + 60,
        "jti": uuid.uuid4().hex,
    }
    claims.update(overrides)
    return claims


def _signed(key: SigningKey, header: dict[str, Any], claims: dict[str, Any]) -> str:
    head = _b64(json.dumps(header).encode())
    body = _b64(json.dumps(claims).encode())
    return f"{head}.{body}.{_b64(key.private_key.sign(f'{head}.{body}'.encode()))}"


def _refusal(verifier: DelegationVerifier, token: str, now: float = NOW) -> str:
    with pytest.raises(DomainError) as caught:
        verifier.verify(token, now)
    assert caught.value.code == "authorization_denied"
    return caught.value.message


def _public_bytes(key: SigningKey) -> bytes:
    return key.private_key.public_key().public_bytes_raw()


@pytest.mark.parametrize("alg", ["none", "HS256", "ES256", "eddsa"])
def test_a_header_naming_another_algorithm_is_refused(
    verifier: DelegationVerifier, trusted: SigningKey, alg: str
) -> None:
    head = _b64(json.dumps({"alg": alg, "kid": trusted.kid, "typ": TOKEN_TYPE}).encode())
    body = _b64(json.dumps(_claims()).encode())
    mac = hmac.new(_public_bytes(trusted), f"{head}.{body}".encode(), hashlib.sha256).digest()
    for token in (f"{head}.{body}.", f"{head}.{body}.{_b64(mac)}"):
        assert _refusal(verifier, token) == (
            f"delegation token header must be alg EdDSA and typ {TOKEN_TYPE}"
        )


def test_an_hmac_keyed_with_the_public_key_is_no_eddsa_signature(
    verifier: DelegationVerifier, trusted: SigningKey
) -> None:
    head = _b64(json.dumps({"alg": "EdDSA", "kid": trusted.kid, "typ": TOKEN_TYPE}).encode())
    body = _b64(json.dumps(_claims()).encode())
    mac = hmac.new(_public_bytes(trusted), f"{head}.{body}".encode(), hashlib.sha256).digest()
    assert _refusal(verifier, f"{head}.{body}.{_b64(mac)}") == (
        "delegation token signature is invalid"
    )


def test_a_key_embedded_in_the_header_is_never_trusted(
    verifier: DelegationVerifier, trusted: SigningKey
) -> None:
    forger = SigningKey.generate(trusted.kid)
    header = {
        "alg": "EdDSA",
        "kid": trusted.kid,
        "typ": TOKEN_TYPE,
        "jwk": forger.public_jwk(),
        "jku": "http://127.0.0.1:1/jwks.json",
    }
    assert _refusal(verifier, _signed(forger, header, _claims())) == (
        "delegation token signature is invalid"
    )
    # The same header signed by the trusted key verifies: the extra members change nothing.
    assert verifier.verify(_signed(trusted, header, _claims()), NOW).requester == OWNER


@pytest.mark.parametrize(
    "aud",
    [
        [AUDIENCE],
        [AUDIENCE, "sagasmith-narrative"],
        f"{AUDIENCE} ",
        "sagasmith-dnd5e2",
        "SAGASMITH-DND5E",
    ],
    ids=["list", "list-of-two", "trailing-space", "longer", "case"],
)
def test_the_audience_is_this_servers_exact_string(
    verifier: DelegationVerifier, trusted: SigningKey, aud: Any
) -> None:
    header = {"alg": "EdDSA", "kid": trusted.kid, "typ": TOKEN_TYPE}
    assert _refusal(verifier, _signed(trusted, header, _claims(aud=aud))) == (
        f"delegation token audience is not {AUDIENCE}"
    )


@pytest.mark.parametrize(
    "scope",
    ["*", "campaign_*", "campaign", "campaign_get_all", "Campaign_get", "dice_roll,campaign_get"],
)
def test_a_scope_names_tools_exactly_with_no_wildcard_nor_prefix(
    verifier: DelegationVerifier, trusted: SigningKey, scope: str
) -> None:
    token = mint_token(trusted, audience=AUDIENCE, sub=OWNER, campaign="c1", scope=scope, iat=NOW)
    delegation = verifier.verify(token, NOW)
    with pytest.raises(DomainError) as caught:
        check_call(delegation, "campaign_get", "c1")
    assert caught.value.message == "delegation scope does not include campaign_get"


def test_a_scope_of_several_tools_allows_exactly_those(
    verifier: DelegationVerifier, trusted: SigningKey
) -> None:
    token = mint_token(
        trusted, audience=AUDIENCE, sub=OWNER, campaign="c1", scope="dice_roll  campaign_get *",
        iat=NOW,
    )  # fmt: skip
    delegation: Delegation = verifier.verify(token, NOW)
    assert delegation.scope == frozenset({"dice_roll", "campaign_get"})
    check_call(delegation, "campaign_get", "c1")
    for campaign in ("c2", "c1 ", "C1"):
        with pytest.raises(DomainError) as caught:
            check_call(delegation, "campaign_get", campaign)
        assert caught.value.message == "delegation campaign does not match campaign_id"


@pytest.mark.parametrize(
    ("iat", "exp", "message"),
    [
        (NOW + 31, NOW + 90, "delegation token iat is in the future"),
        (NOW - 400, NOW - 30, "delegation token has expired"),
        (NOW - 10, NOW + 291, "delegation token lifetime exceeds 300 s"),
        (NOW, NOW + 10**9, "delegation token lifetime exceeds 300 s"),
        (float(NOW), NOW + 60, "delegation token needs integer iat and exp"),
        (True, NOW + 60, "delegation token needs integer iat and exp"),
        (None, NOW + 60, "delegation token needs integer iat and exp"),
    ],
    ids=["future-iat", "expired", "301s", "huge", "float", "bool", "missing"],
)
def test_a_token_lives_at_most_300_s_within_30_s_of_skew(
    verifier: DelegationVerifier, trusted: SigningKey, iat: Any, exp: int, message: str
) -> None:
    header = {"alg": "EdDSA", "kid": trusted.kid, "typ": TOKEN_TYPE}
    claims = _claims(iat=iat, exp=exp)
    if iat is None:
        del claims["iat"]
    assert _refusal(verifier, _signed(trusted, header, claims)) == message


def test_the_time_bounds_are_inclusive_where_the_contract_allows(
    verifier: DelegationVerifier, trusted: SigningKey
) -> None:
    header = {"alg": "EdDSA", "kid": trusted.kid, "typ": TOKEN_TYPE}
    for iat, exp in ((NOW + 30, NOW + 330), (NOW - 300, NOW - 29)):
        verifier.verify(_signed(trusted, header, _claims(iat=iat, exp=exp)), NOW)


def test_an_unknown_kid_and_a_removed_key_are_refused(trusted: SigningKey) -> None:
    other = SigningKey.generate("web-other")
    verifier = DelegationVerifier({other.kid: other.private_key.public_key()}, AUDIENCE)
    header = {"alg": "EdDSA", "kid": trusted.kid, "typ": TOKEN_TYPE}
    assert _refusal(verifier, _signed(trusted, header, _claims()), time.time()) == (
        "delegation token kid is unknown"
    )


def test_a_header_nested_past_the_parsers_depth_is_refused_as_no_jws(
    verifier: DelegationVerifier,
) -> None:
    # Read before any signature is checked, so anyone may send it: a refusal, not a fault.
    head = _b64(b"[" * 6000)
    assert _refusal(verifier, f"{head}.e30.AA") == "delegation token is not a compact JWS"


def test_a_server_answers_a_deeply_nested_header_with_a_refusal(dnd: Game) -> None:
    token = f"{_b64(b'[' * 6000)}.e30.AA"
    result = asyncio.run(
        dnd.domain.call("campaign_get", {"campaign_id": "game"}, delegation_meta(token))
    )
    assert result.structured_content == {
        "error": {
            "code": "authorization_denied",
            "message": "delegation token is not a compact JWS",
            "retryable": False,
            "recovery": "obtain a new delegation for this tool and campaign",
        }
    }
