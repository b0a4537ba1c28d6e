"""Golden determinism: fixed seed + fixed call sequence -> exact recorded results, identical over
stdio and HTTP (and therefore on any machine: the stream is pure sha256)."""

from __future__ import annotations

from typing import Any

import pytest

from domain_servers.common.testing import HttpServerProcess, SyncClient, stdio_params
from domain_servers.registry import SERVERS
from tests.domain_contract.conftest import OWNER, PLAYER, Harness, Keys

SEED = "0123456789abcdef" * 4

# Recorded once from this sequence; any change to the stream, dice or rules order shows here.
GOLDEN: dict[str, Any] = {
    "dice": [14, [6, 5, 1]],
    "check": [[4, 3], 8, False],
    "initiative": [("mon-2", 21), ("pc-1", 19)],
    "attack": [[4], False, None],
    "stream": {
        "algorithm": "sha256-counter-v1",
        "draw_count": 1,
        "position_after": 8,
        "position_before": 7,
        "seed_fingerprint": "c57df55ae3723e2b",
    },
    "revision": 9,
}


def run_sequence(h: Harness) -> dict[str, Any]:
    c = "golden"
    out: dict[str, Any] = {}
    steps: list[tuple[str, dict[str, Any], str]] = [
        ("campaign_create", {"name": "Golden", "random_seed": SEED}, OWNER),
        ("member_grant", {"principal": PLAYER, "role": "player"}, OWNER),
        ("character_create", {"name": "Ash", "template": "fighter"}, PLAYER),
        ("phase_set", {"phase": "play"}, OWNER),
        ("monster_spawn", {"monster_key": "orc"}, OWNER),
        ("dice_roll", {"expression": "3d6+2"}, PLAYER),
        (
            "ability_check",
            {"character_id": "pc-1", "skill": "athletics", "dc": 12, "advantage": True},
            PLAYER,
        ),
        ("combat_start", {"participant_ids": ["pc-1", "mon-2"]}, OWNER),
    ]
    for revision, (tool, args, sub) in enumerate(steps):
        result = h.write(tool, c, revision, args, sub=sub, key=f"golden-{revision}")
        assert not result.is_error, result.structured_content
        out[tool] = result.structured_content
    combat = out["combat_start"]["combat"]
    current = combat["current"]
    target = "mon-2" if current == "pc-1" else "pc-1"
    attacker_sub = PLAYER if current == "pc-1" else OWNER
    attack = h.write(
        "attack",
        c,
        len(steps),
        {"attacker_id": current, "target_id": target},
        sub=attacker_sub,
        key="golden-attack",
    )
    assert not attack.is_error, attack.structured_content
    return {
        "dice": [out["dice_roll"]["total"], out["dice_roll"]["rolls"][0]["results"]],
        "check": [
            out["ability_check"]["rolls"],
            out["ability_check"]["total"],
            out["ability_check"]["success"],
        ],
        "initiative": [(e["id"], e["initiative"]) for e in combat["order"]],
        "attack": [
            attack.structured_content["to_hit"]["rolls"],
            attack.structured_content["hit"],
            attack.structured_content["damage"] and attack.structured_content["damage"]["total"],
        ],
        "stream": attack.structured_content["random_stream_receipt"],
        "revision": attack.structured_content["receipt"]["authority_revision"],
    }


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_golden_sequence(transport: str, keys: Keys, tmp_path) -> None:
    entry = SERVERS["dnd5e"]
    db = f"sqlite:///{tmp_path}/golden.sqlite3"
    process = None
    if transport == "http":
        process = HttpServerProcess(entry.module, db, keys.jwks)
        client = SyncClient(process.url)
    else:
        client = SyncClient(stdio_params(entry.module, db, keys.jwks))
    try:
        recorded = run_sequence(Harness(entry, transport, client, keys))
    finally:
        client.close()
        if process is not None:
            process.stop()
    assert recorded == GOLDEN
