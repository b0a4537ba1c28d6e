"""Listing a domain server's tools through the client's public `domain_list_tools`: the pooled
connection and every failure classified as an outage (the deadline: test_catalog_recovery.py)."""

from __future__ import annotations

import logging

import pytest
from django.test import override_settings
from pydantic import TypeAdapter

from apps.domains import client as client_module
from apps.domains.client import domain_connections_close, domain_list_tools
from apps.domains.errors import DomainProtocolError, DomainUnavailable
from apps.domains.registry import get_plugin
from domain_servers.dnd5e import tools as dnd5e_tools
from tests.domains.conftest import domains_setting


def tool_names(plugin):
    return sorted(tool.name for tool in domain_list_tools(plugin))


def test_a_listing_answers_the_live_tools_over_the_pooled_connection(domain_env):
    plugin = get_plugin("dnd5e")
    try:
        names = tool_names(plugin)
        assert names == sorted(spec.name for spec in dnd5e_tools.tools())
        runtime = client_module._get_runtime()
        pooled = runtime.connections[(plugin.system_id, plugin.target, plugin.timeout)].client
        assert tool_names(plugin) == names
        assert runtime.connections[(plugin.system_id, plugin.target, plugin.timeout)].client is (
            pooled
        )
    finally:
        domain_connections_close()


def test_a_listing_from_an_unreachable_server_is_an_outage_naming_no_tool(
    domain_env, caplog, closed_port
):
    url = f"http://127.0.0.1:{closed_port}/mcp"
    with override_settings(SAGASMITH_DOMAINS=domains_setting(url)):
        with caplog.at_level(logging.WARNING), pytest.raises(DomainUnavailable) as caught:
            domain_list_tools(get_plugin("dnd5e"))
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_unavailable", 503, True)
    assert error.message == "The D&D 5e (SRD 5.1) rules server is unavailable."
    assert error.details == {"system_id": "dnd5e"}
    assert [m for m in caplog.messages if "is unavailable" in m] == [
        f"The dnd5e rules server at {url} is unavailable: "
        "ConnectError: All connection attempts failed"
    ]


def test_a_listing_that_fails_is_an_outage_logged_with_its_cause(domain_env, caplog, monkeypatch):
    async def breaks(*args, **kwargs):
        raise ValueError("no such listing")

    monkeypatch.setattr(client_module, "_pooled", breaks)
    with caplog.at_level(logging.WARNING), pytest.raises(DomainUnavailable) as caught:
        domain_list_tools(get_plugin("dnd5e"))
    assert caught.value.details == {"system_id": "dnd5e"}
    assert isinstance(caught.value.__cause__, ValueError)
    assert [m for m in caplog.messages if "is unavailable" in m] == [
        f"The dnd5e rules server at {domain_env.server.url} is unavailable: "
        "ValueError: no such listing"
    ]


def test_a_listing_the_sdk_cannot_parse_is_the_server_breaking_the_contract(
    domain_env, monkeypatch
):
    async def malformed(*args, **kwargs):
        TypeAdapter(int).validate_python("many tools")

    monkeypatch.setattr(client_module, "_pooled", malformed)
    with pytest.raises(DomainProtocolError) as caught:
        domain_list_tools(get_plugin("dnd5e"))
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("domain_protocol_error", 502, False)
    assert error.details == {"system_id": "dnd5e", "tool": "tools/list"}
