import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor

from apps.accounts.models import User

SAME_ADDRESS = "Another account already uses this email address (in any letter case)."


@pytest.mark.django_db
def test_the_database_refuses_a_second_account_for_an_address_in_another_case(make_user):
    make_user("alice@example.test")
    with pytest.raises(IntegrityError, match="accounts_user_email_ci_unique"):
        User(email="Alice@Example.test").save()


@pytest.mark.django_db
def test_validating_an_account_whose_address_another_has_in_another_case_says_so(make_user):
    make_user("alice@example.test")
    with pytest.raises(ValidationError) as refused:
        User(email="ALICE@example.test").validate_constraints()
    assert refused.value.messages == [SAME_ADDRESS]


@pytest.mark.django_db(transaction=True)
def test_adding_the_constraint_stops_and_names_the_addresses_two_accounts_share():
    executor = MigrationExecutor(connection)
    before = [("accounts", "0002_lowercase_emails")]
    executor.migrate(before)
    try:
        old_apps = executor.loader.project_state(before).apps
        OldUser = old_apps.get_model("accounts", "User")
        OldUser.objects.create(email="Twin@Example.test", password="!")
        OldUser.objects.create(email="twin@example.test", password="!")
        OldUser.objects.create(email="single@example.test", password="!")
        executor = MigrationExecutor(connection)
        with pytest.raises(RuntimeError) as stopped:
            executor.migrate(executor.loader.graph.leaf_nodes())
        assert str(stopped.value) == (
            "Some accounts share an email address in different letter case; decide which "
            "account keeps each address and change the others' addresses before migrating: "
            "twin@example.test"
        )
        assert sorted(OldUser.objects.values_list("email", flat=True)) == [
            "Twin@Example.test",
            "single@example.test",
            "twin@example.test",
        ]
        OldUser.objects.filter(email="Twin@Example.test").delete()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
