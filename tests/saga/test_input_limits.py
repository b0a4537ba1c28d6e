"""Over-long inputs are rejected with the limit they exceed."""

import pytest

from apps.saga import services
from apps.saga.errors import InvalidInput
from tests.saga.conftest import simple_plan, snapshot, started

pytestmark = pytest.mark.django_db


def test_over_long_human_input_names_the_limit(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(
            user=user, saga_id=saga_id, human_input="x" * (services.MAX_HUMAN_INPUT_CHARS + 1)
        )
    assert caught.value.message == "humanInput is longer than 20000 characters."
    assert snapshot(saga_id) == before


def test_over_long_plan_names_the_limit(user):
    saga_id, _ = started(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(
            user=user, saga_id=saga_id, plan_yaml="x" * (services.MAX_PLAN_CHARS + 1)
        )
    assert caught.value.message == "planYaml is longer than 200000 characters."
    assert snapshot(saga_id) == before
