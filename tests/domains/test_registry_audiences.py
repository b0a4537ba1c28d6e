"""Each configured system has its own delegation audience: two sharing one would each accept
the other's tokens, so that configuration is refused when a process starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.domains.registry import domain_registry

ROOT = Path(__file__).resolve().parents[2]
SHARED = {
    "dnd5e": {"url": "http://127.0.0.1:8101/mcp"},
    "narrative": {"url": "http://127.0.0.1:8102/mcp", "audience": "sagasmith-dnd5e"},
}
MESSAGE = (
    "SAGASMITH_DOMAINS: dnd5e and narrative share the delegation audience 'sagasmith-dnd5e'; "
    "give each system its own, or each of their servers accepts the other's tokens"
)


def test_two_systems_sharing_an_audience_are_refused(settings):
    settings.SAGASMITH_DOMAINS = SHARED

    with pytest.raises(ImproperlyConfigured) as caught:
        domain_registry()

    assert str(caught.value) == MESSAGE


def test_distinct_audiences_are_accepted(settings):
    settings.SAGASMITH_DOMAINS = {
        **SHARED,
        "narrative": {"url": "http://127.0.0.1:8102/mcp", "audience": "story"},
    }

    plugins = domain_registry().plugins
    assert {s: p.audience for s, p in plugins.items()} == {
        "dnd5e": "sagasmith-dnd5e",
        "narrative": "story",
    }


def test_a_process_with_a_shared_audience_refuses_to_start():
    env = {**os.environ, "SAGASMITH_DOMAINS": json.dumps(SHARED)}
    env["DJANGO_SETTINGS_MODULE"] = "sagasmith_web.settings.test"
    started = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert started.returncode != 0
    assert "started" not in started.stdout
    assert f"django.core.exceptions.ImproperlyConfigured: {MESSAGE}" in started.stderr
