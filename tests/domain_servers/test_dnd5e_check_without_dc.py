"""dnd5e: an ability check may be rolled with no DC (a Stealth roll the GM compares with the
Perception of whoever is watching): its result is the roll and its total, with no DC and no
success. A saving throw still needs its DC."""

from __future__ import annotations

import asyncio

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc

RANDOM_RECEIPT = {
    "algorithm": "sha256-counter-v1",
    "draw_count": 1,
    "position_after": 1,
    "position_before": 0,
    "seed_fingerprint": "689e819f1ca55cd2",
}


def _rogue(game: Game) -> str:
    made = game.write("character_create", {"name": "Ilsa", "template": "rogue"}, sub=PLAYER)
    game.write("phase_set", {"phase": "play"})
    return made["character"]["id"]


def _tools(game: Game) -> dict:
    return {t.name: t for t in asyncio.run(game.domain._on_list_tools(None, None)).tools}


def test_rules_check_with_no_dc_gives_the_total_and_no_success() -> None:
    result = rules.check(
        pc(),
        ScriptedStream(12),
        ability="str",
        dc=None,
        proficient=True,
        advantage=False,
        disadvantage=False,
        bonus=1,
    )
    assert result == {
        "natural": 12, "rolls": [12], "mode": "normal", "ability": "str", "ability_modifier": 3,
        "proficiency": 2, "bonus": 1, "total": 18,
    }  # fmt: skip


def test_an_ability_check_with_no_dc_gives_the_roll_and_total_without_dc_or_success(
    dnd: Game,
) -> None:
    ilsa = _rogue(dnd)

    rolled = dnd.write("ability_check", {"character_id": ilsa, "skill": "stealth"}, sub=PLAYER)

    assert rolled == {
        "ability": "dex", "ability_modifier": 2, "bonus": 0, "character_id": ilsa,
        "character_kind": "pc", "character_name": "Ilsa", "kind": "check", "mode": "normal",
        "natural": 17, "proficiency": 4, "rolls": [17], "skill": "stealth", "total": 23,
        "random_stream_receipt": RANDOM_RECEIPT,
        "receipt": {
            "audience": "public", "authority_revision": 6, "changed_scopes": [f"character:{ilsa}"],
            "entity_ids": [ilsa], "idempotency_key": "k5", "previous_revision": 5,
        },
    }  # fmt: skip


def test_a_poisoned_characters_check_with_no_dc_says_why_it_had_disadvantage(dnd: Game) -> None:
    ilsa = _rogue(dnd)
    dnd.write("condition_add", {"target_id": ilsa, "condition": "poisoned"})

    rolled = dnd.write("ability_check", {"character_id": ilsa, "skill": "stealth"}, sub=PLAYER)

    assert (rolled["mode"], len(rolled["rolls"]), rolled["disadvantage_reasons"]) == (
        "disadvantage", 2, ["Ilsa is poisoned"],
    )  # fmt: skip
    assert rolled["total"] == rolled["natural"] + 6
    assert ("dc" in rolled, "success" in rolled) == (False, False)


def test_a_check_with_no_dc_replayed_with_its_key_gives_the_stored_result(dnd: Game) -> None:
    ilsa = _rogue(dnd)
    args = {
        "character_id": ilsa, "skill": "stealth", "expected_revision": dnd.revision,
        "idempotency_key": "hide-1",
    }  # fmt: skip
    first = dnd.call("ability_check", args, PLAYER)
    again = dnd.call("ability_check", args, PLAYER)

    assert (first.is_error, again.is_error) == (False, False)
    assert again.structured_content == first.structured_content
    # Rolled and committed once: one draw, one revision.
    campaign = dnd.read("campaign_get")
    assert (campaign["campaign"]["random_stream"]["position"], campaign["authority_revision"]) == (
        1, args["expected_revision"] + 1,
    )  # fmt: skip


def test_a_monsters_check_with_no_dc_shows_players_its_total_alone(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]

    shown = dnd.write("ability_check", {"character_id": goblin, "skill": "stealth"}, view="public")

    assert sorted(k for k in shown if k not in ("receipt", "random_stream_receipt")) == [
        "ability", "bonus", "character_id", "character_kind", "character_name", "kind", "mode",
        "skill", "total",
    ]  # fmt: skip


def test_a_saving_throw_still_needs_its_dc_and_nothing_is_rolled(dnd: Game) -> None:
    ilsa = _rogue(dnd)
    before = dnd.revision

    error = dnd.fail("saving_throw", {"character_id": ilsa, "ability": "dex"}, sub=PLAYER)

    assert error == {
        "code": "invalid_request",
        "message": "arguments.dc is required",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    campaign = dnd.read("campaign_get")
    assert (campaign["campaign"]["random_stream"]["position"], campaign["authority_revision"]) == (
        0, before,
    )  # fmt: skip


def test_the_schemas_say_a_check_may_have_no_dc_and_a_save_must(dnd: Game) -> None:
    tools = _tools(dnd)
    check, save = tools["ability_check"], tools["saving_throw"]

    assert check.input_schema["required"] == [
        "campaign_id", "character_id", "expected_revision", "idempotency_key",
    ]  # fmt: skip
    assert save.input_schema["required"] == [
        "ability", "campaign_id", "character_id", "dc", "expected_revision", "idempotency_key",
    ]  # fmt: skip
    assert check.output_schema["properties"]["dc"] == {
        "type": "integer",
        "description": "The DC rolled against; absent when none was given.",
    }
    assert check.output_schema["properties"]["success"] == {
        "type": "boolean",
        "description": "Whether the total met the DC; absent when no DC was given.",
    }
    assert check.output_schema["required"] == ["random_stream_receipt", "receipt"]
    assert "With no DC" in check.description
    assert save.output_schema["properties"]["success"] == {"type": "boolean"}
