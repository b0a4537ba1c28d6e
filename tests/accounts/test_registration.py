import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from apps.accounts.models import RegistrationInvite, User
from apps.accounts.services import hash_token, registration_invite_create
from apps.core.models import AuditEvent

PASSWORD = "correct-horse-battery-9"


def signup(client, email, invite=""):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    if invite:
        data["invite"] = invite
    return client.post("/accounts/signup/" + (f"?invite={invite}" if invite else ""), data)


@pytest.mark.django_db
def test_closed_mode_refuses_signup(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "closed"
    _invite, raw = registration_invite_create(created_by=None)
    response = signup(client, "new@example.test", raw)
    assert response.status_code == 200
    assert b"Sign Up Closed" in response.content
    assert not User.objects.filter(email="new@example.test").exists()


@pytest.mark.django_db
def test_open_mode_allows_signup_without_invite(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    response = signup(client, "new@example.test")
    assert response.status_code == 302
    assert User.objects.filter(email="new@example.test").count() == 1


INVITE_UNAVAILABLE = (
    "This invite link is invalid, expired or already used."
    " Ask the person who invited you for a new link."
)


def assert_invite_refused(response):
    """The sign-up page, open, with the invite error on the form and no account made."""
    assert response.status_code == 200
    assert "Sign Up Closed" not in response.content.decode()
    assert response.context["form"].errors == {"__all__": [INVITE_UNAVAILABLE]}
    assert INVITE_UNAVAILABLE in response.content.decode()


@pytest.mark.django_db
def test_invite_mode_requires_a_valid_invite(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    assert b"Sign Up Closed" in signup(client, "a@example.test").content
    assert b"Sign Up Closed" in client.get("/accounts/signup/").content
    # A bad link opens the form, so submitting it says what is wrong with the invite.
    bad = Client()
    page = bad.get("/accounts/signup/?invite=not-a-token")
    assert page.status_code == 200
    assert "Sign Up Closed" not in page.content.decode()
    assert page.context["form"].fields["invite"].initial == "not-a-token"
    assert_invite_refused(signup(bad, "a@example.test", "not-a-token"))
    # The token remembered in the session is checked too, not only a posted one.
    assert_invite_refused(
        bad.post(
            "/accounts/signup/",
            {"email": "a@example.test", "password1": PASSWORD, "password2": PASSWORD},
        )
    )
    assert not User.objects.exists()
    assert not AuditEvent.objects.filter(action="registration_invite.used").exists()


@pytest.mark.django_db
def test_invite_signup_consumes_one_use_and_audits(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    invite, raw = registration_invite_create(created_by=None, max_uses=2)
    assert invite.token_hash == hash_token(raw)
    assert raw not in str(RegistrationInvite.objects.values_list())
    response = signup(client, "new@example.test", raw)
    assert response.status_code == 302
    invite.refresh_from_db()
    assert invite.used_count == 1
    user = User.objects.get(email="new@example.test")
    assert user.registration_invite_use.invite_id == invite.id
    used = AuditEvent.objects.get(action="registration_invite.used")
    assert used.actor_id == user.id
    assert used.subject_id == str(invite.id)


@pytest.mark.django_db
def test_expired_and_revoked_invites_are_refused(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    expired, raw_expired = registration_invite_create(created_by=None)
    RegistrationInvite.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    revoked, raw_revoked = registration_invite_create(created_by=None)
    RegistrationInvite.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    used, raw_used = registration_invite_create(created_by=None)
    RegistrationInvite.objects.filter(pk=used.pk).update(used_count=1)
    for raw in (raw_expired, raw_revoked, raw_used):
        assert_invite_refused(signup(Client(), "x@example.test", raw))
    assert not User.objects.exists()
    assert dict(RegistrationInvite.objects.values_list("pk", "used_count")) == {
        expired.pk: 0,
        revoked.pk: 0,
        used.pk: 1,
    }


@pytest.mark.django_db
def test_email_bound_invite(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    invite, raw = registration_invite_create(created_by=None, email="Bound@Example.test")
    wrong = signup(Client(), "other@example.test", raw)
    assert wrong.status_code == 200
    assert b"This invite is for a different email address." in wrong.content
    assert signup(Client(), "bound@example.test", raw).status_code == 302
    invite.refresh_from_db()
    assert invite.used_count == 1


@pytest.mark.django_db(transaction=True)
def test_invite_race_creates_exactly_one_account(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    invite, raw = registration_invite_create(created_by=None, max_uses=1)
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def worker(n):
        try:
            client = Client()
            client.get(f"/accounts/signup/?invite={raw}")
            barrier.wait()
            statuses.append(signup(client, f"racer{n}@example.test", raw).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses).count(302) == 1
    assert len(statuses) == 20
    assert User.objects.count() == 1
    invite.refresh_from_db()
    assert invite.used_count == 1
    assert AuditEvent.objects.filter(action="registration_invite.used").count() == 1
