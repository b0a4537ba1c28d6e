"""A name, title or label made only of invisible characters (a zero-width space, a byte order
mark, a word joiner, a soft hyphen) is refused like a blank one: every list and screen showed
the creature, character or campaign with no name at all, and nobody could type it."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import Game

# Each shows nothing: format characters (Cf) and spaces (Z), which strip() does not all drop.
INVISIBLE = ["\u200b", "\ufeff", "\u2060", "\u00ad", " \u200b\u2060\ufeff\u00ad\n", "\u200d\u3000"]
DND = [
    ("campaign_rename", "name", lambda v: {"name": v}),
    ("character_create", "name", lambda v: {"name": v, "template": "fighter"}),
    (
        "character_create",
        "attacks[0].name",
        lambda v: {
            "name": "Ash",
            "template": "fighter",
            "attacks": [{"name": v, "ability": "str", "damage": "1d8", "damage_type": "slashing"}],
        },
    ),
    ("monster_spawn", "name", lambda v: {"monster_key": "wolf", "name": v}),
]
NARRATIVE = [
    ("campaign_rename", "name", lambda v: {"name": v}),
    ("character_create", "name", lambda v: {"name": v}),
    ("scene_start", "title", lambda v: {"title": v}),
    ("thread_open", "title", lambda v: {"title": v}),
    ("clock_create", "name", lambda v: {"name": v, "segments": 4}),
]


def _ids(character: str) -> str:
    return "+".join(f"U+{ord(c):04X}" for c in character)


def _refused(game: Game, tool: str, args: dict, field: str) -> None:
    revision = game.revision

    error = game.fail(tool, args)

    assert (error["code"], error["message"]) == (
        "invalid_request",
        f"the {field} must show a visible character",
    )
    assert game.read("campaign_get")["authority_revision"] == revision


@pytest.mark.parametrize("value", INVISIBLE, ids=_ids)
@pytest.mark.parametrize(
    ("tool", "field", "args"), DND, ids=lambda p: p if isinstance(p, str) else ""
)
def test_an_invisible_dnd5e_name_is_refused_naming_the_field(dnd: Game, tool, field, args, value):
    dnd.write("phase_set", {"phase": "play"})

    _refused(dnd, tool, args(value), field)


@pytest.mark.parametrize("value", INVISIBLE, ids=_ids)
@pytest.mark.parametrize(
    ("tool", "field", "args"), NARRATIVE, ids=lambda p: p if isinstance(p, str) else ""
)
def test_an_invisible_narrative_name_or_title_is_refused_naming_the_field(
    narrative: Game, tool, field, args, value
):
    narrative.write("phase_set", {"phase": "play"})

    _refused(narrative, tool, args(value), field)


@pytest.mark.parametrize("value", INVISIBLE, ids=_ids)
def test_a_campaign_created_with_an_invisible_name_is_refused(dnd: Game, value: str) -> None:
    dnd.campaign, dnd.revision = "another", 0

    error = dnd.fail("campaign_create", {"name": value})

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "the name must show a visible character",
    )
    assert dnd.call("campaign_get", {}).structured_content["error"]["code"] == "not_found"


def test_an_invisible_narrative_tag_is_refused(narrative: Game) -> None:
    narrative.write("phase_set", {"phase": "play"})

    error = narrative.fail("character_create", {"name": "Ash", "tags": ["brave", "\u200b"]})

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "a tag must show a visible character",
    )


def test_a_name_with_an_invisible_character_beside_visible_ones_is_kept(dnd: Game) -> None:
    made = dnd.write("character_create", {"name": "Ash\u00adley", "template": "fighter"})

    assert made["character"]["name"] == "Ash\u00adley"
