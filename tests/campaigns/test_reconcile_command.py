import pytest
from django.core.management import CommandError, call_command


@pytest.mark.django_db
def test_a_campaign_id_that_is_not_one_is_named_in_a_command_error():
    with pytest.raises(CommandError) as refused:
        call_command("bindings_reconcile", "not-a-uuid")
    assert str(refused.value) == "Not a campaign id: not-a-uuid"
