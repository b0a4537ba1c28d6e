"""The emails allauth sends are titled as the product speaks: sentence case
("[SagaSmith] Please confirm your email address", not "... Please Confirm Your Email Address")."""

import pytest
from allauth.account.adapter import get_adapter
from django.template.loader import render_to_string
from django.test import RequestFactory

pytestmark = pytest.mark.django_db

SUBJECTS = {
    "account/email/account_already_exists": "[SagaSmith] Account already exists",
    "account/email/email_changed": "[SagaSmith] Email changed",
    "account/email/email_confirm": "[SagaSmith] Email confirmation",
    "account/email/email_confirmation": "[SagaSmith] Please confirm your email address",
    "account/email/email_confirmation_signup": "[SagaSmith] Please confirm your email address",
    "account/email/email_deleted": "[SagaSmith] Email removed",
    "account/email/login_code": "[SagaSmith] Sign-in code",
    "account/email/password_changed": "[SagaSmith] Password changed",
    "account/email/password_reset_code": "[SagaSmith] Password reset code",
    "account/email/password_reset": "[SagaSmith] Password reset",
    "account/email/password_reset_key": "[SagaSmith] Password reset email",
    "account/email/password_set": "[SagaSmith] Password set",
    "account/email/unknown_account": "[SagaSmith] Unknown account",
}


@pytest.mark.parametrize(("template_prefix", "subject"), SUBJECTS.items())
def test_account_email_subjects_are_sentence_case(template_prefix, subject):
    adapter = get_adapter(RequestFactory().get("/"))
    # As allauth's render_mail builds the subject (its bodies need a full context).
    text = render_to_string(f"{template_prefix}_subject.txt", {}, adapter.request)
    assert adapter.format_email_subject(" ".join(text.splitlines()).strip()) == subject
