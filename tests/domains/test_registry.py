"""The plugin registry, tool facades, panels and character forms."""

from __future__ import annotations

import itertools

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.domains.errors import UnknownSystem
from apps.domains.plugins.dnd5e import TEMPLATES, Dnd5eCharacterForm, Dnd5ePlugin
from apps.domains.plugins.narrative import NarrativeCharacterForm, NarrativePlugin
from apps.domains.registry import (
    MAX_FACADE_TOOLS,
    HttpTarget,
    StdioTarget,
    available_systems,
    domain_registry,
    get_plugin,
)
from domain_servers.dnd5e import rules as dnd5e_rules
from domain_servers.registry import SERVERS


def test_settings_shapes_build_plugins(settings):
    settings.SAGASMITH_DOMAINS = {
        "dnd5e": {"url": "http://127.0.0.1:8101/mcp"},  # the original shape: plugin by convention
        "narrative": {
            "plugin": "apps.domains.plugins.narrative.NarrativePlugin",
            "command": ["python", "-m", "domain_servers.narrative", "--transport", "stdio"],
            "env": {"B": "2", "A": "1"},
            "timeout": 5,
        },
    }
    dnd5e, narrative = get_plugin("dnd5e"), get_plugin("narrative")
    assert type(dnd5e) is Dnd5ePlugin
    assert dnd5e.target == HttpTarget("http://127.0.0.1:8101/mcp")
    assert (dnd5e.audience, dnd5e.timeout) == ("sagasmith-dnd5e", 30.0)
    assert type(narrative) is NarrativePlugin
    assert narrative.target == StdioTarget(
        command=("python", "-m", "domain_servers.narrative", "--transport", "stdio"),
        env=(("A", "1"), ("B", "2")),
    )
    assert (narrative.audience, narrative.timeout) == ("sagasmith-narrative", 5.0)
    assert available_systems() == [
        ("dnd5e", "D&D 5e (SRD 5.1)"),
        ("narrative", "Narrative (system-neutral)"),
    ]


def test_audiences_match_the_server_registry(settings):
    settings.SAGASMITH_DOMAINS = {s: {"url": "http://127.0.0.1:1/mcp"} for s in SERVERS}
    assert {s: p.audience for s, p in domain_registry().plugins.items()} == {
        s: entry.audience for s, entry in SERVERS.items()
    }


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({}, "needs exactly one of 'url' or 'command'"),
        ({"url": "http://x/mcp", "command": ["x"]}, "needs exactly one of 'url' or 'command'"),
        ({"command": "python -m x"}, "must be a non-empty list of arguments"),
        ({"plugin": "apps.domains.plugins.nope.Plugin", "url": "http://x/mcp"}, "cannot import"),
        ({"plugin": "apps.domains.registry.Panel", "url": "http://x/mcp"}, "not a DomainPlugin"),
    ],
)
def test_bad_settings_are_refused(settings, entry, message):
    settings.SAGASMITH_DOMAINS = {"dnd5e": entry}
    with pytest.raises(ImproperlyConfigured, match=message):
        domain_registry()


def test_unknown_system_is_a_404_application_error(settings):
    settings.SAGASMITH_DOMAINS = {}
    with pytest.raises(UnknownSystem) as caught:
        get_plugin("coc7e")
    assert (caught.value.code, caught.value.status) == ("unknown_system", 404)
    assert caught.value.message == "Unknown game system coc7e."


@pytest.mark.parametrize("plugin_class", [Dnd5ePlugin, NarrativePlugin])
def test_facades_are_sorted_unique_and_bounded(plugin_class):
    plugin = plugin_class(
        system_id=plugin_class.system_id, target=HttpTarget("http://x/mcp"), audience=None,
        timeout=1,
    )  # fmt: skip
    phases = plugin.phases
    roles = ("owner", "gm", "player", "observer")
    for phase, role, task in itertools.product(phases, roles, ("action", "chat")):
        tools = plugin.facade_tools(phase=phase, role=role, task=task)
        assert list(tools) == sorted(set(tools))
        assert len(tools) <= MAX_FACADE_TOOLS
    assert plugin.facade_tools(phase="play", role="owner", task="action") == plugin.facade_tools(
        phase="play", role="gm", task="action"
    )


def test_dnd5e_facade_in_lobby_for_a_player():
    plugin = Dnd5ePlugin(system_id="dnd5e", target=HttpTarget("x"), audience=None, timeout=1)
    assert plugin.facade_tools(phase="lobby", role="player", task="action") == (
        "campaign_get", "character_create", "character_get", "dice_roll",
    )  # fmt: skip


def test_panels_refresh_on_matching_scopes():
    plugin = Dnd5ePlugin(system_id="dnd5e", target=HttpTarget("x"), audience=None, timeout=1)
    assert [p.key for p in plugin.panels] == ["party", "combat", "grid"]
    assert plugin.panel("party").refreshed_by(["character:pc-1"]) is True
    assert plugin.panel("party").refreshed_by(["characters"]) is False
    assert plugin.panel("combat").refreshed_by(["phase"]) is True
    assert plugin.panel("grid").refreshed_by(["dice"]) is False


def test_dnd5e_templates_match_the_server():
    assert sorted(TEMPLATES) == sorted(dnd5e_rules.TEMPLATES)


def test_dnd5e_form_from_template():
    form = Dnd5eCharacterForm(data={"name": "Ilsa", "template": "wizard", "level": 2})
    assert form.is_valid(), form.errors
    assert form.to_arguments() == {"name": "Ilsa", "level": 2, "template": "wizard"}


def test_dnd5e_form_from_explicit_scores():
    scores = {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 13}
    form = Dnd5eCharacterForm(data={"name": "Ilsa", "level": 1, **scores})
    assert form.is_valid(), form.errors
    assert form.to_arguments() == {"name": "Ilsa", "level": 1, "abilities": scores}


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        (
            {"template": "rogue", "str": 10},
            "Choose a class template or enter ability scores, not both.",
        ),
        ({"str": 10, "dex": 10}, "Choose a class template or enter all six ability scores."),
        ({}, "Choose a class template or enter all six ability scores."),
    ],
)
def test_dnd5e_form_needs_template_xor_scores(extra, error):
    form = Dnd5eCharacterForm(data={"name": "Ilsa", "level": 1, **extra})
    assert not form.is_valid()
    assert form.non_field_errors() == [error]


def test_dnd5e_form_bounds_scores():
    scores = {"str": 31, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 0}
    form = Dnd5eCharacterForm(data={"name": "Ilsa", "level": 1, **scores})
    assert not form.is_valid()
    assert sorted(form.errors) == ["cha", "str"]


def test_narrative_form_tags():
    form = NarrativeCharacterForm(data={"name": "Mara", "tags": " brave, ex-soldier,,brave "})
    assert form.is_valid(), form.errors
    assert form.to_arguments() == {"name": "Mara", "tags": ["brave", "ex-soldier"]}


def test_narrative_form_rejects_long_and_many_tags():
    long_tag = NarrativeCharacterForm(data={"name": "Mara", "tags": "x" * 41})
    assert not long_tag.is_valid()
    assert long_tag.errors["tags"] == [f"Tag “{'x' * 41}” is longer than 40 characters."]
    # A far longer one is named by its start: the message must fit beside the field.
    longer = NarrativeCharacterForm(data={"name": "Mara", "tags": "brave, " + "y" * 200})
    assert not longer.is_valid()
    assert longer.errors["tags"] == [f"Tag “{'y' * 40}…” is longer than 40 characters."]
    many = NarrativeCharacterForm(
        data={"name": "Mara", "tags": ",".join(f"t{i}" for i in range(21))}
    )
    assert not many.is_valid()
    assert many.errors["tags"] == ["At most 20 tags."]
