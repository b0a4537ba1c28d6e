"""Tool facades: every table entry exists in the live catalog, bounded, and unknowns fail closed."""

from __future__ import annotations

import itertools

import pytest

from apps.domains.registry import MAX_FACADE_TOOLS, ROLES, FacadeDenied, get_plugin
from apps.turns.catalog import FacadeMismatch, offered_tools, tool_catalog
from domain_servers.common.testing import SyncClient

SYSTEMS = ("dnd5e", "narrative")


def live_names(url: str) -> set[str]:
    client = SyncClient(url, timeout=10)
    try:
        return {tool.name for tool in client.list_tools().tools}
    finally:
        client.close()


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_table_entry_is_a_live_tool_and_every_selection_is_bounded(live_domains, system_id):
    plugin = get_plugin(system_id)
    live = live_names(live_domains[system_id])
    for key, names in plugin.tool_facades.items():
        assert set(names) <= live, (key, sorted(set(names) - live))
        assert len(set(names)) == len(names), key  # a row repeats no tool
    selections = 0
    for phase, role, task in itertools.product(plugin.phases, ROLES, plugin.facade_tasks):
        try:
            tools = plugin.facade_tools(phase=phase, role=role, task=task)
        except FacadeDenied:
            assert task == "narration" and role in ("player", "observer")
            continue
        selections += 1
        assert list(tools) == sorted(set(tools))
        assert 1 <= len(tools) <= MAX_FACADE_TOOLS
        assert set(tools) <= live
    assert selections == len(plugin.phases) * (len(ROLES) * 3 - 2)


@pytest.mark.parametrize(
    ("system_id", "phase", "role", "task"),
    [
        ("dnd5e", "unknown", "gm", "action"),
        ("dnd5e", "play", "admin", "action"),
        ("dnd5e", "play", "gm", "combat_support"),
        ("dnd5e", "combat", "player", "narration"),
        ("narrative", "combat", "gm", "action"),  # a phase narrative does not have
        ("narrative", "play", "observer", "narration"),
    ],
)
def test_unknown_situations_fail_closed(catalog_listings, system_id, phase, role, task):
    with pytest.raises(FacadeDenied) as caught:
        get_plugin(system_id).facade_tools(phase=phase, role=role, task=task)
    error = caught.value
    assert (error.code, error.status, error.retryable) == ("facade_denied", 403, False)
    assert error.message == (f"No {system_id} tools for phase {phase}, role {role}, task {task}.")
    assert error.details == {"system_id": system_id, "phase": phase, "role": role, "task": task}
    assert catalog_listings.calls == []  # refused from the tables alone, never by listing


@pytest.mark.parametrize("role", ["owner", "gm"])
@pytest.mark.parametrize("phase", ["lobby", "play"])
def test_the_gm_can_start_combat_from_an_action(live_domains, phase, role):
    tools = get_plugin("dnd5e").facade_tools(phase=phase, role=role, task="action")
    assert {"campaign_get", "character_get", "combat_start", "monster_spawn"} <= set(tools)
    # combat_start is allowed only in play: the lobby selection can move the phase first.
    assert "phase_set" in tools


def test_exact_dnd5e_selections(live_domains):
    plugin = get_plugin("dnd5e")
    assert plugin.facade_tools(phase="combat", role="player", task="action") == (
        "ability_check", "attack", "campaign_get", "character_get", "combat_action",
        "combat_end_turn", "combat_move", "combat_status", "death_save", "dice_roll", "heal",
        "saving_throw", "spell_cast", "stand_up", "temp_hp_grant",
    )  # fmt: skip
    # At the cap: temporary hit points and stand_up in, monster_spawn and damage_apply out (a
    # monster spawned mid-fight cannot join it; the combat narration row has both).
    assert plugin.facade_tools(phase="combat", role="gm", task="action") == (
        "ability_check", "attack", "campaign_get", "character_get", "combat_end",
        "combat_end_turn", "combat_move", "combat_status", "condition_add", "condition_remove",
        "death_save", "dice_roll", "heal", "saving_throw", "stand_up", "temp_hp_grant",
    )  # fmt: skip
    assert plugin.facade_tools(phase="play", role="player", task="action") == (
        "ability_check", "attack", "campaign_get", "character_create", "character_get",
        "death_save", "dice_roll", "heal", "saving_throw", "short_rest", "spell_cast",
        "stand_up", "temp_hp_grant",
    )  # fmt: skip
    assert plugin.facade_tools(phase="play", role="gm", task="action") == (
        "ability_check", "attack", "campaign_get", "character_create", "character_get",
        "combat_start", "condition_add", "condition_remove", "damage_apply", "death_save",
        "dice_roll", "heal", "monster_spawn", "phase_set", "saving_throw", "temp_hp_grant",
    )  # fmt: skip
    # The party's long and short rests are narrated: the action row above is at the cap.
    assert plugin.facade_tools(phase="play", role="gm", task="narration") == (
        "campaign_get", "character_get", "combat_start", "condition_add", "condition_remove",
        "damage_apply", "dice_roll", "heal", "long_rest", "monster_spawn", "phase_set",
        "short_rest",
    )  # fmt: skip
    assert plugin.facade_tools(phase="play", role="observer", task="action") == (
        "campaign_get", "character_get",
    )  # fmt: skip
    assert plugin.facade_tools(phase="combat", role="player", task="chat") == (
        "campaign_get", "character_get", "combat_status",
    )  # fmt: skip


def test_exact_narrative_selections(live_domains):
    plugin = get_plugin("narrative")
    assert plugin.facade_tools(phase="play", role="player", task="action") == (
        "campaign_get", "character_create", "character_get", "character_update", "dice_roll",
        "oracle_ask", "story_get",
    )  # fmt: skip
    assert plugin.facade_tools(phase="play", role="owner", task="action") == (
        "campaign_get", "character_create", "character_get", "character_update",
        "clock_advance", "clock_create", "dice_roll", "fact_add", "oracle_ask", "phase_set",
        "scene_end", "scene_start", "story_get", "thread_open", "thread_resolve",
    )  # fmt: skip


def test_offered_tools_carry_live_schemas_in_facade_order(live_domains):
    tools = offered_tools("dnd5e", ("dice_roll", "campaign_get"))
    assert [t.name for t in tools] == ["dice_roll", "campaign_get"]
    assert tools[0].write is True and tools[1].write is False
    assert tools[0].input_schema["required"] == [
        "campaign_id", "expected_revision", "expression", "idempotency_key",
    ]  # fmt: skip
    assert tool_catalog("dnd5e") is tool_catalog("dnd5e")  # listed once per process
    with pytest.raises(FacadeMismatch) as caught:
        offered_tools("dnd5e", ("dice_roll", "summon_dragon"))
    assert caught.value.code == "facade_mismatch"
    assert caught.value.details == {"system_id": "dnd5e", "missing": ["summon_dragon"]}


def test_a_catalog_listed_before_a_redeploy_is_listed_again_once(catalog_listings):
    catalog_listings.stale = {"dice_roll", "heal"}
    names = get_plugin("dnd5e").facade_tools(phase="combat", role="player", task="action")
    tools = offered_tools("dnd5e", names)
    assert tuple(t.name for t in tools) == names
    assert catalog_listings.calls == ["dnd5e", "dnd5e"]  # the stale listing, then one more
    assert offered_tools("dnd5e", names) == tools  # the fresh listing is cached
    assert catalog_listings.calls == ["dnd5e", "dnd5e"]


def test_a_mismatch_that_outlasts_a_fresh_listing_fails_with_a_recovery(catalog_listings):
    with pytest.raises(FacadeMismatch) as caught:
        offered_tools("dnd5e", ("dice_roll", "summon_dragon"))
    error = caught.value
    assert catalog_listings.calls == ["dnd5e", "dnd5e"]
    assert (error.code, error.status, error.retryable) == ("facade_mismatch", 502, False)
    assert error.message == "The dnd5e server does not offer summon_dragon."
    assert error.recovery == (
        "An operator must deploy a domain server that offers these tools, or update the "
        "tool tables to match it; until then this action is unavailable."
    )
    assert error.details == {"system_id": "dnd5e", "missing": ["summon_dragon"]}
    # Each mismatch costs one more listing, never a loop.
    with pytest.raises(FacadeMismatch):
        offered_tools("dnd5e", ("summon_dragon",))
    assert catalog_listings.calls == ["dnd5e", "dnd5e", "dnd5e"]
