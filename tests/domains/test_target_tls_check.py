"""`check --deploy` warns of a domain server reached over plain HTTP off this host."""

from __future__ import annotations

import pytest
from django.core.checks import run_checks
from django.test import override_settings


def _deploy_warnings(domains: dict) -> list[tuple[str, str]]:
    with override_settings(SAGASMITH_DOMAINS=domains):
        return [(w.id, w.msg) for w in run_checks(tags=["domains"], include_deployment_checks=True)]


def test_a_remote_plain_http_target_is_a_deploy_warning():
    warnings = _deploy_warnings({"dnd5e": {"url": "http://rules.internal:8101/mcp"}})

    assert warnings == [
        (
            "sagasmith.W003",
            "SAGASMITH_DOMAINS['dnd5e'] reaches its domain server at rules.internal over plain "
            "HTTP: delegation tokens, tool arguments and game state cross the network "
            "unencrypted and unauthenticated",
        )
    ]


@pytest.mark.parametrize(
    "url",
    [
        "https://rules.example.com/mcp",
        "http://127.0.0.1:8101/mcp",
        "http://127.8.0.1:8101/mcp",
        "http://localhost:8101/mcp",
        "http://[::1]:8101/mcp",
    ],
)
def test_https_and_loopback_targets_are_fine(url):
    assert _deploy_warnings({"dnd5e": {"url": url}}) == []


def test_stdio_targets_are_fine():
    assert _deploy_warnings({"dnd5e": {"command": ["python", "-m", "domain_servers.dnd5e"]}}) == []


def test_the_warning_is_for_deployments_only():
    with override_settings(SAGASMITH_DOMAINS={"dnd5e": {"url": "http://rules.internal/mcp"}}):
        assert run_checks(tags=["domains"]) == []
