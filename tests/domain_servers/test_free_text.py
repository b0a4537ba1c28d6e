"""Free text a client sends (names, titles, labels, notes): what the servers store and show."""

from __future__ import annotations

import itertools
import re

import pytest

from domain_servers.common.text import LINE_PATTERN, PROSE_PATTERN
from tests.domain_servers.conftest import GM, Game


def _refused(error: dict) -> tuple[str, str]:
    return error["code"], error["message"]


def test_a_name_holding_a_lone_surrogate_is_an_invalid_request_not_a_fault(dnd: Game) -> None:
    """A lone surrogate cannot be written as UTF-8: hashing or storing it failed, so the
    caller read a retryable `internal` fault that no retry could ever get past."""
    revision = dnd.read("campaign_get")["authority_revision"]

    error = dnd.fail("character_create", {"name": "Wolf\ud800"}, GM)

    assert error == {
        "code": "invalid_request",
        "message": "arguments.name holds a lone surrogate (U+D800), which is not text",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert dnd.read("campaign_get")["authority_revision"] == revision


def test_a_lone_surrogate_anywhere_in_the_arguments_is_refused_by_its_path(
    narrative: Game,
) -> None:
    narrative.write("phase_set", {"phase": "play"})

    error = narrative.fail("character_create", {"name": "Ash", "tags": ["brave", "\udfff"]})

    assert _refused(error) == (
        "invalid_request",
        "arguments.tags[1] holds a lone surrogate (U+DFFF), which is not text",
    )


# One line of text each: a control character in them reached every player's screen (a bell,
# a terminal escape, a NUL PostgreSQL cannot store, a line break splitting a list entry).
DND_LINES = [
    ("campaign_create", "name", lambda v: {"name": v}),
    ("dice_roll", "label", lambda v: {"expression": "1d20", "label": v}),
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
NARRATIVE_LINES = [
    ("character_create", "name", lambda v: {"name": v}),
    ("character_create", "tags[0]", lambda v: {"name": "Ash", "tags": [v]}),
    ("scene_start", "title", lambda v: {"title": v}),
    ("thread_open", "title", lambda v: {"title": v}),
    ("clock_create", "name", lambda v: {"name": v, "segments": 4}),
    ("oracle_ask", "question", lambda v: {"question": v, "likelihood": "even"}),
]
# Several lines each, so a line feed or a tab is text there; other control characters are not.
NARRATIVE_PROSE = [
    ("scene_start", "description", lambda v: {"title": "Docks", "description": v}),
    ("scene_start", "gm_notes", lambda v: {"title": "Docks", "gm_notes": v}),
    ("thread_open", "description", lambda v: {"title": "Heist", "description": v}),
    ("fact_add", "text", lambda v: {"text": v}),
    ("character_create", "gm_notes", lambda v: {"name": "Ash", "gm_notes": v}),
]


def _campaign_for(game: Game, tool: str) -> Game:
    """The game ready for `tool`: in play, or a campaign yet to be created."""
    if tool == "campaign_create":
        game.campaign = "another"
        game.revision = 0
    else:
        game.write("phase_set", {"phase": "play"})
    return game


@pytest.mark.parametrize(
    "character", ["\x00", "\x07", "\x1b[31m", "\x7f", "\x85", "\n", "\t", "\r"]
)
@pytest.mark.parametrize(("tool", "field", "args"), DND_LINES)
def test_a_control_character_in_a_dnd5e_name_or_label_is_refused_naming_the_field(
    dnd: Game, tool, field, args, character
) -> None:
    game = _campaign_for(dnd, tool)
    revision = game.revision

    error = game.fail(tool, args(f"Gr{character}ey"))

    code = f"U+{ord(character[0]):04X}"
    assert _refused(error) == (
        "invalid_request",
        f"arguments.{field} holds the control character {code}; it must be one line of text",
    )
    assert game.revision == revision


@pytest.mark.parametrize("character", ["\x00", "\x08", "\x1b", "\x9f", "\n", "\t"])
@pytest.mark.parametrize(("tool", "field", "args"), NARRATIVE_LINES)
def test_a_control_character_in_a_narrative_name_or_title_is_refused_naming_the_field(
    narrative: Game, tool, field, args, character
) -> None:
    game = _campaign_for(narrative, tool)

    error = game.fail(tool, args(f"Gr{character}ey"))

    code = f"U+{ord(character):04X}"
    assert _refused(error) == (
        "invalid_request",
        f"arguments.{field} holds the control character {code}; it must be one line of text",
    )


@pytest.mark.parametrize("character", ["\x00", "\x0b", "\x0c", "\r", "\x1b", "\x7f", "\x80"])
@pytest.mark.parametrize(("tool", "field", "args"), NARRATIVE_PROSE)
def test_a_control_character_in_narrative_prose_is_refused_naming_the_field(
    narrative: Game, tool, field, args, character
) -> None:
    game = _campaign_for(narrative, tool)

    error = game.fail(tool, args(f"The docks{character} are flooded."))

    code = f"U+{ord(character):04X}"
    assert _refused(error) == (
        "invalid_request",
        f"arguments.{field} holds the control character {code}; only line feeds and tabs "
        "may break the text",
    )


@pytest.mark.parametrize(("tool", "field", "args"), NARRATIVE_PROSE)
def test_narrative_prose_keeps_its_line_feeds_and_tabs(narrative: Game, tool, field, args) -> None:
    game = _campaign_for(narrative, tool)

    game.write(tool, args("The docks are flooded.\n\tThe bridge is out."))


def test_the_gm_notes_of_a_dnd5e_character_keep_their_lines_but_no_escape(dnd: Game) -> None:
    card = dnd.write(
        "character_create", {"name": "Ash", "template": "fighter", "gm_notes": "Owes.\n\tLies."}
    )
    dnd.write("phase_set", {"phase": "play"})
    assert card["character"]["gm_notes"] == "Owes.\n\tLies."

    error = dnd.fail("monster_spawn", {"monster_key": "wolf", "gm_notes": "Hungry\x1b[2J"})

    assert _refused(error) == (
        "invalid_request",
        "arguments.gm_notes holds the control character U+001B; only line feeds and tabs "
        "may break the text",
    )


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("character_create", {"name": "   ", "template": "fighter"}, "the name must not be blank"),
        ("monster_spawn", {"monster_key": "wolf", "name": " \n"}, "the name must not be blank"),
        (
            "character_create",
            {
                "name": "Ash",
                "template": "fighter",
                "attacks": [
                    {"name": "  ", "ability": "str", "damage": "1d8", "damage_type": "slashing"}
                ],
            },
            "the attacks[0].name must not be blank",
        ),
    ],
)
def test_a_blank_dnd5e_name_is_refused_and_changes_nothing(dnd: Game, tool, args, message):
    """Spaces passed the schema's minLength: a creature listed as "   " could never be named
    by a player typing "attack ..."."""
    dnd.write("phase_set", {"phase": "play"})
    revision = dnd.revision

    error = dnd.fail(tool, args)

    assert _refused(error) == ("invalid_request", message)
    assert dnd.read("campaign_get")["authority_revision"] == revision


def test_a_blank_campaign_name_is_refused(dnd: Game) -> None:
    _campaign_for(dnd, "campaign_create")

    error = dnd.fail("campaign_create", {"name": "\t \n"})

    assert _refused(error) == ("invalid_request", "the name must not be blank")


def test_dnd5e_names_and_labels_are_kept_without_the_spaces_around_them(dnd: Game) -> None:
    made = dnd.write(
        "character_create",
        {
            "name": "  Ash\n",
            "template": "fighter",
            "attacks": [
                {"name": " Axe ", "ability": "str", "damage": "1d8", "damage_type": "slashing"}
            ],
        },
    )["character"]
    assert (made["name"], [a["name"] for a in made["attacks"]]) == ("Ash", ["Axe"])
    dnd.write("phase_set", {"phase": "play"})
    wolf = dnd.write("monster_spawn", {"monster_key": "wolf", "name": "  Wolf "})["character"]
    assert wolf["name"] == "Wolf"
    assert dnd.write("dice_roll", {"expression": "1d4", "label": " Luck\n"})["label"] == "Luck"
    assert "label" not in dnd.write("dice_roll", {"expression": "1d4", "label": "  "})


def test_a_campaign_name_is_kept_without_the_spaces_around_it(narrative: Game) -> None:
    _campaign_for(narrative, "campaign_create")

    made = narrative.write("campaign_create", {"name": "  The Long Night\n"})

    assert made["campaign"]["name"] == "The Long Night"


@pytest.mark.parametrize("size", [81, 70_000, 1_000_000])
def test_a_name_of_any_length_past_its_bound_is_refused_naming_that_bound(
    dnd: Game, size: int
) -> None:
    """A megabyte name was refused as "longer than 65536 characters": a caller who cut it
    to that length was then told the bound is 80."""
    error = dnd.fail("character_create", {"name": "W" * size, "template": "fighter"})

    assert _refused(error) == ("invalid_request", "arguments.name is longer than 80 characters")
    assert dnd.read("campaign_get")["campaign"]["character_ids"] == []


def test_a_long_string_nested_in_a_list_is_refused_naming_its_own_bound(
    narrative: Game,
) -> None:
    error = narrative.fail("character_create", {"name": "Ash", "tags": ["brave", "x" * 100_000]})

    assert _refused(error) == (
        "invalid_request",
        "arguments.tags[1] is longer than 40 characters",
    )


# Not control characters, yet they rearrange what every player reads: an override shows the
# rest of a name reversed ("Ash" + U+202E + "kcatta" reads "Ashattack"), an isolate or
# embedding reorders what follows it, and a line or paragraph separator breaks a list entry.
LAYOUT = {
    "\u2028": "the line separator U+2028; it must be one line of text",
    "\u2029": "the paragraph separator U+2029; it must be one line of text",
    **{
        c: f"the bidirectional formatting character U+{ord(c):04X}; it would reorder the "
        "text shown around it"
        for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    },
}
OVERRIDE = LAYOUT["\u202e"]


@pytest.mark.parametrize(("character", "reason"), LAYOUT.items())
@pytest.mark.parametrize(("tool", "field", "args"), DND_LINES)
def test_a_bidi_or_line_separator_in_a_dnd5e_name_or_label_is_refused_naming_the_field(
    dnd: Game, tool, field, args, character, reason
) -> None:
    game = _campaign_for(dnd, tool)
    revision = game.revision

    error = game.fail(tool, args(f"Ash{character}kcatta"))

    assert _refused(error) == ("invalid_request", f"arguments.{field} holds {reason}")
    assert game.revision == revision


@pytest.mark.parametrize(("character", "reason"), LAYOUT.items())
@pytest.mark.parametrize(("tool", "field", "args"), NARRATIVE_LINES)
def test_a_bidi_or_line_separator_in_a_narrative_name_or_title_is_refused_naming_the_field(
    narrative: Game, tool, field, args, character, reason
) -> None:
    game = _campaign_for(narrative, tool)

    error = game.fail(tool, args(f"Ash{character}kcatta"))

    assert _refused(error) == ("invalid_request", f"arguments.{field} holds {reason}")


def test_a_bidi_character_around_a_name_is_refused_too_not_trimmed(dnd: Game) -> None:
    """Only spaces, tabs and line breaks around a name are dropped; an override there would
    still turn whatever is shown after the name around."""
    error = dnd.fail("character_create", {"name": "Ash\u202e ", "template": "fighter"})

    assert _refused(error) == (
        "invalid_request",
        f"arguments.name holds {OVERRIDE}",
    )


# Prose keeps line feeds and tabs; a line or paragraph separator is refused rather than read
# as a line feed (the text is stored as sent, and a screen that does not know U+2028 shows it
# as one run-on line), and a bidirectional override is refused as in a name.
PROSE_LAYOUT = {
    "\u2028": "the line separator U+2028; only line feeds and tabs may break the text",
    "\u2029": "the paragraph separator U+2029; only line feeds and tabs may break the text",
    **{c: reason for c, reason in LAYOUT.items() if c not in "\u2028\u2029"},
}


@pytest.mark.parametrize(("character", "reason"), PROSE_LAYOUT.items())
@pytest.mark.parametrize(("tool", "field", "args"), NARRATIVE_PROSE)
def test_a_bidi_or_line_separator_in_narrative_prose_is_refused_naming_the_field(
    narrative: Game, tool, field, args, character, reason
) -> None:
    game = _campaign_for(narrative, tool)

    error = game.fail(tool, args(f"The docks{character} are flooded."))

    assert _refused(error) == ("invalid_request", f"arguments.{field} holds {reason}")


def test_the_gm_notes_of_a_dnd5e_monster_refuse_a_bidi_override(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})

    error = dnd.fail("monster_spawn", {"monster_key": "wolf", "gm_notes": "Hungry\u202e"})

    assert _refused(error) == ("invalid_request", f"arguments.gm_notes holds {OVERRIDE}")


def test_text_in_a_right_to_left_script_is_kept(narrative: Game) -> None:
    """Only the invisible reordering characters are refused, not the scripts they serve."""
    narrative.write("phase_set", {"phase": "play"})

    made = narrative.write("character_create", {"name": "שלום עולם", "tags": ["مرحبا"]})

    assert (made["character"]["name"], made["character"]["tags"]) == ("שלום עולם", ["مرحبا"])


def _possessive(pattern: str) -> re.Pattern[str]:
    """`pattern` with every repeat possessive: it keeps all it took, never trying less."""
    return re.compile(
        pattern.replace("(?:", "(?#")
        .replace("*", "*+")
        .replace(")?", ")?+")
        .replace("(?#", "(?:")[:-1]
        + r"\Z"
    )


@pytest.mark.parametrize("pattern", [LINE_PATTERN, PROSE_PATTERN], ids=["line", "prose"])
def test_the_free_text_patterns_decide_without_giving_back_what_a_repeat_took(pattern) -> None:
    """A repeat that had to give back characters for the rest to match made the one-line
    check quadratic: 500 spaces and a bell took 13 ms to refuse, on every string argument of
    every call. A pattern whose possessive form accepts exactly the same strings never has
    to, so it is checked in one pass here and by any client's backtracking validator."""
    published = re.compile(pattern[:-1] + r"\Z")
    possessive = _possessive(pattern)
    alphabet = ["a", " ", "\t", "\n", "\x07", "\u202e"]

    for length in range(7):
        for value in map("".join, itertools.product(alphabet, repeat=length)):
            assert bool(possessive.search(value)) == bool(published.search(value)), repr(value)
