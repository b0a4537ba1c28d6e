"""Text checks shared by the apps that take words from people."""

import re
import unicodedata


def visible(text: str) -> bool:
    """Whether the text shows anything: not only spaces, separators and invisible or
    unassigned characters (a zero-width space, which strip() keeps, shows as nothing)."""
    return not all(unicodedata.category(ch)[0] in "CZ" for ch in text)


# What the rules servers refuse in one line of text (a name, a title): control characters,
# the line and paragraph separators and the bidirectional overrides and isolates, which would
# break the line or reorder the text around it on every reader's screen. The bidirectional
# marks (U+200E, U+200F, U+061C) stay: right-to-left text needs them.
_NOT_ONE_LINE = re.compile("[\u0000-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]")


def one_line(text: str) -> bool:
    """Whether the text is one line the rules servers take as a name or title."""
    return _NOT_ONE_LINE.search(text) is None
