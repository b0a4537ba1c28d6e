"""allauth's form labels and placeholders speak as the rest of the product does: sentence case
("New password", not "New Password"), on every page that shows them."""

import re

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress
from allauth.account.utils import user_pk_to_url_str
from django.test import Client

pytestmark = pytest.mark.django_db


def labels(response) -> list[str]:
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    form = re.search(r"<form\b.*?</form>", main, re.S).group(0)
    found = re.findall(r"<label\b[^>]*>(.*?)</label>", form, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", text).split()) for text in found]


def placeholders(response) -> list[str]:
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    return re.findall(r'placeholder="([^"]*)"', main)


def signed_in(make_user, *, usable_password=True) -> Client:
    user = make_user("reader@example.test")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    if not usable_password:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    client = Client()
    client.force_login(user)
    return client


def test_sign_in_form_labels_are_sentence_case(db):
    response = Client().get("/accounts/login/")
    assert labels(response) == ["Email", "Password", "Remember me"]
    assert placeholders(response) == ["Email address", "Password"]


def test_change_password_form_labels_are_sentence_case(make_user):
    response = signed_in(make_user).get("/accounts/password/change/")
    assert labels(response) == ["Current password", "New password", "New password (again)"]
    assert placeholders(response) == ["Current password", "New password", "New password (again)"]


def test_set_password_form_labels_are_sentence_case(make_user):
    response = signed_in(make_user, usable_password=False).get("/accounts/password/set/")
    assert labels(response) == ["Password", "Password (again)"]
    assert placeholders(response) == ["Password", "Password (again)"]


def test_reset_password_from_key_form_labels_are_sentence_case(make_user):
    user = make_user("reader@example.test")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    key = default_token_generator.make_token(user)
    url = f"/accounts/password/reset/key/{user_pk_to_url_str(user)}-{key}/"
    response = Client().get(url, follow=True)
    assert response.status_code == 200
    assert labels(response) == ["New password", "New password (again)"]
    assert placeholders(response) == ["New password", "New password (again)"]


def test_sentence_case_forms_keep_allauth_behaviour(make_user):
    """The relabelled change-password form still checks the current password."""
    client = signed_in(make_user)
    response = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": "not-it",
            "password1": "An0ther-passw0rd!",
            "password2": "An0ther-passw0rd!",
        },
    )
    assert response.status_code == 200
    assert "Please type your current password." in response.content.decode()
    response = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": "s3cret-passw0rd!",
            "password1": "An0ther-passw0rd!",
            "password2": "An0ther-passw0rd!",
        },
    )
    assert response.status_code == 302
