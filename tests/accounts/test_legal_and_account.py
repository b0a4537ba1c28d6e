import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from apps.accounts.models import LegalAcceptance, UserSession
from apps.core.models import AuditEvent

pytestmark = pytest.mark.django_db
PASSWORD = "s3cret-passw0rd!"


def login(email, password=PASSWORD, **headers):
    client = Client(**headers)
    response = client.post("/accounts/login/", {"login": email, "password": password})
    assert response.status_code == 302, response.content
    return client


def test_new_user_must_accept_terms_before_anything_else(make_user):
    user = make_user("new@example.test", accepted=False)
    client = login(user.email)
    response = client.get("/account/")
    assert response.status_code == 302
    assert response["Location"] == "/legal/accept?next=%2Faccount%2F"
    api = client.get("/api/usage/balance")
    assert api.status_code == 403
    assert api.json()["error"]["code"] == "terms_not_accepted"
    # Refusing to tick the box changes nothing.
    assert client.post("/legal/accept", {"next": "/account/"}).status_code == 200
    assert LegalAcceptance.objects.count() == 0
    accepted = client.post("/legal/accept", {"accept": "on", "next": "/account/"})
    assert accepted["Location"] == "/account/"
    assert client.get("/account/").status_code == 200
    row = LegalAcceptance.objects.get(user=user)
    assert (row.terms_version, row.privacy_version) == ("2026-12-01", "2026-12-01")


def test_version_change_requires_reacceptance(make_user, settings):
    user = make_user("old@example.test")
    client = login(user.email)
    assert client.get("/account/").status_code == 200
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    response = client.get("/account/")
    assert response.status_code == 302
    assert response["Location"].startswith("/legal/accept")
    page = client.get("/legal/accept")
    assert b"Our terms have changed" in page.content
    client.post("/legal/accept", {"accept": "on"})
    user.refresh_from_db()
    assert user.terms_version == "2027-01-01"
    assert client.get("/account/").status_code == 200
    assert LegalAcceptance.objects.filter(user=user).count() == 2


def test_open_redirect_is_refused(make_user):
    user = make_user("nr@example.test", accepted=False)
    client = login(user.email)
    response = client.post("/legal/accept", {"accept": "on", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_sessions_listed_and_ended_elsewhere(make_user):
    user = make_user("multi@example.test")
    first = login(user.email, HTTP_USER_AGENT="Firefox")
    second = login(user.email, HTTP_USER_AGENT="Chromium")
    assert UserSession.objects.filter(user=user).count() == 2
    page = first.get("/account/")
    assert b"Firefox" in page.content and b"Chromium" in page.content
    first.post("/account/sessions/end-others")
    assert UserSession.objects.filter(user=user).count() == 1
    assert first.get("/account/").status_code == 200
    assert second.get("/account/").status_code == 302
    assert AuditEvent.objects.get(action="sessions.ended_others").details == {"ended": 1}


def test_logout_ends_the_session_row(make_user):
    user = make_user("out@example.test")
    leaving = login(user.email, HTTP_USER_AGENT="Firefox")
    staying = login(user.email, HTTP_USER_AGENT="Chromium")
    leaving_key = leaving.session.session_key
    assert leaving.post("/accounts/logout/").status_code == 302
    assert list(UserSession.objects.filter(user=user).values_list("user_agent", flat=True)) == [
        "Chromium"
    ]
    assert not UserSession.objects.filter(session_key=leaving_key).exists()
    page = staying.get("/account/")
    assert b"Chromium" in page.content and b"Firefox" not in page.content
    assert AuditEvent.objects.filter(action="auth.logout", actor=user).count() == 1


def test_password_change_ends_other_sessions(make_user):
    user = make_user("pw@example.test")
    current = login(user.email)
    other = login(user.email)
    response = current.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "n3w-passw0rd-xyz", "password2": "n3w-passw0rd-xyz"},
    )
    assert response.status_code == 302
    assert current.get("/account/").status_code == 200
    assert other.get("/account/").status_code == 302
    assert UserSession.objects.filter(user=user).count() == 1
    assert AuditEvent.objects.filter(action="auth.password_changed", actor=user).count() == 1


def test_deactivation_needs_the_password(make_user):
    user = make_user("bye@example.test")
    client = login(user.email)
    client.post("/account/deactivate", {"password": "wrong-password"})
    user.refresh_from_db()
    assert user.is_active is True
    response = client.post("/account/deactivate", {"password": PASSWORD})
    assert response["Location"] == "/accounts/login/"
    user.refresh_from_db()
    assert user.is_active is False
    assert UserSession.objects.filter(user=user).count() == 0
    assert Session.objects.count() == 0
    assert AuditEvent.objects.filter(action="user.deactivated", actor=user).count() == 1
    refused = Client().post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    assert refused.status_code != 302 or refused["Location"] == "/accounts/inactive/"


def test_staff_cannot_deactivate_themselves(make_user):
    staff = make_user("boss@example.test", is_staff=True)
    client = login(staff.email)
    client.post("/account/deactivate", {"password": PASSWORD})
    staff.refresh_from_db()
    assert staff.is_active is True
    assert not AuditEvent.objects.filter(action="user.deactivated").exists()


def test_security_events_are_audited(make_user):
    user = make_user("audit@example.test")
    Client().post("/accounts/login/", {"login": user.email, "password": "nope-nope-nope"})
    failed = AuditEvent.objects.get(action="auth.login_failed")
    assert failed.subject_id == "audit@example.test"
    assert len(failed.request_id) == 32
    login(user.email)
    ok = AuditEvent.objects.get(action="auth.login")
    assert ok.actor_id == user.id and ok.ip_address == "127.0.0.1"


def test_api_tokens_are_shown_once_and_revocable(make_user):
    from apps.accounts.models import ApiToken
    from apps.accounts.selectors import api_token_user

    user = make_user("tok@example.test")
    client = login(user.email)
    client.post("/account/tokens", {"name": "laptop"})
    page = client.get("/account/").content.decode()
    token = ApiToken.objects.get(user=user)
    raw = page.split('id="new-token">')[1].split("<")[0]
    assert raw.startswith("ssk_") and token.prefix == raw[:10]
    assert raw not in client.get("/account/").content.decode()
    assert api_token_user(raw=raw) == user
    client.post(f"/account/tokens/{token.id}/revoke")
    assert api_token_user(raw=raw) is None


def test_admin_invite_link_shown_once_and_audited(make_user):
    from apps.accounts.models import RegistrationInvite
    from apps.accounts.services import hash_token

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = login(staff.email)
    response = client.post(
        "/admin/accounts/registrationinvite/add/",
        {"email": "", "max_uses": 3, "note": "friends", "expires_in_days": 7},
        follow=True,
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "it will not be shown again" in text
    raw = text.split("?invite=")[1].split()[0].split("<")[0]
    invite = RegistrationInvite.objects.get()
    assert invite.token_hash == hash_token(raw)
    assert (invite.max_uses, invite.note, invite.created_by_id) == (3, "friends", staff.id)
    assert (
        "?invite="
        not in client.get(
            f"/admin/accounts/registrationinvite/{invite.id}/change/"
        ).content.decode()
    )
    created = AuditEvent.objects.get(action="registration_invite.created")
    assert created.actor_id == staff.id


def test_admin_invite_max_uses_is_bounded_by_the_form(make_user):
    from apps.accounts.models import RegistrationInvite

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = login(staff.email)
    response = client.post(
        "/admin/accounts/registrationinvite/add/",
        {"email": "", "max_uses": 5000, "note": "everyone", "expires_in_days": 7},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "max_uses": ["Ensure this value is less than or equal to 1000."]
    }
    assert not RegistrationInvite.objects.exists()
    assert not AuditEvent.objects.filter(action="registration_invite.created").exists()


def test_admin_user_change_is_audited_and_audit_log_is_read_only(make_user):
    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    target = make_user("target@example.test")
    client = login(staff.email)
    response = client.post(
        f"/admin/accounts/user/{target.id}/change/",
        {"email": target.email, "display_name": "Renamed", "is_active": "on"},
    )
    assert response.status_code == 302, response.content
    row = AuditEvent.objects.get(action="admin.changed")
    assert (row.actor_id, row.subject_id) == (staff.id, str(target.id))
    assert client.get(f"/admin/core/auditevent/{row.id}/delete/").status_code == 403
    assert client.get("/admin/core/auditevent/add/").status_code == 403


def test_password_reset_by_email_ends_sessions(make_user, mailoutbox):
    import re

    user = make_user("forgot@example.test")
    old_session = login(user.email)
    client = Client()
    assert client.post("/accounts/password/reset/", {"email": user.email}).status_code == 302
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mailoutbox[0].body)
    page = client.get(link.group(1), follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link.group(1)
    done = client.post(
        form_url, {"password1": "brand-new-passw0rd", "password2": "brand-new-passw0rd"}
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand-new-passw0rd")
    assert old_session.get("/account/").status_code == 302
    assert AuditEvent.objects.filter(action="auth.password_reset", actor=user).count() == 1


def test_signup_sends_a_verification_email(settings, mailoutbox):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    password = "correct-horse-battery-9"
    Client().post(
        "/accounts/signup/",
        {"email": "verify@example.test", "password1": password, "password2": password},
    )
    assert len(mailoutbox) == 1
    assert "/accounts/confirm-email/" in mailoutbox[0].body


@pytest.mark.parametrize(
    ("mode", "expected", "absent"),
    [
        ("invite", "Accounts are by invitation: open the registration link you were sent.",
         "/accounts/signup/"),
        ("open", 'href="/accounts/signup/', "Accounts are by invitation"),
        ("closed", "Sign In", "/accounts/signup/"),
    ],
)  # fmt: skip
def test_the_sign_in_page_offers_sign_up_only_when_it_is_open(client, settings, mode, expected,
                                                              absent):  # fmt: skip
    settings.SAGASMITH_REGISTRATION_MODE = mode
    page = client.get("/accounts/login/").content.decode()
    assert expected in page
    assert absent not in page
