"""Text checks shared by the apps that take words from people."""

import unicodedata


def visible(text: str) -> bool:
    """Whether the text shows anything: not only spaces, separators and invisible or
    unassigned characters (a zero-width space, which strip() keeps, shows as nothing)."""
    return not all(unicodedata.category(ch)[0] in "CZ" for ch in text)
