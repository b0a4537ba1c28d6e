"""Free text from clients: the one rule every tool's names, titles, labels and notes follow."""

from __future__ import annotations

import re

# Surrogates are only ever lone in a decoded string: a pair arrives as one code point.
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: str) -> str | None:
    """The first lone surrogate in `value` as U+XXXX, or None. Such a string cannot be
    written as UTF-8, so it can be neither hashed for idempotency nor stored."""
    found = _SURROGATE.search(value)
    return None if found is None else f"U+{ord(found[0]):04X}"
