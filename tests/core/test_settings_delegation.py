"""Production settings refuse a delegation token lifetime the domain client would refuse."""

import pytest

from apps.domains.client import MAX_LIFETIME
from tests.core.test_settings import COMPLETE_ENV, run_check


@pytest.mark.parametrize("lifetime", [0, -5, MAX_LIFETIME + 1])
def test_production_refuses_a_delegation_lifetime_the_client_refuses(lifetime):
    result = run_check({**COMPLETE_ENV, "SAGASMITH_DELEGATION_LIFETIME": str(lifetime)})
    assert result.returncode != 0
    # Otherwise it starts, and every domain call fails with a ValueError (a 500) until fixed.
    assert (
        "Production settings refused: SAGASMITH_DELEGATION_LIFETIME must be 1..300 seconds "
        f"(the most a delegation token may live), not {lifetime}"
    ) in result.stderr


@pytest.mark.parametrize("lifetime", [1, MAX_LIFETIME])
def test_production_starts_with_a_delegation_lifetime_at_either_bound(lifetime):
    result = run_check(
        {**COMPLETE_ENV, "SAGASMITH_DELEGATION_LIFETIME": str(lifetime)},
        code="import django; django.setup(); from django.conf import settings; "
        "print(settings.SAGASMITH_DELEGATION_LIFETIME)",
    )
    assert (result.returncode, result.stdout.strip()) == (0, str(lifetime)), result.stderr


def test_production_names_a_delegation_lifetime_that_is_not_a_number():
    result = run_check({**COMPLETE_ENV, "SAGASMITH_DELEGATION_LIFETIME": "1m"})
    assert result.returncode != 0
    assert (
        "SAGASMITH_DELEGATION_LIFETIME must be a whole number of seconds (1..300), not '1m'"
    ) in result.stderr
