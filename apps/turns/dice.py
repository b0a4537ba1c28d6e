"""What a domain's roll result (`dice_roll`: `total` and per-term `rolls` with `sign`, `results`
and `kept`) says about the dice, for narration and the room's dice panel alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

# An oracle question's odds in words, as its reply and its dice line say them ("asked at
# very likely odds").
ODDS_SAID = {
    "impossible": gettext_lazy("impossible"),
    "very_unlikely": gettext_lazy("very unlikely"),
    "unlikely": gettext_lazy("unlikely"),
    "even": gettext_lazy("even"),
    "likely": gettext_lazy("likely"),
    "very_likely": gettext_lazy("very likely"),
    "certain": gettext_lazy("certain"),
}


def roll_addends(result: Mapping[str, Any]) -> list[int]:
    """The numbers the total is the sum of: every kept die, signed by its term, then the flat
    modifier when there is one. Dice a keep left out are not among them."""
    addends = [
        int(term.get("sign") or 1) * int(value)
        for term in result.get("rolls") or []
        for value in term.get("kept") or []
    ]
    flat = int(result.get("total") or 0) - sum(addends)
    if flat:
        addends.append(flat)
    return addends


def roll_dropped(result: Mapping[str, Any]) -> list[int]:
    """The dice a keep-highest or keep-lowest rolled but left out, in rolled order."""
    dropped: list[int] = []
    for term in result.get("rolls") or []:
        left = Counter(int(v) for v in term.get("kept") or [])
        for value in term.get("results") or []:
            if left[int(value)]:
                left[int(value)] -= 1
            else:
                dropped.append(int(value))
    return dropped


def addends_text(addends: list[int]) -> str:
    """ "4 + 2 - 1" for [4, 2, -1]; "" for a single number, which adds nothing to the total."""
    if len(addends) < 2:
        return ""
    text = str(addends[0])
    for value in addends[1:]:
        text += f" - {-value}" if value < 0 else f" + {value}"
    return text
