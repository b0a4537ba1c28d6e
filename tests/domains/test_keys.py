"""Signing keys: local files, the environment, the management command and the JWKS endpoint."""

from __future__ import annotations

import base64
import json
from io import StringIO

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.domains.keys import active_key, ensure_local_keys, keyring, public_jwks


def x_of(private: Ed25519PrivateKey) -> str:
    raw = private.public_key().public_bytes_raw()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def local_keys(settings, tmp_path):
    settings.SAGASMITH_DELEGATION_KEY_DIR = str(tmp_path / "keys")
    settings.SAGASMITH_DELEGATION_PRIVATE_KEYS = ""
    return tmp_path / "keys"


def test_first_use_generates_a_key_and_jwks(local_keys):
    jwks_path = ensure_local_keys()
    assert jwks_path == local_keys / "jwks.json"
    key = active_key()
    assert json.loads(jwks_path.read_text()) == {
        "keys": [
            {"kty": "OKP", "crv": "Ed25519", "x": x_of(key.private_key), "kid": key.kid,
             "alg": "EdDSA", "use": "sig"},
        ]
    }  # fmt: skip
    assert (local_keys / f"{key.kid}.pem").stat().st_mode & 0o777 == 0o600
    assert ensure_local_keys() == jwks_path
    assert active_key().kid == key.kid  # a second start keeps the same key


def test_environment_keys_newest_first(settings, tmp_path):
    newest, older = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    pem = newest.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()  # fmt: skip
    raw = base64.b64encode(older.private_bytes_raw()).decode()
    settings.SAGASMITH_DELEGATION_KEY_DIR = str(tmp_path / "unused")
    settings.SAGASMITH_DELEGATION_PRIVATE_KEYS = json.dumps(
        [{"kid": "prod-2", "private": pem}, {"kid": "prod-1", "private": raw}]
    )
    ring = keyring()
    assert ring.source == "environment"
    assert [k.kid for k in ring.keys] == ["prod-2", "prod-1"]
    assert active_key().kid == "prod-2"
    assert [k["x"] for k in public_jwks()["keys"]] == [x_of(newest), x_of(older)]
    assert not (tmp_path / "unused").exists()
    with pytest.raises(CommandError, match="keys come from SAGASMITH_DELEGATION_PRIVATE_KEYS"):
        call_command("delegation_keys", "rotate", stdout=StringIO())


def test_bad_environment_keys_are_refused(settings):
    settings.SAGASMITH_DELEGATION_PRIVATE_KEYS = json.dumps([{"kid": "a", "private": "short"}])
    with pytest.raises(ImproperlyConfigured, match="neither a PEM nor 32 base64 bytes"):
        keyring()


def test_list_and_remove_rules(local_keys):
    first = active_key()
    call_command("delegation_keys", "rotate", stdout=StringIO())
    second = active_key()
    out = StringIO()
    call_command("delegation_keys", "list", stdout=out)
    assert out.getvalue() == f"{second.kid}\tactive\tfiles\n{first.kid}\tpublished\tfiles\n"
    with pytest.raises(CommandError, match="is the active key; rotate first"):
        call_command("delegation_keys", "remove", second.kid, stdout=StringIO())
    with pytest.raises(CommandError, match="no delegation key with kid 'nope'"):
        call_command("delegation_keys", "remove", "nope", stdout=StringIO())


def test_write_jwks_to_a_path(local_keys, tmp_path):
    out = StringIO()
    target = tmp_path / "served" / "jwks.json"
    call_command("delegation_keys", "write-jwks", "--path", str(target), stdout=out)
    assert out.getvalue() == f"{target}\n"
    assert json.loads(target.read_text()) == public_jwks()


@pytest.mark.django_db
def test_jwks_endpoint_is_public_json_with_cache_headers(local_keys, client):
    call_command("delegation_keys", "rotate", stdout=StringIO())
    ring = keyring()
    response = client.get("/.well-known/sagasmith/jwks.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "public, max-age=300"
    assert response.json() == {
        "keys": [
            {"kty": "OKP", "crv": "Ed25519", "x": x_of(k.private_key), "kid": k.kid,
             "alg": "EdDSA", "use": "sig"}
            for k in ring.keys
        ]
    }  # fmt: skip
    assert len(response.json()["keys"]) == 2
    assert client.post("/.well-known/sagasmith/jwks.json").status_code == 405
