"""An unexpected fault is reported for what it is: before, during or after the save."""

from __future__ import annotations

import dataclasses
from typing import Any


def _write(dnd, key: str) -> Any:
    return dnd.call(
        "phase_set",
        {"phase": "play", "expected_revision": dnd.revision, "idempotency_key": key},
    )


def test_fault_after_the_save_says_the_write_was_committed_and_the_same_key_replays_it(dnd):
    answer = dnd.domain._answer

    def fail_first_answer(*args: Any, replay: bool, **kwargs: Any) -> Any:
        if not replay:
            raise RuntimeError("answer failed")
        return answer(*args, replay=replay, **kwargs)

    dnd.domain._answer = fail_first_answer
    result = _write(dnd, "after-save")

    assert result.is_error
    assert result.structured_content == {
        "error": {
            "code": "internal",
            "message": (
                "unexpected server fault after the write was committed; "
                "retry with the same idempotency key to get its result"
            ),
            "retryable": True,
            "recovery": "retry with the same idempotency key; the committed result is replayed",
        }
    }
    assert dnd.domain.storage.load("game")[0] == dnd.revision + 1
    replay = _write(dnd, "after-save")
    assert not replay.is_error
    assert replay.meta == {"idempotent_replay": True}
    assert replay.structured_content["receipt"]["authority_revision"] == dnd.revision + 1


def test_fault_while_saving_says_the_write_may_have_been_committed(dnd, monkeypatch):
    def broken_commit(record: Any) -> str:
        raise OSError("connection lost")

    monkeypatch.setattr(dnd.domain.storage, "commit_write", broken_commit)
    result = _write(dnd, "while-saving")

    assert result.structured_content == {
        "error": {
            "code": "internal",
            "message": (
                "unexpected server fault while saving the write; it may have been committed: "
                "retry with the same idempotency key, which replays it if it was"
            ),
            "retryable": True,
            "recovery": "retry with the same idempotency key; the committed result is replayed",
        }
    }


def test_fault_before_the_save_still_says_nothing_was_committed(dnd, monkeypatch):
    spec = dnd.domain.tools["phase_set"]

    def broken_handler(call: Any) -> Any:
        raise RuntimeError("handler failed")

    monkeypatch.setitem(
        dnd.domain.tools, "phase_set", dataclasses.replace(spec, handler=broken_handler)
    )
    result = _write(dnd, "before-save")

    assert result.structured_content == {
        "error": {
            "code": "internal",
            "message": "unexpected server fault; nothing was committed",
            "retryable": True,
            "recovery": "retry later with the same idempotency key",
        }
    }
    assert dnd.domain.storage.load("game")[0] == dnd.revision
