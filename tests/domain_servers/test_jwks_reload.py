"""A running server follows its JWKS file: a rotated-in kid verifies on its first token, a removed
one stops verifying within the check interval, and a flood of made-up kids reads nothing."""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from pathlib import Path

import pytest

from domain_servers.common import delegation as delegation_module
from domain_servers.common.delegation import DelegationVerifier, JwksSource
from domain_servers.common.errors import DomainError
from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    SyncClient,
    delegation_meta,
    mint_token,
)

AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:00000000-0000-4000-8000-000000000001"
INTERVAL = 5.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def publish(path: Path, keys: list[SigningKey]) -> None:
    """Replace the JWKS by rename, as `delegation_keys` does."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    temporary.write_text(json.dumps({"keys": [k.public_jwk() for k in keys]}))
    os.replace(temporary, path)


def token(key: SigningKey, kid: str | None = None) -> str:
    return mint_token(
        key, audience=AUDIENCE, sub=OWNER, campaign="c1", scope=["campaign_get"], kid=kid
    )


def refusal(verifier: DelegationVerifier, signed: str) -> str:
    with pytest.raises(DomainError) as caught:
        verifier.verify(signed)
    assert caught.value.code == "authorization_denied"
    return caught.value.message


@pytest.fixture
def keys() -> tuple[SigningKey, SigningKey]:
    return SigningKey.generate("web-old"), SigningKey.generate("web-new")


@pytest.fixture
def jwks(tmp_path, keys) -> Path:
    path = tmp_path / "jwks.json"
    publish(path, [keys[0]])
    return path


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def source(jwks, clock) -> JwksSource:
    loaded = JwksSource(jwks, interval=INTERVAL, clock=clock)
    assert list(loaded.load()) == ["web-old"]
    return loaded


def test_a_rotated_in_kid_verifies_on_its_first_token(source, jwks, keys) -> None:
    old, new = keys
    verifier = DelegationVerifier(source, AUDIENCE)
    publish(jwks, [new, old])
    assert verifier.verify(token(new)).requester == OWNER
    assert (source.looks, source.reads) == (1, 2)
    assert verifier.verify(token(old)).requester == OWNER  # the old kid stays until removed
    assert (source.looks, source.reads) == (1, 2)


def test_made_up_kids_cost_a_stat_each_and_one_read_per_interval(source, keys, clock) -> None:
    verifier = DelegationVerifier(source, AUDIENCE)
    for _ in range(50):
        assert refusal(verifier, token(keys[0], kid=uuid.uuid4().hex)) == (
            "delegation token kid is unknown"
        )
    # The file never changed after the load, and the load is not yet `interval` old.
    assert (source.looks, source.reads) == (50, 1)
    clock.now += INTERVAL - 0.1
    refusal(verifier, token(keys[0], kid="made-up"))
    assert (source.looks, source.reads) == (51, 1)
    clock.now += 0.1
    refusal(verifier, token(keys[0], kid="made-up"))  # one re-read whatever the stat says
    assert (source.looks, source.reads) == (52, 2)
    for _ in range(10):
        refusal(verifier, token(keys[0], kid="made-up"))
    assert (source.looks, source.reads) == (62, 2)


def test_a_removed_kid_stops_verifying_once_the_interval_is_over(source, jwks, keys, clock):
    old, new = keys
    verifier = DelegationVerifier(source, AUDIENCE)
    publish(jwks, [new, old])
    assert verifier.verify(token(new)).requester == OWNER
    publish(jwks, [new])
    clock.now += INTERVAL - 0.1
    # Known until the next look: a known kid makes no look before the interval is over.
    assert verifier.verify(token(old)).requester == OWNER
    assert (source.looks, source.reads) == (1, 2)
    clock.now += 0.1
    assert refusal(verifier, token(old)) == "delegation token kid is unknown"
    assert list(source.current()) == ["web-new"]
    assert verifier.verify(token(new)).requester == OWNER


def test_an_unchanged_file_is_stat_not_read_on_each_interval(source, keys, clock) -> None:
    verifier = DelegationVerifier(source, AUDIENCE)
    for _ in range(3):
        clock.now += INTERVAL
        assert verifier.verify(token(keys[0])).requester == OWNER
    assert (source.looks, source.reads) == (3, 1)


def test_a_rewrite_the_stat_cannot_see_is_found_by_the_rate_limited_reread(
    source, jwks, keys, clock, monkeypatch
) -> None:
    old, new = keys
    verifier = DelegationVerifier(source, AUDIENCE)
    # Every stat alike: a rewrite within one timestamp tick of a coarse filesystem.
    monkeypatch.setattr(delegation_module, "_stamp", lambda stat: (1,))
    source.load()
    publish(jwks, [new, old])
    assert refusal(verifier, token(new)) == "delegation token kid is unknown"  # read just now
    clock.now += INTERVAL
    assert verifier.verify(token(new)).requester == OWNER  # the re-read found it
    third = SigningKey.generate("web-third")
    publish(jwks, [third, new, old])
    clock.now += INTERVAL - 0.1
    assert refusal(verifier, token(third)) == "delegation token kid is unknown"
    clock.now += 0.1
    assert verifier.verify(token(third)).requester == OWNER


def test_a_bad_file_keeps_the_last_keys_and_is_read_once(source, jwks, keys, caplog) -> None:
    verifier = DelegationVerifier(source, AUDIENCE)
    temporary = jwks.with_name("half-written.tmp")
    temporary.write_text('{"keys": [{"kty": "OKP", "crv"')
    os.replace(temporary, jwks)
    with caplog.at_level(logging.WARNING, logger="domain_servers.common.delegation"):
        for _ in range(5):
            refusal(verifier, token(keys[0], kid="made-up"))
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        f"delegation keys not reloaded from {jwks}, keeping the last"
    ]
    assert (source.looks, source.reads) == (5, 2)
    assert verifier.verify(token(keys[0])).requester == OWNER
    publish(jwks, [keys[1]])
    assert verifier.verify(token(keys[1])).requester == OWNER


def test_a_missing_file_keeps_the_last_keys(source, jwks, keys, clock) -> None:
    verifier = DelegationVerifier(source, AUDIENCE)
    jwks.unlink()
    clock.now += INTERVAL
    assert verifier.verify(token(keys[0])).requester == OWNER
    assert (source.looks, source.reads) == (1, 2)


def test_fixed_keys_never_look_at_a_file(keys) -> None:
    old = keys[0]
    verifier = DelegationVerifier({old.kid: old.private_key.public_key()}, AUDIENCE)
    assert refusal(verifier, token(old, kid="made-up")) == "delegation token kid is unknown"
    assert (verifier.source.looks, verifier.source.reads) == (0, 0)


# -- a real server process ---------------------------------------------------------------------


class Server:
    def __init__(self, tmp_path: Path, jwks: Path, interval: float) -> None:
        self.process = HttpServerProcess(
            "domain_servers.dnd5e",
            f"sqlite:///{tmp_path}/dnd5e.sqlite3",
            str(jwks),
            extra=["--jwks-check-interval", str(interval)],
        )
        self.client = SyncClient(self.process.url, timeout=10)

    def create(self, key: SigningKey) -> str:
        campaign = f"c-{uuid.uuid4().hex[:12]}"
        signed = mint_token(
            key, audience=AUDIENCE, sub=OWNER, campaign=campaign, scope=["campaign_create"]
        )
        arguments = {
            "campaign_id": campaign,
            "name": "Reload",
            "expected_revision": 0,
            "idempotency_key": "k",
        }
        result = self.client.call("campaign_create", arguments, delegation_meta(signed))
        assert not result.is_error, result.structured_content
        return campaign

    def get(self, key: SigningKey, campaign: str, kid: str | None = None):
        signed = mint_token(
            key, audience=AUDIENCE, sub=OWNER, campaign=campaign, scope=["campaign_get"], kid=kid
        )
        return self.client.call("campaign_get", {"campaign_id": campaign}, delegation_meta(signed))

    def close(self) -> None:
        self.client.close()
        self.process.stop()


def error_of(result) -> dict:
    assert result.is_error, result.structured_content
    return result.structured_content["error"]


@pytest.fixture
def slow_server(tmp_path, jwks):
    """A server that looks at its file on its own only every ten minutes."""
    server = Server(tmp_path, jwks, interval=600)
    yield server
    server.close()


def test_server_rotation_without_restart_and_a_made_up_kid_refused(slow_server, jwks, keys):
    old, new = keys
    campaign = slow_server.create(old)
    publish(jwks, [new, old])
    read = slow_server.get(new, campaign)
    assert not read.is_error, read.structured_content
    assert read.structured_content["authority_revision"] == 1
    refused = slow_server.get(new, campaign, kid=f"web-{uuid.uuid4().hex}")
    assert (error_of(refused)["code"], error_of(refused)["message"]) == (
        "authorization_denied",
        "delegation token kid is unknown",
    )
    assert not slow_server.get(old, campaign).is_error


def test_server_looks_at_a_known_kid_only_once_the_interval_is_over(slow_server, jwks, keys):
    old, new = keys
    campaign = slow_server.create(old)
    publish(jwks, [new, old])
    assert not slow_server.get(new, campaign).is_error
    publish(jwks, [new])
    # A known kid makes no look at the file before the (ten-minute) interval is over ...
    assert not slow_server.get(old, campaign).is_error
    # ... but an unknown one does, and that look sees the removal too.
    assert error_of(slow_server.get(new, campaign, kid="made-up"))["code"] == (
        "authorization_denied"
    )
    assert error_of(slow_server.get(old, campaign))["message"] == "delegation token kid is unknown"
    assert not slow_server.get(new, campaign).is_error


def test_server_honours_a_removal_within_the_interval(tmp_path, jwks, keys):
    old, new = keys
    server = Server(tmp_path, jwks, interval=1.0)
    try:
        campaign = server.create(old)
        publish(jwks, [new, old])
        assert not server.get(new, campaign).is_error
        publish(jwks, [new])
        removed_at = time.monotonic()
        while not (result := server.get(old, campaign)).is_error:
            assert time.monotonic() - removed_at < 1.0 + 2.0, "the removed kid still verifies"
            time.sleep(0.05)
        assert error_of(result)["message"] == "delegation token kid is unknown"
        assert not server.get(new, campaign).is_error
    finally:
        server.close()
