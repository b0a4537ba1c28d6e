"""A character outside a running fight acts freely: a potion and standing up cost no turn."""

from __future__ import annotations

from tests.domain_servers.conftest import OTHER, Game
from tests.domain_servers.test_dnd5e_table_rules import _table


def test_a_character_outside_the_fight_may_drink_a_potion(dnd: Game) -> None:
    cai = dnd.write("character_create", {"name": "Cai", "template": "fighter"}, sub=OTHER)
    cid = cai["character"]["id"]
    _table(dnd)  # a combat of Ash, Bram and a goblin; Cai is not in it
    dnd.write("damage_apply", {"target_id": cid, "amount": 3})
    dnd.write("condition_add", {"target_id": cid, "condition": "prone"})
    assert dnd.write("stand_up", {"character_id": cid}, sub=OTHER)["movement_cost"] == 0
    healed = dnd.call(
        "heal",
        {"target_id": cid, "healer_id": cid, "expected_revision": dnd.revision,
         "idempotency_key": "potion-outside"},
        sub=OTHER,
    )  # fmt: skip
    assert (healed.is_error, healed.structured_content["healer_id"]) == (False, cid)
