"""Free text from clients: the one rule every tool's names, titles, labels and notes follow."""

from __future__ import annotations

import re
import unicodedata

from domain_servers.common.errors import invalid

# Surrogates are only ever lone in a decoded string: a pair arrives as one code point.
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: str) -> str | None:
    """The first lone surrogate in `value` as U+XXXX, or None. Such a string cannot be
    written as UTF-8, so it can be neither hashed for idempotency nor stored."""
    found = _SURROGATE.search(value)
    return None if found is None else f"U+{ord(found[0]):04X}"


# Published as each free-text argument's `pattern`, so clients see the rule the validator
# applies: C0 and C1 control characters and DEL are refused (a bell, a terminal escape, a NUL
# PostgreSQL cannot store). So are the characters that rearrange text on every reader's screen
# without being control characters: the line and paragraph separators (U+2028, U+2029) and the
# bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069; a name
# "Ash" + U+202E + "kcatta" reads "Ashattack"). The bidirectional marks (U+200E, U+200F,
# U+061C) stay: they only place punctuation in right-to-left text. Prose may keep its line
# feeds and tabs, and no other break: a separator is refused rather than read as a line feed,
# as a screen that does not know it shows one run-on line. A name or label is one line; only
# around it may spaces, tabs and line breaks stand (a model's trailing newline), and the tool
# drops them. A space there is any Unicode one (a no-break or an ideographic space is as
# invisible at a name's end as a plain one, and the web host trims them all): between words it
# stays, as in "Mr." + U+00A0 + "Ash".
_CONTROLS = r"\u0000-\u001f\u007f-\u009f"
_LAYOUT = r"\u2028-\u202e\u2066-\u2069"
_REFUSED = _CONTROLS + _LAYOUT
# The characters str.isspace() knows that are neither control nor layout characters.
_SPACES = r" \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_AROUND = rf"[\t\n\r{_SPACES}]"
# The line: words of shown characters with only spaces between them. Each repeat stops at the
# first character it cannot take and the next part can (a space is never a word's character,
# the spaces around are never a word's first one), so no repeat gives back what it took: the
# check is one pass, in our validator and in any client's backtracking one.
_SHOWN = rf"[^{_SPACES}{_REFUSED}]"
LINE_PATTERN = rf"^{_AROUND}*(?:{_SHOWN}(?:[{_SPACES}]*{_SHOWN})*{_AROUND}*)?$"
PROSE_PATTERN = rf"^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f{_LAYOUT}]*$"
_CONTROL = {
    LINE_PATTERN: (re.compile(f"[{_REFUSED}]"), "\t\n\r ", "it must be one line of text"),
    PROSE_PATTERN: (
        re.compile(rf"[\u0000-\u0008\u000b-\u001f\u007f-\u009f{_LAYOUT}]"),
        "",
        "only line feeds and tabs may break the text",
    ),
}
_BIDI = "it would reorder the text shown around it"


def _named(character: str) -> str:
    code = f"U+{ord(character):04X}"
    if character == "\u2028":
        return f"the line separator {code}"
    if character == "\u2029":
        return f"the paragraph separator {code}"
    if "\u202a" <= character <= "\u202e" or "\u2066" <= character <= "\u2069":
        return f"the bidirectional formatting character {code}"
    return f"the control character {code}"


def control_character(pattern: str, value: str) -> str | None:
    """Why `value` breaks the free-text `pattern` (naming its first refused character), or
    None when `pattern` is not a free-text one or `value` holds none."""
    if pattern not in _CONTROL:
        return None
    regex, around, rule = _CONTROL[pattern]
    found = regex.search(value.strip(around) if around else value)
    if found is None:
        return None
    named = _named(found[0])
    return f"holds {named}; {_BIDI if named.startswith('the bidi') else rule}"


# An idempotency key is an opaque token compared byte for byte, stored beside every write and
# logged: printable ASCII (as the HTTP Idempotency-Key header is, which the web host may wrap),
# inner spaces allowed, none at the ends (no header can carry them).
KEY_PATTERN = r"^[!-~](?:[ -~]*[!-~])?$"
_KEY_REFUSED = re.compile(r"[^ -~]")
_KEY_RULE = "an idempotency key is printable ASCII, without a space at either end"


def refusal(pattern: str, value: str) -> str | None:
    """Why `value` breaks `pattern` when that is one of the rules here, or None."""
    if pattern == KEY_PATTERN:
        found = _KEY_REFUSED.search(value)
        where = "has a space at an end" if found is None else f"holds U+{ord(found[0]):04X}"
        return f"{where}; {_KEY_RULE}"
    return control_character(pattern, value)


def visible(value: str) -> bool:
    """Whether `value` shows anything: not only spaces, separators and invisible characters
    (a zero-width space, a byte order mark, a word joiner or a soft hyphen, which strip()
    keeps), as the web host judges the names people type."""
    return not all(unicodedata.category(c)[0] in "CZ" for c in value)


def words(value: str, field: str) -> str:
    """A name, title or label without the spaces around it (a model's trailing newline would be
    narrated as "The bridge is out.\\n."): the schema's minLength lets spaces through, and a
    blank one would be listed as an empty name nobody can type. So would one that only holds
    invisible characters."""
    value = value.strip()
    if not value:
        raise invalid(f"the {field} must not be blank")
    if not visible(value):
        raise invalid(f"the {field} must show a visible character")
    return value
