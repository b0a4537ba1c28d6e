"""What logs are told when a domain server is unreachable: no log line carries a password."""

from __future__ import annotations

import sys

import pytest
from django.test import override_settings

from apps.domains.client import domain_call, domain_connections_close
from apps.domains.errors import DomainUnavailable
from domain_servers.common.testing import REPO_ROOT, free_port
from tests.domains.conftest import DND5E_PLUGIN, domains_setting

pytestmark = pytest.mark.django_db


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
                domain_call(
                    system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                    campaign_id="c-1",
                )  # fmt: skip
        finally:
            domain_connections_close()
    assert caught.value.message == "The dnd5e rules server is unavailable."
    [line] = [m for m in caplog.messages if m.startswith("The dnd5e rules server at ")]
    assert line.startswith(
        f"The dnd5e rules server at {sys.executable} -c raise SystemExit(3) "
        "--db postgresql://dnd:***@db.internal:5432/dnd5e "
        "--cache redis://:***@cache.internal:6379/0 --jwks /srv/jwks.json is unavailable: "
    )
    for secret in ("s3cr", "et@p", "hunter2"):
        assert secret not in line


def test_the_outage_log_hides_a_password_in_a_server_url(user, caplog):
    port = free_port()
    url = f"http://web:pa55word@127.0.0.1:{port}/mcp"
    with override_settings(SAGASMITH_DOMAINS=domains_setting(url)):
        with pytest.raises(DomainUnavailable):
            domain_call(
                system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                campaign_id="c-1",
            )  # fmt: skip
    [line] = [m for m in caplog.messages if m.startswith("The dnd5e rules server at ")]
    assert line.startswith(
        f"The dnd5e rules server at http://web:***@127.0.0.1:{port}/mcp is unavailable: "
    )
    assert "pa55word" not in line
