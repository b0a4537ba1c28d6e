"""Free text from clients: the one rule every tool's names, titles, labels and notes follow."""

from __future__ import annotations

import re

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
# PostgreSQL cannot store). Prose may keep its line feeds and tabs. A name or label is one
# line; only around it may spaces, tabs and line breaks stand (a model's trailing newline),
# and the tool drops them.
_CONTROLS = r"\u0000-\u001f\u007f-\u009f"
_AROUND = r"[\t\n\r ]"
LINE_PATTERN = rf"^{_AROUND}*(?:[^{_CONTROLS}]*[^ {_CONTROLS}])?{_AROUND}*$"
PROSE_PATTERN = r"^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$"
_CONTROL = {
    LINE_PATTERN: (re.compile(f"[{_CONTROLS}]"), "\t\n\r ", "it must be one line of text"),
    PROSE_PATTERN: (
        re.compile(r"[\u0000-\u0008\u000b-\u001f\u007f-\u009f]"),
        "",
        "only line feeds and tabs may break the text",
    ),
}


def control_character(pattern: str, value: str) -> str | None:
    """Why `value` breaks the free-text `pattern` (naming its first control character), or
    None when `pattern` is not a free-text one or `value` holds none."""
    if pattern not in _CONTROL:
        return None
    regex, around, rule = _CONTROL[pattern]
    found = regex.search(value.strip(around) if around else value)
    return None if found is None else f"holds the control character U+{ord(found[0]):04X}; {rule}"


def words(value: str, field: str) -> str:
    """A name, title or label without the spaces around it (a model's trailing newline would be
    narrated as "The bridge is out.\\n."): the schema's minLength lets spaces through, and a
    blank one would be listed as an empty name nobody can type."""
    value = value.strip()
    if not value:
        raise invalid(f"the {field} must not be blank")
    return value
