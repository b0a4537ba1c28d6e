"""The wording of a refused argument, as a player reads it when the rules turn it back."""

import pytest

from domain_servers.common.errors import DomainError
from domain_servers.common.hygiene import validate


@pytest.mark.parametrize(
    ("value", "message"),
    [("", "title must not be empty"), ("ab", "title is shorter than 3 characters")],
)
def test_a_too_short_string_is_named_empty_when_it_is(value, message):
    minimum = 1 if value == "" else 3
    with pytest.raises(DomainError) as refused:
        validate({"type": "string", "minLength": minimum}, value, "title")
    assert (refused.value.code, refused.value.message) == ("invalid_request", message)
