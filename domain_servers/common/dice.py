"""Dice notation: `[+-]NdS[kh|kl K]` terms and flat modifiers, drawn from a RandomStream."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from domain_servers.common.errors import invalid
from domain_servers.common.random_stream import RandomStream

MAX_TERMS = 20
MAX_DICE_TOTAL = 200
MAX_FLAT = 10_000

# Digit runs are read whole, so an over-long count or size gets the bound message below
# rather than being split into a term and a stray number.
_TERM = re.compile(r"([+-]?)(?:(\d*)d(\d+)(?:(kh|kl)(\d*))?|(\d+))")
_SHOWN_DIGITS = 12


def _number(digits: str) -> int:
    """A digit run as an int; absurdly long runs (beyond any bound) are not converted whole."""
    return int(digits) if len(digits) <= 18 else 10**18


def _shown(digits: str) -> str:
    digits = digits.lstrip("0") or "0"
    return digits if len(digits) <= _SHOWN_DIGITS else digits[:_SHOWN_DIGITS] + "…"


@dataclass(frozen=True)
class DiceTerm:
    sign: int
    count: int  # 0 for a flat modifier
    sides: int
    keep: str | None  # "kh", "kl" or None
    keep_count: int
    flat: int

    def text(self) -> str:
        if self.count == 0:
            return str(self.flat)
        keep = f"{self.keep}{self.keep_count}" if self.keep else ""
        return f"{self.count}d{self.sides}{keep}"


def parse(expression: str) -> list[DiceTerm]:
    """Parse a whole expression or raise `invalid_request` naming the problem."""
    # Spaces may surround operators only, so "1d6 1" is not silently read as 1d61.
    text = re.sub(r"\s*([+-])\s*", r"\1", expression.strip()).lower()
    if not text:
        raise invalid("expression is empty")
    if re.search(r"\s", text):
        raise invalid("expression has whitespace inside a term")
    terms: list[DiceTerm] = []
    pos = 0
    dice_total = 0
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos:
            raise invalid(f"expression has an unreadable part at {text[pos : pos + 12]!r}")
        sign_text, count_text, sides_text, keep, keep_text, flat_text = match.groups()
        if terms and not sign_text:
            raise invalid(f"expression needs + or - before {match.group(0)!r}")
        sign = -1 if sign_text == "-" else 1
        if flat_text is not None:
            flat = _number(flat_text)
            if flat > MAX_FLAT:
                raise invalid(f"flat modifier {_shown(flat_text)} is above {MAX_FLAT}")
            terms.append(DiceTerm(sign, 0, 0, None, 0, flat))
        else:
            count = _number(count_text) if count_text else 1
            sides = _number(sides_text)
            if not 1 <= count <= 100:
                raise invalid(f"dice count {_shown(count_text)} is outside 1..100")
            if not 2 <= sides <= 1000:
                raise invalid(f"die size {_shown(sides_text)} is outside 2..1000")
            keep_count = 0
            if keep:
                keep_count = _number(keep_text) if keep_text else 1
                if not 1 <= keep_count <= count:
                    raise invalid(f"keep count {_shown(keep_text)} is outside 1..{count}")
            dice_total += count
            terms.append(DiceTerm(sign, count, sides, keep, keep_count, 0))
        pos = match.end()
        if len(terms) > MAX_TERMS:
            raise invalid(f"expression has more than {MAX_TERMS} terms")
    if dice_total > MAX_DICE_TOTAL:
        raise invalid(f"expression rolls {dice_total} dice; the limit is {MAX_DICE_TOTAL}")
    if dice_total == 0:
        raise invalid("expression has no dice")
    return terms


def doubled(terms: list[DiceTerm]) -> list[DiceTerm]:
    """Critical-hit dice: every dice term rolls twice as many dice; modifiers stay."""
    return [
        DiceTerm(t.sign, t.count * 2, t.sides, t.keep, t.keep_count * 2, t.flat) if t.count else t
        for t in terms
    ]


def normalized(terms: list[DiceTerm]) -> str:
    out = ""
    for index, term in enumerate(terms):
        if index or term.sign < 0:
            out += "-" if term.sign < 0 else "+"
        out += term.text()
    return out


def roll_terms(terms: list[DiceTerm], rng: RandomStream) -> dict[str, Any]:
    total = 0
    rolls: list[dict[str, Any]] = []
    parts: list[str] = []
    for term in terms:
        sign_text = "-" if term.sign < 0 else "+"
        if term.count == 0:
            total += term.sign * term.flat
            parts.append(f"{sign_text} {term.flat}")
            continue
        values = [rng.randint(1, term.sides) for _ in range(term.count)]
        if term.keep == "kh":
            kept = sorted(values, reverse=True)[: term.keep_count]
        elif term.keep == "kl":
            kept = sorted(values)[: term.keep_count]
        else:
            kept = list(values)
        subtotal = sum(kept)
        total += term.sign * subtotal
        rolls.append(
            {
                "term": term.text(),
                "sign": term.sign,
                "sides": term.sides,
                "results": values,
                "kept": kept,
                "subtotal": subtotal,
            }
        )
        shown = ", ".join(str(v) for v in values)
        parts.append(f"{sign_text} {term.text()} [{shown}] = {subtotal}")
    detail = " ".join(parts)
    detail = detail[2:] if detail.startswith("+ ") else detail
    return {
        "expression": normalized(terms),
        "total": total,
        "rolls": rolls,
        "detail": f"{detail} => {total}",
    }


def roll(expression: str, rng: RandomStream, *, critical: bool = False) -> dict[str, Any]:
    terms = parse(expression)
    if critical:
        terms = doubled(terms)
    return roll_terms(terms, rng)
