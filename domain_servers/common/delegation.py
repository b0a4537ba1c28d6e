"""Delegation tokens: EdDSA JWS verified against a JWKS file, checked in the contract's order."""

from __future__ import annotations

import base64
import json
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
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
# The longest sub, act.sub or turn claim: the storage's requester, actor and turn columns.
MAX_CLAIM_LENGTH = 160
JWKS_ENV = "SAGASMITH_DELEGATION_JWKS"
# Seconds between looks at the JWKS file (see JwksSource): how soon a removed key stops verifying.
JWKS_CHECK_INTERVAL = 5.0
# fullmatch: `$` alone would let a trailing newline through.
_PRINCIPAL = re.compile(r"[a-z]+:[A-Za-z0-9._:@-]{1,120}")

logger = logging.getLogger(__name__)


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


def _parse_jwks(data: bytes) -> dict[str, Any]:
    """Public keys by `kid`, from a JWKS document."""
    document = json.loads(data)
    if not isinstance(document, dict):
        raise ValueError("a JWKS document is a JSON object")
    keys: dict[str, Any] = {}
    for entry in document.get("keys", []):
        if entry.get("kty") != "OKP" or entry.get("crv") != "Ed25519" or "kid" not in entry:
            continue
        keys[entry["kid"]] = jwt.PyJWK.from_dict(entry, algorithm="EdDSA").key
    return keys


class JwksSource:
    """The public keys of the JWKS file a server was started with, kept current while it runs.

    Keys change under a running server in two ways, and each is picked up by its own trigger:

    - Rotation adds a key. `delegation_keys rotate` publishes the new JWKS (a whole new file put
      in place by rename) before Django signs with the new key, so a token naming a `kid` this
      source does not know may name a key published since the last read. Before such a token is
      refused, the source stats the file and re-reads it if it changed (a rename gives a new
      inode, a rewrite in place a new mtime, ctime or size), then the lookup is tried once more.
      A stat is cheaper than the token decoding that precedes it, and the file changes only when
      an operator writes it, so a flood of made-up kids costs one stat each and no read. A re-read
      whatever the stat says (for a rewrite the stat cannot see: same size within one timestamp
      tick on a coarse filesystem) is done only when the last read is `interval` old.
    - Removal drops a key, and a removed key is still a known one, so its tokens would never
      trigger that look. So `current()` also looks once the last look is `interval` old: a
      removal is honoured within `interval`, for one stat per interval, and a file read only
      when it has changed.

    A re-read that fails (the file missing, or not a JWKS, e.g. half-written by a tool that does
    not write by rename) keeps the last good keys and logs a warning; the file is read again once
    it changes, or by the once-per-interval re-read. At start (`load`) a bad file is an error.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None,
        *,
        interval: float = JWKS_CHECK_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        keys: Mapping[str, Any] | None = None,
    ) -> None:
        self.path = None if path is None else Path(path)
        self.interval = interval
        self._clock = clock
        self._keys: dict[str, Any] = dict(keys or {})
        self._stamp: tuple[int, ...] | None = None
        self._looked_at = clock()
        self._read_at = -math.inf
        self._lock = threading.Lock()
        # Observed by tests: how often the file was stat'ed and read since start.
        self.looks = 0
        self.reads = 0

    @classmethod
    def fixed(cls, keys: Mapping[str, Any]) -> JwksSource:
        """Keys given in code, never reloaded."""
        return cls(None, keys=keys)

    def load(self) -> dict[str, Any]:
        """The first read; raises when the file is missing or not a JWKS."""
        if self.path is not None:
            with self._lock:
                self._keys, self._stamp = self._read()
                self._looked_at = self._read_at = self._clock()
        return self._keys

    def current(self) -> dict[str, Any]:
        """The keys, after a look at the file when the last one is `interval` old."""
        if self.path is not None and self._clock() - self._looked_at >= self.interval:
            with self._lock:
                if self._clock() - self._looked_at >= self.interval:
                    self._look(force=False)
        return self._keys

    def key_for_unknown(self, kid: str) -> Any | None:
        """The key for a `kid` missing from `current()`, after a look at the file (once per call);
        None when it is still unknown."""
        if self.path is None:
            return None
        with self._lock:
            if kid not in self._keys:  # another call may have reloaded while this one waited
                self._look(force=True)
            return self._keys.get(kid)

    def _look(self, *, force: bool) -> None:
        """Stat the file and re-read it if it changed, or, when `force` and the last read is
        `interval` old, even if it did not. Callers hold the lock."""
        assert self.path is not None
        now = self._clock()
        self._looked_at = now
        self.looks += 1
        try:
            stamp: tuple[int, ...] | None = _stamp(os.stat(self.path))
        except OSError:
            stamp = None
        if stamp == self._stamp and (not force or now - self._read_at < self.interval):
            return
        self._read_at = now
        try:
            self._keys, self._stamp = self._read()
        except (OSError, ValueError, TypeError, AttributeError, jwt.PyJWTError) as exc:
            # Recorded, so an unchanged bad file is not read again on every unknown kid.
            self._stamp = stamp
            logger.warning(
                "delegation keys not reloaded from %s, keeping the last: %s", self.path, exc
            )
            return
        logger.info("delegation keys reloaded from %s: %s", self.path, ", ".join(self._keys))

    def _read(self) -> tuple[dict[str, Any], tuple[int, ...]]:
        assert self.path is not None
        self.reads += 1
        with open(self.path, "rb") as handle:
            # The stamp of the very file read (fstat before reading): a newer file put in place
            # after this has another stamp, so the next look cannot mistake it for this one.
            stamp = _stamp(os.fstat(handle.fileno()))
            data = handle.read()
        return _parse_jwks(data), stamp


def _stamp(stat: os.stat_result) -> tuple[int, ...]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


class DelegationVerifier:
    """Checks a token up to (but not including) `jti` use, `scope` and `campaign`."""

    def __init__(
        self,
        keys: Mapping[str, Any] | JwksSource,
        audience: str,
        issuer: str = DEFAULT_ISSUER,
    ) -> None:
        self.source = keys if isinstance(keys, JwksSource) else JwksSource.fixed(keys)
        self.audience = audience
        self.issuer = issuer

    @property
    def keys(self) -> dict[str, Any]:
        return self.source.current()

    @property
    def has_keys(self) -> bool:
        return bool(self.keys)

    def verify(self, token: Any, now: float | None = None) -> Delegation:
        keys = self.source.current()
        if not keys:
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
        except (ValueError, TypeError, RecursionError):
            # Read before any signature is checked: whatever anyone sends here is a refusal,
            # never a fault (the size cap still lets a header nest past the parser's depth).
            raise denied("delegation token is not a compact JWS") from None
        if not isinstance(header, dict):
            raise denied("delegation token header is not an object")
        if header.get("alg") != "EdDSA" or header.get("typ") != TOKEN_TYPE:
            raise denied(f"delegation token header must be alg EdDSA and typ {TOKEN_TYPE}")
        kid = header.get("kid")
        if not isinstance(kid, str):
            # A list or object would not even be a valid map key: refuse before the lookup.
            raise denied("delegation token kid must be a string")
        key = keys.get(kid)
        if key is None:
            # Perhaps published since the last read (a rotation): look at the file once more.
            key = self.source.key_for_unknown(kid)
        if key is None:
            raise denied("delegation token kid is unknown")
        try:
            key.verify(signature, f"{parts[0]}.{parts[1]}".encode("ascii"))
        except (InvalidSignature, UnicodeEncodeError):
            raise denied("delegation token signature is invalid") from None
        try:
            claims = json.loads(_b64decode(parts[1]))
        except (ValueError, TypeError, RecursionError):
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
    turn = claims.get("turn")
    # The event log stores these in columns of MAX_CLAIM_LENGTH: longer would fail at the save.
    for name, value in (
        ("sub", sub),
        ("act.sub", act.get("sub") if isinstance(act, dict) else None),
        ("turn", turn),
    ):
        if isinstance(value, str) and len(value) > MAX_CLAIM_LENGTH:
            raise denied(f"delegation token {name} is longer than {MAX_CLAIM_LENGTH} characters")
    if not isinstance(sub, str) or not _PRINCIPAL.fullmatch(sub):
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
    owner, character = claims.get("owner"), claims.get("character")
    if character is not None and not isinstance(character, str):
        # Read as absent, it would let the token act as any character the requester controls.
        raise denied("delegation token character must be a string")
    for name, value in (("owner", owner), ("turn", turn)):
        if value is not None and not isinstance(value, str):
            raise denied(f"delegation token {name} must be a string")
    view = claims.get("view")
    if view is not None and (not isinstance(view, str) or view not in VIEWS):
        # Fail closed: a view this server does not know must not answer with a wider one.
        raise denied(f"delegation token view must be one of: {', '.join(sorted(VIEWS))}")
    return Delegation(
        requester=sub,
        actor=act["sub"],
        owner=owner,
        character=character,
        campaign=campaign,
        turn=turn,
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
