"""`delegation_keys` replaces the JWKS the local servers read, by rename and before Django signs
with a new key, so a running server follows a rotation without a restart."""

from __future__ import annotations

import json
import os
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from apps.domains import keys as keys_module
from apps.domains.client import delegation_mint, domain_call
from apps.domains.keys import active_key, ensure_local_keys, key_directory, keyring
from apps.domains.registry import get_plugin
from domain_servers.common.testing import SigningKey, mint_token
from tests.domains.conftest import error_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def local_keys(settings, tmp_path) -> Path:
    settings.SAGASMITH_DELEGATION_KEY_DIR = str(tmp_path / "keys")
    settings.SAGASMITH_DELEGATION_PRIVATE_KEYS = ""
    return tmp_path / "keys"


def kids(path: Path) -> list[str]:
    return [key["kid"] for key in json.loads(path.read_text())["keys"]]


def test_the_servers_jwks_is_the_file_rotate_rewrites(local_keys) -> None:
    # run_local starts every domain server with `--jwks <ensure_local_keys()>`.
    served = ensure_local_keys()
    assert served == key_directory() / "jwks.json" == local_keys / "jwks.json"
    out = StringIO()
    call_command("delegation_keys", "rotate", stdout=out)
    assert out.getvalue().splitlines()[1] == f"JWKS: {served}"
    assert kids(served) == [key.kid for key in keyring().keys]
    assert kids(served)[0] == active_key().kid


def test_rotate_publishes_the_jwks_before_django_signs_with_the_new_key(
    local_keys, monkeypatch
) -> None:
    ensure_local_keys()
    written: list[tuple[str, str]] = []
    write = keys_module._write_atomic

    def recording(path: Path, data: bytes, mode: int) -> None:
        written.append((path.name, data.decode()))
        write(path, data, mode)

    monkeypatch.setattr(keys_module, "_write_atomic", recording)
    call_command("delegation_keys", "rotate", stdout=StringIO())
    new = active_key()
    names = [name for name, _ in written]
    assert names[0].endswith(".pem")
    assert names[1:] == ["jwks.json", "keyring.json"]
    assert json.loads(written[1][1])["keys"][0]["kid"] == new.kid


@pytest.mark.parametrize("action", ["rotate", "write-jwks"])
def test_the_jwks_is_replaced_by_rename(local_keys, action) -> None:
    served = ensure_local_keys()
    before = served.stat().st_ino
    call_command("delegation_keys", action, stdout=StringIO())
    # A new inode: readers hold the old file or the new one, never one being written.
    assert served.stat().st_ino != before
    assert kids(served) == [key.kid for key in keyring().keys]
    assert sorted(p.name for p in local_keys.iterdir() if p.name.endswith(".tmp")) == []


def test_write_jwks_to_a_path_is_replaced_by_rename(local_keys, tmp_path) -> None:
    target = tmp_path / "published" / "jwks.json"
    call_command("delegation_keys", "write-jwks", "--path", str(target), stdout=StringIO())
    before = target.stat().st_ino
    call_command("delegation_keys", "write-jwks", "--path", str(target), stdout=StringIO())
    assert target.stat().st_ino != before
    assert kids(target) == [active_key().kid]
    assert [p.name for p in target.parent.iterdir()] == ["jwks.json"]


def test_a_failed_write_keeps_the_old_jwks_and_no_temporary(local_keys, monkeypatch) -> None:
    served = ensure_local_keys()
    before = served.read_text()

    def broken_replace(source: object, target: object) -> None:
        raise OSError("read-only file system")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="read-only file system"):
        keys_module.jwks_write()
    assert served.read_text() == before
    assert sorted(p.name for p in local_keys.iterdir() if p.name.endswith(".tmp")) == []


def test_after_a_rotation_a_made_up_kid_is_still_refused(domain_env, user) -> None:
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    domain_call(
        system_id="dnd5e", tool="campaign_create",
        arguments={"name": "Reload", "expected_revision": 0, "idempotency_key": "m"},
        requester=user, campaign_id=campaign_id,
    )  # fmt: skip
    call_command("delegation_keys", "rotate", stdout=StringIO())
    new = active_key()
    read = domain_call(
        system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
        campaign_id=campaign_id,
    )  # fmt: skip
    assert read.delegation_kid == new.kid

    # Signed by the active key, but naming a kid nobody published.
    made_up = delegation_mint(
        plugin=get_plugin("dnd5e"), tool="campaign_get", requester=user,
        campaign_id=campaign_id, base_rev=0,
        signing_key=keys_module.SigningKey(f"web-{uuid.uuid4().hex[:8]}", new.private_key),
    )  # fmt: skip
    refused = domain_env.server.raw_call(
        "campaign_get", {"campaign_id": campaign_id}, made_up.token
    )
    assert (error_of(refused)["code"], error_of(refused)["message"]) == (
        "authorization_denied",
        "delegation token kid is unknown",
    )
    # A key nobody holds, under a kid nobody published: refused the same way.
    stranger = SigningKey.generate(f"web-{uuid.uuid4().hex[:8]}")
    token = mint_token(
        stranger, audience="sagasmith-dnd5e", sub=f"user:{user.pk}", campaign=campaign_id,
        scope=["campaign_get"],
    )  # fmt: skip
    refused = domain_env.server.raw_call("campaign_get", {"campaign_id": campaign_id}, token)
    assert error_of(refused)["message"] == "delegation token kid is unknown"
