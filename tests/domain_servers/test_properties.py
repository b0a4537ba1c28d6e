"""Property tests: the dice parser/roller and the damage/HP arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain_servers.common import dice
from domain_servers.common.errors import DomainError
from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules

dice_terms = st.tuples(
    st.sampled_from(["+", "-"]),
    st.integers(1, 10),
    st.integers(2, 1000),
    st.sampled_from(["", "kh", "kl"]),
)
flat_terms = st.tuples(st.sampled_from(["+", "-"]), st.integers(0, 10_000))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(dice_terms, min_size=1, max_size=5),
    st.lists(flat_terms, max_size=3),
    st.integers(0, 2**32),
)
def test_roll_totals_and_bounds(terms, flats, seed_int) -> None:
    text = ""
    for index, (sign, count, sides, keep) in enumerate(terms):
        keep_text = f"{keep}1" if keep else ""
        text += ("" if index == 0 and sign == "+" else sign) + f"{count}d{sides}{keep_text}"
    for sign, value in flats:
        text += f"{sign}{value}"
    stream = RandomStream(f"{seed_int:064x}")
    result = dice.roll(text, stream)
    expected = 0
    for (sign, count, sides, keep), rolled in zip(terms, result["rolls"], strict=True):
        assert len(rolled["results"]) == count
        assert all(1 <= v <= sides for v in rolled["results"])
        if keep == "kh":
            assert rolled["kept"] == [max(rolled["results"])]
        elif keep == "kl":
            assert rolled["kept"] == [min(rolled["results"])]
        else:
            assert rolled["kept"] == rolled["results"]
        expected += (-1 if sign == "-" else 1) * sum(rolled["kept"])
    expected += sum(v if s == "+" else -v for s, v in flats)
    assert result["total"] == expected
    assert result["detail"].endswith(f"=> {expected}")
    assert stream.draws == sum(count for _, count, _, _ in terms)
    # Same seed, same expression: same result.
    assert dice.roll(text, RandomStream(f"{seed_int:064x}")) == result


@given(st.text(max_size=30))
def test_parser_never_crashes_on_junk(text) -> None:
    try:
        terms = dice.parse(text)
    except DomainError as err:
        assert err.code == "invalid_request"
    else:
        assert 1 <= sum(t.count for t in terms) <= dice.MAX_DICE_TOTAL


@pytest.mark.parametrize(
    "bad", ["0d6", "1d1", "1d1001", "101d6", "3d6kh4", "d", "2d6++1", "1d6 1", "10001", "20"]
)
def test_parser_rejects_out_of_bounds(bad: str) -> None:
    with pytest.raises(DomainError):
        dice.parse(bad)


@given(st.integers(1, 100), st.integers(2, 1000))
def test_randint_is_in_range_and_counts_draws(count, sides) -> None:
    stream = RandomStream("c" * 64)
    values = [stream.randint(1, sides) for _ in range(count)]
    assert all(1 <= v <= sides for v in values)
    assert stream.draws == count
    assert stream.position >= count


@settings(max_examples=300)
@given(
    current=st.integers(1, 200),
    extra_max=st.integers(0, 100),
    temp=st.integers(0, 50),
    amount=st.integers(0, 500),
    resist=st.booleans(),
    vuln=st.booleans(),
    immune=st.booleans(),
    kind=st.sampled_from(["pc", "monster"]),
)
def test_damage_arithmetic(current, extra_max, temp, amount, resist, vuln, immune, kind) -> None:
    maximum = current + extra_max
    char = {
        "id": "x",
        "kind": kind,
        "hp": {"current": current, "max": maximum, "temp": temp},
        "resistances": ["fire"] if resist else [],
        "vulnerabilities": ["fire"] if vuln else [],
        "immunities": ["fire"] if immune else [],
        "conditions": [],
        "death_saves": {"successes": 0, "failures": 0},
    }
    effect = rules.apply_damage(char, amount, "fire")
    adjusted = 0 if immune else (amount // 2 if resist else amount) * (2 if vuln else 1)
    assert effect["adjusted"] == adjusted
    absorbed = min(temp, adjusted)
    remaining = adjusted - absorbed
    assert char["hp"]["temp"] == temp - absorbed
    assert char["hp"]["current"] == max(0, current - remaining)
    assert 0 <= char["hp"]["current"] <= maximum
    if char["hp"]["current"] == 0:
        massive = remaining - current >= maximum
        if kind == "monster" or massive:
            assert char["conditions"] == ["dead"]
        else:
            assert char["conditions"] == ["prone", "unconscious"]
    else:
        assert char["conditions"] == []


@given(current=st.integers(0, 100), extra=st.integers(0, 100), amount=st.integers(1, 300))
def test_heal_arithmetic(current, extra, amount) -> None:
    maximum = max(1, current + extra)
    char = {
        "id": "x",
        "kind": "pc",
        "hp": {"current": current, "max": maximum, "temp": 0},
        "conditions": ["unconscious"] if current == 0 else [],
        "death_saves": {"successes": 0, "failures": 1},
    }
    if current == maximum:
        # Nothing to heal: refused, nothing changed.
        with pytest.raises(DomainError, match="already at full hit points"):
            rules.heal(char, amount)
        assert char["hp"]["current"] == maximum
        return
    result = rules.heal(char, amount)
    assert char["hp"]["current"] == min(maximum, current + amount)
    assert result["healed"] == char["hp"]["current"] - current
    assert "unconscious" not in char["conditions"]
