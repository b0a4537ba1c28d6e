"""Delegation tokens: EdDSA JWS verified against a JWKS file, checked in the contract's order."""

from __future__ import annotations

import base64
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.exceptions import InvalidSignature

from domain_servers.common.errors import DomainError, denied

META_KEY = "io.sagasmith/delegation"
TOKEN_TYPE = "sagasmith-delegation+jwt"
DEFAULT_ISSUER = "sagasmith-web"
CLOCK_SKEW = 30
MAX_LIFETIME = 300
JWKS_ENV = "SAGASMITH_DELEGATION_JWKS"
_PRINCIPAL = re.compile(r"^[a-z]+:[A-Za-z0-9._:@-]{1,120}$")


@dataclass(frozen=True)
class Delegation:
    requester: str
    actor: str
    owner: str | None
    character: str | None
    campaign: str
    turn: str | None
    base_rev: int
    scope: frozenset[str]
    jti: str
    exp: int
    # "public": a read is answered as the public sees it (what an observer sees, and nothing
    # addressed to the requester alone), never more than the requester may see.
    view: str | None = None


# The views a token may narrow a read to.
VIEWS = frozenset({"public"})


def load_jwks(path: str | os.PathLike[str] | None) -> dict[str, Any]:
    """Public keys by `kid`; an empty map when no file is configured."""
    if path is None:
        return {}
    document = json.loads(Path(path).read_text())
    keys: dict[str, Any] = {}
    for entry in document.get("keys", []):
        if entry.get("kty") != "OKP" or entry.get("crv") != "Ed25519" or "kid" not in entry:
            continue
        keys[entry["kid"]] = jwt.PyJWK.from_dict(entry, algorithm="EdDSA").key
    return keys


class DelegationVerifier:
    """Checks a token up to (but not including) `jti` use, `scope` and `campaign`."""

    def __init__(self, keys: dict[str, Any], audience: str, issuer: str = DEFAULT_ISSUER) -> None:
        self.keys = keys
        self.audience = audience
        self.issuer = issuer

    @property
    def has_keys(self) -> bool:
        return bool(self.keys)

    def verify(self, token: Any, now: float | None = None) -> Delegation:
        if not self.keys:
            raise denied("this server has no delegation keys configured and refuses every call")
        if not isinstance(token, str) or not token:
            raise denied(f"delegation token missing from _meta[{META_KEY!r}]")
        if len(token) > 8192:
            raise denied("delegation token is too large")
        # Compact JWS verified directly with the Ed25519 key: the algorithm is pinned, so there
        # is no header-driven algorithm choice to get wrong, and it is several times faster.
        parts = token.split(".")
        if len(parts) != 3:
            raise denied("delegation token is not a compact JWS")
        try:
            header = json.loads(_b64decode(parts[0]))
            signature = _b64decode(parts[2])
        except (ValueError, TypeError):
            raise denied("delegation token is not a compact JWS") from None
        if not isinstance(header, dict):
            raise denied("delegation token header is not an object")
        if header.get("alg") != "EdDSA" or header.get("typ") != TOKEN_TYPE:
            raise denied(f"delegation token header must be alg EdDSA and typ {TOKEN_TYPE}")
        kid = header.get("kid")
        if not isinstance(kid, str):
            # A list or object would not even be a valid map key: refuse before the lookup.
            raise denied("delegation token kid must be a string")
        key = self.keys.get(kid)
        if key is None:
            raise denied("delegation token kid is unknown")
        try:
            key.verify(signature, f"{parts[0]}.{parts[1]}".encode("ascii"))
        except (InvalidSignature, UnicodeEncodeError):
            raise denied("delegation token signature is invalid") from None
        try:
            claims = json.loads(_b64decode(parts[1]))
        except (ValueError, TypeError):
            raise denied("delegation token payload is not JSON") from None
        if not isinstance(claims, dict):
            raise denied("delegation token payload is not an object")
        if claims.get("iss") != self.issuer:
            raise denied(f"delegation token issuer is not {self.issuer}")
        if claims.get("aud") != self.audience:
            raise denied(f"delegation token audience is not {self.audience}")
        now = time.time() if now is None else now
        iat, exp = claims.get("iat"), claims.get("exp")
        if not _is_int(iat) or not _is_int(exp):
            raise denied("delegation token needs integer iat and exp")
        if iat > now + CLOCK_SKEW:
            raise denied("delegation token iat is in the future")
        if exp + CLOCK_SKEW <= now:
            raise denied("delegation token has expired")
        if exp - iat > MAX_LIFETIME:
            raise denied(f"delegation token lifetime exceeds {MAX_LIFETIME} s")
        return _claims_to_delegation(claims)


def _b64decode(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _claims_to_delegation(claims: dict[str, Any]) -> Delegation:
    sub, act, jti = claims.get("sub"), claims.get("act"), claims.get("jti")
    if not isinstance(sub, str) or not _PRINCIPAL.match(sub):
        raise denied("delegation token sub must be a principal such as user:<id>")
    if not isinstance(act, dict) or not isinstance(act.get("sub"), str):
        raise denied("delegation token act must be an object with sub")
    if not isinstance(jti, str) or not 1 <= len(jti) <= 128:
        raise denied("delegation token jti must be a string of 1..128 characters")
    campaign, scope, base_rev = claims.get("campaign"), claims.get("scope"), claims.get("base_rev")
    if not isinstance(campaign, str) or not isinstance(scope, str):
        raise denied("delegation token needs string campaign and scope")
    if not _is_int(base_rev) or base_rev < 0:
        raise denied("delegation token base_rev must be a non-negative integer")
    owner, character, turn = claims.get("owner"), claims.get("character"), claims.get("turn")
    view = claims.get("view")
    if view is not None and view not in VIEWS:
        # Fail closed: a view this server does not know must not answer with a wider one.
        raise denied(f"delegation token view must be one of: {', '.join(sorted(VIEWS))}")
    return Delegation(
        requester=sub,
        actor=act["sub"],
        owner=owner if isinstance(owner, str) else None,
        character=character if isinstance(character, str) else None,
        campaign=campaign,
        turn=turn if isinstance(turn, str) else None,
        base_rev=base_rev,
        scope=frozenset(s for s in scope.split(" ") if s and s != "*"),
        jti=jti,
        exp=int(claims["exp"]),
        view=view,
    )


def check_call(delegation: Delegation, tool: str, campaign_id: str) -> None:
    """The post-`jti` checks: scope then campaign."""
    if tool not in delegation.scope:
        raise denied(f"delegation scope does not include {tool}")
    if delegation.campaign != campaign_id:
        raise denied("delegation campaign does not match campaign_id")


def check_base_rev(delegation: Delegation, expected_revision: int) -> None:
    if delegation.base_rev != expected_revision:
        raise DomainError(
            "stale_revision",
            f"delegation base_rev {delegation.base_rev} differs from expected_revision "
            f"{expected_revision}",
            "mint a delegation for the current revision and retry with the same idempotency key",
        )
