"""The spaces the tools drop around a name are the ones the published pattern puts around it:
every Unicode space (a no-break or an ideographic one is as invisible at a name's end as a
plain one), never a control character."""

from __future__ import annotations

import itertools
import re

import pytest

from domain_servers.common.text import LINE_PATTERN
from tests.domain_servers.conftest import Game
from tests.domain_servers.test_free_text import _possessive

# The non-control characters str.isspace() knows: what words() drops around a name.
UNICODE_SPACES = [
    "\u00a0", "\u1680", "\u2000", "\u2003", "\u200a", "\u202f", "\u205f", "\u3000",
]  # fmt: skip


@pytest.mark.parametrize("space", UNICODE_SPACES, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("around", ["{s}\tAsh", "Ash\n{s}", "{s} \r\n{s}Ash{s}\n"])
def test_a_unicode_space_beside_a_line_break_around_a_name_is_dropped_with_it(
    dnd: Game, space: str, around: str
) -> None:
    """A trailing newline after a no-break space was dropped, but one before it was refused
    as a control character inside the name: the pattern read the no-break space as the
    name's own character, which the tool then dropped anyway."""
    name = around.format(s=space)
    assert re.search(LINE_PATTERN, name)

    made = dnd.write("character_create", {"name": name, "template": "fighter"})

    assert made["character"]["name"] == "Ash"


@pytest.mark.parametrize("space", UNICODE_SPACES, ids=lambda c: f"U+{ord(c):04X}")
def test_a_unicode_space_inside_a_name_stays_part_of_it(dnd: Game, space: str) -> None:
    made = dnd.write("character_create", {"name": f"Mr.{space}Ash", "template": "fighter"})

    assert made["character"]["name"] == f"Mr.{space}Ash"


def test_the_pattern_takes_a_line_exactly_when_the_tools_would_keep_one() -> None:
    """A one-line value is taken when what words() keeps of it holds no line break, for every
    short string; and the pattern still decides in one pass, never giving back what a repeat
    took."""
    published = re.compile(LINE_PATTERN[:-1] + r"\Z")
    possessive = _possessive(LINE_PATTERN)
    alphabet = ["a", " ", "\t", "\n", "\u00a0", "\u3000"]
    for length in range(7):
        for value in map("".join, itertools.product(alphabet, repeat=length)):
            kept = not any(c in "\t\n" for c in value.strip())
            assert bool(published.search(value)) is kept, repr(value)
            assert bool(possessive.search(value)) is kept, repr(value)


def test_every_unicode_space_taken_at_a_names_end_is_read_as_around_the_name() -> None:
    """No space words() would drop is read by the pattern as a character of the name: one it
    takes at a name's end it takes after a line break there too."""
    for space in map(chr, range(0x110000)):
        if space.isspace() and re.search(LINE_PATTERN, f"Ash{space}"):
            assert re.search(LINE_PATTERN, f"Ash\n{space}"), f"U+{ord(space):04X}"
