"""The embedded broker: a reader never takes a message file before it is written whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection

import apps.core.broker as broker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def channel(tmp_path):
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder)}
    with Connection(transport=broker.Transport, transport_options=options) as connection:
        yield connection.default_channel


def test_a_message_is_invisible_until_written_whole(channel, monkeypatch):
    seen_while_writing = []
    encode = broker.str_to_bytes

    def encode_then_look(text):
        # The moment kombu's own _put has an empty `.msg` file in the folder.
        try:
            seen_while_writing.append(channel._get("turns"))
        except Empty:
            seen_while_writing.append("nothing")
        return encode(text)

    monkeypatch.setattr(broker, "str_to_bytes", encode_then_look)
    channel._put("turns", {"body": "roll 1d20"})
    assert seen_while_writing == ["nothing"]
    assert channel._get("turns") == {"body": "roll 1d20"}
    with pytest.raises(Empty):
        channel._get("turns")


def test_the_embedded_broker_starts_without_a_hostname_warning(tmp_path):
    """`make run` prints its banner beside the worker's log: kombu warns when the broker URL
    names no host, which the embedded (file) broker has no use for."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_URL"))}
    env.update({"DJANGO_SETTINGS_MODULE": "sagasmith_web.settings.local", "SAGASMITH_VAR_DIR":
                str(tmp_path)})  # fmt: skip
    code = (
        "import logging; logging.basicConfig(level=logging.WARNING); import django; "
        "django.setup(); from sagasmith_web.celery import app; "
        "print(app.conf.broker_url, app.connection_for_write().as_uri())"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[0].startswith("filesystem://")
    assert "hostname" not in run.stderr
