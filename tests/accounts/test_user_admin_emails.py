import pytest
from django.test import Client

from apps.accounts.models import User

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "n3w-passw0rd-xyz"
TAKEN = "A user is already registered with this email address."


@pytest.fixture
def staff_client(make_user):
    client = Client()
    client.force_login(make_user("root@example.test", is_staff=True, is_superuser=True))
    return client


def add_user(client, email):
    return client.post(
        "/admin/accounts/user/add/",
        {"email": email, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )


def test_staff_adding_a_user_stores_the_email_as_sign_up_does(staff_client):
    assert add_user(staff_client, "Dave@Example.TEST").status_code == 302
    # Lower case, as sign-up and the manager store it: lookups by address find this user.
    assert User.objects.get(email="dave@example.test").check_password(NEW_PASSWORD)
    refused = add_user(staff_client, "DAVE@example.test")
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {"email": [TAKEN]}
    assert sorted(User.objects.values_list("email", flat=True)) == [
        "dave@example.test",
        "root@example.test",
    ]


def test_staff_changing_an_email_cannot_take_another_users_address(staff_client, make_user):
    target = make_user("target@example.test")
    make_user("other@example.test")
    refused = staff_client.post(
        f"/admin/accounts/user/{target.id}/change/",
        {"email": "Other@Example.test", "display_name": "", "is_active": "on"},
    )
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {"email": [TAKEN]}
    target.refresh_from_db()
    assert target.email == "target@example.test"
    changed = staff_client.post(
        f"/admin/accounts/user/{target.id}/change/",
        {"email": "Renamed@Example.test", "display_name": "", "is_active": "on"},
    )
    assert changed.status_code == 302
    target.refresh_from_db()
    assert target.email == "renamed@example.test"
