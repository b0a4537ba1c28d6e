"""dnd5e: the combat keeps how each initiative was rolled (its natural d20, DEX and mode), so a
read of the running fight says it as combat_start did: the GM sees every roll, anyone else a
monster's mode alone (its natural die and modifier, with the total, give away its stat block;
whether two dice were rolled says only what its public conditions did)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.domain_servers.conftest import GM, PLAYER, Game
from tests.domain_servers.test_dnd5e_initiative_roll import _poisoned_ash_bryn_and_a_goblin, _rolls

# As combat_start rolled them: Bryn 19 + 2, the goblin 17 + 2, Ash (poisoned) the lower of 15
# and 8, + 1.
EVERY_ROLL = [
    {"id": "pc-2", "initiative": 21, "natural": 19, "modifier": 2, "mode": "normal"},
    {"id": "mon-3", "initiative": 19, "natural": 17, "modifier": 2, "mode": "normal"},
    {"id": "pc-1", "initiative": 9, "natural": 8, "modifier": 1, "mode": "disadvantage"},
]
THE_TABLES = [
    EVERY_ROLL[0],
    {"id": "mon-3", "initiative": 19, "mode": "normal"},
    EVERY_ROLL[2],
]


def _started(dnd: Game) -> None:
    dnd.write("combat_start", {"participant_ids": _poisoned_ash_bryn_and_a_goblin(dnd)})
    # Cured after rolling: the order still says the roll was made with disadvantage.
    dnd.write("condition_remove", {"target_id": "pc-1", "condition": "poisoned"})


def test_the_gms_combat_status_says_how_each_initiative_was_rolled(dnd: Game) -> None:
    _started(dnd)

    assert _rolls(dnd.read("combat_status")) == EVERY_ROLL


def test_a_players_combat_status_says_a_monsters_initiative_mode_but_not_its_die(
    dnd: Game,
) -> None:
    _started(dnd)

    assert _rolls(dnd.read("combat_status", sub=PLAYER)) == THE_TABLES


def test_the_public_view_of_combat_status_hides_a_monsters_die_from_the_gm_too(
    dnd: Game,
) -> None:
    _started(dnd)

    status = dnd.call("combat_status", {}, GM, view="public")

    assert not status.is_error, status.structured_content
    assert _rolls(status.structured_content) == THE_TABLES


def test_a_combat_stored_before_its_rolls_were_kept_reads_its_order_alone(
    dnd: Game, tmp_path: Path
) -> None:
    _started(dnd)
    state = dnd.state()
    for entry in state["combat"]["order"]:
        del entry["mode"]
    with sqlite3.connect(tmp_path / "d.sqlite3") as conn:
        conn.execute(
            "UPDATE campaigns SET state = ? WHERE id = ?", (json.dumps(state), dnd.campaign)
        )

    assert _rolls(dnd.read("combat_status")) == [
        {"id": "pc-2", "initiative": 21},
        {"id": "mon-3", "initiative": 19},
        {"id": "pc-1", "initiative": 9},
    ]
