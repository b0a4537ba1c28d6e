"""Dice notation: every out-of-bounds number gets its bound, however many digits it has."""

from __future__ import annotations

import pytest

from domain_servers.common import dice
from domain_servers.common.errors import DomainError


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("101d6", "dice count 101 is outside 1..100"),
        ("1000d1000", "dice count 1000 is outside 1..100"),
        ("1000d6", "dice count 1000 is outside 1..100"),
        ("0d6", "dice count 0 is outside 1..100"),
        ("12345678901234567890d6", "dice count 123456789012… is outside 1..100"),
        ("1d10000", "die size 10000 is outside 2..1000"),
        ("2d6+1d99999", "die size 99999 is outside 2..1000"),
        ("1d1", "die size 1 is outside 2..1000"),
        ("1d6+123456", "flat modifier 123456 is above 10000"),
        ("4d6kh1000", "keep count 1000 is outside 1..4"),
        ("1d6 1", "expression has whitespace inside a term"),
        ("1d6 2d6", "expression has whitespace inside a term"),
        ("1d62d6", "expression needs + or - before 'd6'"),
    ],
)
def test_bad_expressions_name_the_bound(expression: str, message: str) -> None:
    with pytest.raises(DomainError) as raised:
        dice.parse(expression)
    assert raised.value.message == message


@pytest.mark.parametrize("expression", ["100d1000", "1d1000+10000", "2d20kh1+5", "d20", "1d6-1d4"])
def test_expressions_at_the_bounds_parse(expression: str) -> None:
    assert dice.parse(expression)
