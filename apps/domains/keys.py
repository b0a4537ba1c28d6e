"""Ed25519 keys that sign delegation tokens, and the JWKS that publishes their public halves.

Two sources, decided by `SAGASMITH_DELEGATION_PRIVATE_KEYS`:

- set (production): a JSON list of `{"kid", "private"}` entries, newest first; `private` is a
  PKCS#8 PEM or the base64 of the 32 raw seed bytes. The first entry signs; every entry is
  published, so an operator rotates by prepending a key and removes the old one later.
- unset (local): keys live in the key directory (`var/keys/` by default), one PEM per `kid`, with
  `keyring.json` listing the kids newest first and `jwks.json` rewritten whenever they change.
  A first use generates the first key.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

try:  # POSIX file locks keep two local processes from generating keys at once.
    import fcntl
except ImportError:  # pragma: no cover - Windows: run_local creates the keys before any child
    fcntl = None  # type: ignore[assignment]

PRIVATE_KEYS_ENV = "SAGASMITH_DELEGATION_PRIVATE_KEYS"
KEYRING_FILE = "keyring.json"
JWKS_FILE = "jwks.json"


class KeyringError(Exception):
    """A key operation that cannot be done (unknown kid, last key, environment-managed keys)."""


@dataclass(frozen=True)
class SigningKey:
    kid: str
    private_key: Ed25519PrivateKey

    def public_jwk(self) -> dict[str, str]:
        raw = self.private_key.public_key().public_bytes_raw()
        return {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii"),
            "kid": self.kid,
            "alg": "EdDSA",
            "use": "sig",
        }


@dataclass(frozen=True)
class Keyring:
    keys: tuple[SigningKey, ...]  # newest first
    source: str  # "environment" or "files"

    @property
    def active(self) -> SigningKey:
        return self.keys[0]

    def get(self, kid: str) -> SigningKey:
        for key in self.keys:
            if key.kid == kid:
                return key
        raise KeyringError(f"no delegation key with kid {kid!r}")

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        return {"keys": [key.public_jwk() for key in self.keys]}


# -- configuration ------------------------------------------------------------------------------


def key_directory() -> Path:
    configured = getattr(settings, "SAGASMITH_DELEGATION_KEY_DIR", None)
    return Path(configured) if configured else Path(settings.VAR_DIR) / "keys"


def _env_value() -> str:
    configured = getattr(settings, "SAGASMITH_DELEGATION_PRIVATE_KEYS", None)
    if configured is None:
        configured = os.environ.get(PRIVATE_KEYS_ENV, "")
    return configured.strip()


def _parse_private(value: str, kid: str) -> Ed25519PrivateKey:
    value = value.strip()
    if value.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(value.encode("ascii"), password=None)
    else:
        raw = _b64_or_empty(value)
        if len(raw) != 32:
            raise ImproperlyConfigured(
                f"{PRIVATE_KEYS_ENV}: key {kid!r} is neither a PEM nor 32 base64 bytes"
            )
        key = Ed25519PrivateKey.from_private_bytes(raw)
    if not isinstance(key, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"{PRIVATE_KEYS_ENV}: key {kid!r} is not an Ed25519 key")
    return key


def _b64_or_empty(value: str) -> bytes:
    padded = value + "=" * (-len(value) % 4)
    try:
        # Standard and URL-safe alphabets are both accepted: operators paste either.
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return b""


def private_keys_check(value: str) -> None:
    """Raise ImproperlyConfigured unless `value` is a usable SAGASMITH_DELEGATION_PRIVATE_KEYS
    (production settings call it, so a malformed key stops the process at start, not at the
    first turn)."""
    _keyring_from_env(value)


def _keyring_from_env(value: str) -> Keyring:
    try:
        entries = json.loads(value)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{PRIVATE_KEYS_ENV} is not JSON: {exc}") from None
    if not isinstance(entries, list) or not entries:
        raise ImproperlyConfigured(f"{PRIVATE_KEYS_ENV} must be a non-empty JSON list")
    keys: list[SigningKey] = []
    for entry in entries:
        if not isinstance(entry, dict) or not {"kid", "private"} <= set(entry):
            raise ImproperlyConfigured(f"{PRIVATE_KEYS_ENV} entries need kid and private")
        kid = str(entry["kid"])
        if any(k.kid == kid for k in keys):
            raise ImproperlyConfigured(f"{PRIVATE_KEYS_ENV} lists kid {kid!r} twice")
        keys.append(SigningKey(kid, _parse_private(str(entry["private"]), kid)))
    return Keyring(tuple(keys), "environment")


# -- local key files --------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "a") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _write_atomic(path: Path, data: bytes, mode: int) -> None:
    """Replace `path` by rename, so a reader (a running domain server re-reading its JWKS) sees
    the old file or the new one, never a half-written one."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())  # the content is on disk before the name points at it
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _read_kids(directory: Path) -> list[str]:
    path = directory / KEYRING_FILE
    if not path.exists():
        return []
    return list(json.loads(path.read_text())["kids"])


def _load_files(directory: Path, kids: list[str]) -> Keyring:
    keys = []
    for kid in kids:
        pem = (directory / f"{kid}.pem").read_bytes()
        private = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(private, Ed25519PrivateKey):
            raise ImproperlyConfigured(f"{directory / kid}.pem is not an Ed25519 key")
        keys.append(SigningKey(kid, private))
    return Keyring(tuple(keys), "files")


def _save_files(directory: Path, kids: list[str]) -> Keyring:
    """Write the JWKS, then the keyring order; callers hold the directory lock.

    The JWKS first: Django processes sign with whatever `keyring.json` names first, so a new key
    is published (a running domain server re-reads the file on a kid it does not know) before
    any token carries it.
    """
    ring = _load_files(directory, kids)
    _write_atomic(directory / JWKS_FILE, json.dumps(ring.jwks(), indent=2).encode(), 0o644)
    body = json.dumps({"kids": kids}, indent=2).encode()
    _write_atomic(directory / KEYRING_FILE, body, 0o600)
    return ring


def _new_kid() -> str:
    # Sortable by creation day and unique without coordination.
    return f"web-{datetime.now(tz=UTC):%Y%m%d}-{secrets.token_hex(3)}"


def _generate(directory: Path) -> str:
    kid = _new_kid()
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    _write_atomic(directory / f"{kid}.pem", pem, 0o600)
    return kid


# -- the cached keyring ------------------------------------------------------------------------

_cache_lock = threading.Lock()
_cache: dict[str, Any] = {"stamp": None, "ring": None}


def _stamp() -> tuple[Any, ...]:
    env = _env_value()
    if env:
        return ("environment", env)
    directory = key_directory()
    try:
        stat = (directory / KEYRING_FILE).stat()
    except FileNotFoundError:
        return ("files", str(directory), None)
    return ("files", str(directory), stat.st_mtime_ns, stat.st_size, stat.st_ino)


def keyring() -> Keyring:
    """The current keys, newest first; generates the first local key on first use.

    Reloaded when the environment value or the local keyring file changes, so a rotation by
    the management command reaches running processes without a restart.
    """
    stamp = _stamp()
    with _cache_lock:
        if _cache["stamp"] == stamp and _cache["ring"] is not None:
            return _cache["ring"]
    if stamp[0] == "environment":
        ring = _keyring_from_env(stamp[1])
    else:
        directory = key_directory()
        with _locked(directory):
            kids = _read_kids(directory)
            if kids:
                ring = _load_files(directory, kids)
                if not (directory / JWKS_FILE).exists():
                    _save_files(directory, kids)
            else:
                ring = _save_files(directory, [_generate(directory)])
        stamp = _stamp()
    with _cache_lock:
        _cache["stamp"], _cache["ring"] = stamp, ring
    return ring


def active_key() -> SigningKey:
    return keyring().active


def public_jwks() -> dict[str, list[dict[str, str]]]:
    return keyring().jwks()


def _require_files(action: str) -> Path:
    if _env_value():
        raise KeyringError(
            f"keys come from {PRIVATE_KEYS_ENV}; {action} them by editing that variable "
            "(newest first) and redeploying"
        )
    return key_directory()


def key_rotate(*, staged: bool = False) -> SigningKey:
    """Generate a key; it signs from now on, or only after `key_activate` when `staged`.

    A staged key is published at once, so verifiers can load it before it signs anything.
    Raises KeyringError when keys come from the environment.
    """
    directory = _require_files("rotate")
    keyring()  # a first rotation on a fresh checkout still keeps the generated first key
    with _locked(directory):
        kids = _read_kids(directory)
        kid = _generate(directory)
        kids = [kids[0], kid, *kids[1:]] if staged and kids else [kid, *kids]
        ring = _save_files(directory, kids)
    return ring.get(kid)


def key_activate(*, kid: str) -> SigningKey:
    """Make an existing kid the signing key. Raises KeyringError for an unknown kid."""
    directory = _require_files("activate")
    with _locked(directory):
        kids = _read_kids(directory)
        if kid not in kids:
            raise KeyringError(f"no delegation key with kid {kid!r}")
        ring = _save_files(directory, [kid, *[k for k in kids if k != kid]])
    return ring.get(kid)


def key_remove(*, kid: str) -> None:
    """Unpublish and delete a key. Raises KeyringError for the active or an unknown kid."""
    directory = _require_files("remove")
    with _locked(directory):
        kids = _read_kids(directory)
        if kid not in kids:
            raise KeyringError(f"no delegation key with kid {kid!r}")
        if kids[0] == kid:
            raise KeyringError(f"{kid} is the active key; rotate first, then remove it")
        _save_files(directory, [k for k in kids if k != kid])
        (directory / f"{kid}.pem").unlink(missing_ok=True)


def jwks_write(*, path: Path | None = None) -> Path:
    """Write the public JWKS (to the key directory unless `path` is given) and return its path."""
    target = path or key_directory() / JWKS_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(target, json.dumps(public_jwks(), indent=2).encode(), 0o644)
    return target


def ensure_local_keys() -> Path:
    """Make sure a signing key and its JWKS file exist; returns the JWKS path for `--jwks`."""
    keyring()
    return jwks_write()
