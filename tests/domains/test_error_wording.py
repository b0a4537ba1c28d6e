"""What players and logs are told when a domain server breaks the contract or is unreachable:
players get a fixed message, operators get the raw reason, and no log line carries a password."""

from __future__ import annotations

import json
import sys
import threading
import uuid

import pytest
from django.test import override_settings

from apps.domains.client import domain_call, domain_connections_close
from apps.domains.errors import DomainProtocolError, DomainTimeout, DomainUnavailable
from domain_servers.common.testing import REPO_ROOT
from tests.domains.conftest import DND5E_PLUGIN, domains_setting
from tests.domains.gateway import Gateway

pytestmark = pytest.mark.django_db

INTERNAL = "http://10.20.30.40:8443/internal/dnd5e/mcp"


def campaign_get(user, campaign_id: str):
    """Read the campaign from the dnd5e rules server, as the room does first."""
    return domain_call(
        system_id="dnd5e",
        tool="campaign_get",
        arguments={},
        requester=user,
        campaign_id=campaign_id,
    )


def redirecting_gateway(upstream: str) -> Gateway:
    """Tool calls redirected to an internal address the client must not follow (another
    origin); everything else forwarded."""
    return Gateway(upstream, lambda: (307, {"Location": INTERNAL}, b""))


def test_an_unfollowed_redirect_tells_players_nothing_of_the_internal_address(
    domain_env, user, caplog
):
    gateway = redirecting_gateway(domain_env.server.url)
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url)):
            with pytest.raises(DomainProtocolError) as caught:
                campaign_get(user, f"c-{uuid.uuid4().hex[:12]}")
    finally:
        domain_connections_close()
        gateway.close()
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_protocol_error", 502, False)
    assert error.message == (
        "The D&D 5e (SRD 5.1) rules server gave an answer that this site cannot use."
    )
    # The message and the details reach players (the API envelope, a job's error, the room).
    assert INTERNAL not in json.dumps(error.as_envelope())
    assert error.details == {"system_id": "dnd5e", "tool": "campaign_get", "rpc_code": -32600}
    assert (
        f"The dnd5e rules server at {gateway.url} answered campaign_get outside the contract: "
        f"Redirect to {INTERNAL} not followed; use that URL as the endpoint if it is the intended "
        "server (JSON-RPC -32600)"
    ) in caplog.messages


def test_the_outage_log_hides_a_database_password_on_the_servers_command_line(user, caplog):
    command = [
        sys.executable, "-c", "raise SystemExit(3)",
        "--db", "postgresql://dnd:s3cr:et@p@db.internal:5432/dnd5e",
        "--cache", "redis://:hunter2@cache.internal:6379/0",
        "--jwks", "/srv/jwks.json",
    ]  # fmt: skip
    setting = {"dnd5e": {"plugin": DND5E_PLUGIN, "command": command, "cwd": str(REPO_ROOT)}}
    with override_settings(SAGASMITH_DOMAINS=setting):
        try:
            with pytest.raises(DomainUnavailable) as caught:
                campaign_get(user, "c-1")
        finally:
            domain_connections_close()
    assert caught.value.message == "The D&D 5e (SRD 5.1) rules server is unavailable."
    [line] = [m for m in caplog.messages if m.startswith("The dnd5e rules server at ")]
    assert line.startswith(
        f"The dnd5e rules server at {sys.executable} -c raise SystemExit(3) "
        "--db postgresql://dnd:***@db.internal:5432/dnd5e "
        "--cache redis://:***@cache.internal:6379/0 --jwks /srv/jwks.json is unavailable: "
    )
    for secret in ("s3cr", "et@p", "hunter2"):
        assert secret not in line


def test_the_outage_log_hides_a_password_in_a_server_url(user, caplog, closed_port):
    url = f"http://web:pa55word@127.0.0.1:{closed_port}/mcp"
    with override_settings(SAGASMITH_DOMAINS=domains_setting(url)):
        with pytest.raises(DomainUnavailable):
            campaign_get(user, "c-1")
    [line] = [m for m in caplog.messages if m.startswith("The dnd5e rules server at ")]
    assert line.startswith(
        f"The dnd5e rules server at http://web:***@127.0.0.1:{closed_port}/mcp is unavailable: "
    )
    assert "pa55word" not in line


def test_a_plugin_shown_in_a_log_or_traceback_hides_its_passwords():
    from apps.domains.registry import HttpTarget, StdioTarget

    stdio = StdioTarget(command=("python", "-m", "domain_servers.dnd5e", "--db",
                                 "postgresql://dnd:s3cret@db.internal/dnd5e"))  # fmt: skip
    http = HttpTarget(url="http://web:pa55word@127.0.0.1:9/mcp")
    assert (
        stdio.describe()
        == "python -m domain_servers.dnd5e --db postgresql://dnd:***@db.internal/dnd5e"
    )
    assert http.describe() == "http://web:***@127.0.0.1:9/mcp"
    assert stdio.command[-1] == "postgresql://dnd:s3cret@db.internal/dnd5e"  # still used as is


def test_a_server_too_slow_to_answer_is_named_as_players_know_it_and_logged_for_operators(
    domain_env, user, caplog
):
    done = threading.Event()

    def slow():
        done.wait(10)  # past the one-second timeout below
        return 504, {}, b""

    gateway = Gateway(domain_env.server.url, slow)
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url, timeout=1)):
            with pytest.raises(DomainTimeout) as caught:
                campaign_get(user, f"c-{uuid.uuid4().hex[:12]}")
    finally:
        done.set()
        domain_connections_close()
        gateway.close()
    error = caught.value
    assert (error.code, error.retryable, error.message, error.details) == (
        "domain_timeout", True, "The D&D 5e (SRD 5.1) rules server did not answer in time.",
        {"system_id": "dnd5e", "tool": "campaign_get"},
    )  # fmt: skip
    assert [m for m in caplog.messages if m.startswith("The dnd5e rules server at ")] == [
        f"The dnd5e rules server at {gateway.url} did not answer campaign_get within 1.0 s."
    ]
