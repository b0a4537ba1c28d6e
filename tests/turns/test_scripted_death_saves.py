"""Death saves outside combat: the player is told to ask the GM, and the GM calls one by name."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _dying_at_play(gm, player):
    table = make_table("dnd5e", gm, player)
    made = table.call(player, "character_create", name="Drake", template="fighter")
    drake = made.structured["character"]["id"]
    table.characters[principal_for(player)] = drake
    table.run(gm, "set phase play", job_id="phase")
    hp = made.structured["character"]["hp"]["current"]  # exactly to 0: more could kill outright
    table.call(gm, "damage_apply", target_id=drake, amount=hp, idempotency_key="down",
               expected_revision=table.revision())  # fmt: skip
    return table, drake


def test_out_of_combat_a_player_asks_the_gm_who_calls_the_death_save(live_domains, gm, player):
    table, drake = _dying_at_play(gm, player)
    mine = table.run(player, "death save", job_id="mine")
    assert [o.ok for o in mine.caller.outcomes if o.tool == "death_save"] == [False]
    assert mine.texts[0][0].endswith("outside combat only the GM calls for one.")
    for n, text in enumerate(["death save for Drake", "Drake makes a death save"]):
        called = table.run(gm, text, job_id=f"called-{n}")
        (save,) = [o for o in called.caller.outcomes if o.tool == "death_save"]
        assert (save.ok, save.structured["character_id"]) == (True, drake)
        assert called.texts[0][0].startswith("Drake rolls")


def test_a_player_names_no_one_else_for_a_death_save(live_domains, gm, player):
    table, _drake = _dying_at_play(gm, player)
    table.call(gm, "monster_spawn", monster_key="goblin", idempotency_key="spawn",
               expected_revision=table.revision())  # fmt: skip
    run = table.run(player, "death save for Goblin", job_id="other")
    assert [o.tool for o in run.caller.outcomes if o.tool == "death_save"] == []
    assert run.texts == [("Only the GM calls a death save for someone else.", "requester")]


def test_a_dying_player_who_attacks_on_their_turn_is_told_to_make_a_death_save(
    live_domains, gm, player
):
    table, drake = _dying_at_play(gm, player)
    spawned = table.call(gm, "monster_spawn", monster_key="goblin", idempotency_key="spawn",
                         expected_revision=table.revision())  # fmt: skip
    goblin = spawned.structured["character"]["id"]
    table.call(gm, "combat_start", participant_ids=[drake, goblin], idempotency_key="fight",
               expected_revision=table.revision())  # fmt: skip
    attack = table.run(player, "attack the goblin", job_id="attack")
    assert [o.tool for o in attack.caller.outcomes if o.tool == "attack"] == []
    assert attack.texts == [
        ("Drake is down at 0 hit points and cannot attack: make a death save instead.",
         "requester"),
    ]  # fmt: skip
    assert attack.output.suggestions == ("death save",)
    called = table.run(gm, "Drake attacks the goblin", job_id="gm-attack")
    assert called.output.suggestions == ("death save for Drake",)


def test_a_dying_characters_turn_is_announced_as_a_death_save(live_domains, gm, player):
    table, drake = _dying_at_play(gm, player)
    spawned = table.call(gm, "monster_spawn", monster_key="goblin", idempotency_key="spawn",
                         expected_revision=table.revision())  # fmt: skip
    goblin = spawned.structured["character"]["id"]
    table.call(gm, "combat_start", participant_ids=[goblin, drake], idempotency_key="fight",
               expected_revision=table.revision())  # fmt: skip
    texts = []
    for n in range(2):
        if table.call(gm, "combat_status").structured["combat"]["current"] == drake:
            # A dying character's turn cannot end before its death save.
            table.run(gm, "death save for Drake", job_id=f"save-{n}")
        texts.append(table.run(gm, "end turn", job_id=f"end-{n}").texts[0][0])
    # One of the two hands the turn to Drake, whoever went first.
    (to_drake,) = [t for t in texts if "Goblin ends" in t or "after Goblin" in t]
    assert to_drake.endswith(" Drake is dying: their turn is a death save.")
    (to_goblin,) = [t for t in texts if t not in (to_drake,)]
    assert "dying" not in to_goblin
