"""The embedded broker: a reader never takes a message file before it is written whole."""

from __future__ import annotations

from queue import Empty

import pytest
from kombu import Connection

import apps.core.broker as broker


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
