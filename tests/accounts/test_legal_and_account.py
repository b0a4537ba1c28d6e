import io
import re

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
    response = client.get("/campaigns/new")
    assert response.status_code == 302
    assert response["Location"] == "/legal/accept?next=%2Fcampaigns%2Fnew"
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
    assert client.get("/").status_code == 200
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/legal/accept")
    page = client.get("/legal/accept")
    assert b"Our terms have changed" in page.content
    client.post("/legal/accept", {"accept": "on"})
    user.refresh_from_db()
    assert user.terms_version == "2027-01-01"
    assert client.get("/").status_code == 200
    assert LegalAcceptance.objects.filter(user=user).count() == 2
    # Opened again once accepted: nothing has changed any more, and it says so.
    again = client.get("/legal/accept").content.decode()
    assert "<h1>Terms and privacy</h1>" in again
    assert "Our terms have changed" not in again
    assert "You have accepted the current versions." in again


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
    # The invite's page shows the link in a field to copy.
    raw = re.search(r'id="invite-link" value="[^"]*\?invite=([^"]+)"', text).group(1)
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
        ("closed", "Sign in", "/accounts/signup/"),
    ],
)  # fmt: skip
def test_the_sign_in_page_offers_sign_up_only_when_it_is_open(client, settings, mode, expected,
                                                              absent):  # fmt: skip
    settings.SAGASMITH_REGISTRATION_MODE = mode
    page = client.get("/accounts/login/").content.decode()
    assert expected in page
    assert absent not in page


def test_revoking_a_token_the_user_does_not_own_is_not_found(make_user):
    from apps.accounts.selectors import api_token_user
    from apps.accounts.services import api_token_create, api_token_revoke

    owner = make_user("owner@example.test")
    token, raw = api_token_create(user=owner, name="laptop")
    client = login(make_user("other@example.test").email)
    response = client.post(f"/account/tokens/{token.id}/revoke")
    assert response.status_code == 404
    assert "You have no active API token with that id." in response.content.decode()
    assert "Token revoked." not in client.get("/account/").content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None
    assert api_token_user(raw=raw) == owner
    assert not AuditEvent.objects.filter(action="api_token.revoked").exists()
    # The owner revokes it once; a second time there is nothing left to revoke.
    assert api_token_revoke(user=owner, token_id=token.id) is True
    assert api_token_revoke(user=owner, token_id=token.id) is False
    assert AuditEvent.objects.filter(action="api_token.revoked").count() == 1


def test_a_user_added_by_staff_comes_with_a_quota_account(make_user):
    from apps.accounts.models import User
    from apps.quota.models import QuotaAccount

    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    client = login(staff.email)
    response = client.post(
        "/admin/accounts/user/add/",
        {"email": "added@example.test", "password1": "n3w-passw0rd-xyz",
         "password2": "n3w-passw0rd-xyz"},
    )  # fmt: skip
    assert response.status_code == 302, response.content
    account = QuotaAccount.objects.get(user=User.objects.get(email="added@example.test"))
    assert (account.plan.slug, account.balance, account.reserved) == ("free", 100, 0)


UNKNOWN_ACCOUNT_MAIL = (
    "Hi,\n\n"
    "Someone asked to reset the password for a SagaSmith account with nobody@example.test, but"
    " there is no account with this address.\n\n"
    "{offer}\n\n"
    "If it wasn't you, you can ignore this email.\n\n"
    "Happy adventuring,\nThe SagaSmith team\nlocalhost"
)


@pytest.mark.parametrize(
    ("mode", "offer"),
    [
        ("open", "If it was you and you'd like an account, sign up here:\n\n"
                 "http://testserver/accounts/signup/"),
        ("invite", "Accounts on SagaSmith are by invitation. If you were invited, sign up with the"
                   " registration link you were sent; without one, ask the person who invited you"
                   " for a link."),
        ("closed", "SagaSmith is not taking new accounts at the moment."),
    ],
)  # fmt: skip
def test_password_reset_for_an_unknown_address_offers_sign_up_only_when_open(
    settings, mailoutbox, mode, offer
):
    settings.SAGASMITH_REGISTRATION_MODE = mode
    response = Client().post("/accounts/password/reset/", {"email": "nobody@example.test"})
    assert response.status_code == 302
    assert [(m.to, m.subject, m.body) for m in mailoutbox] == [
        (
            ["nobody@example.test"],
            "[SagaSmith] Unknown account",
            UNKNOWN_ACCOUNT_MAIL.format(offer=offer),
        )
    ]


def test_rate_limited_password_reset_gets_the_site_page_with_retry_after(settings, mailoutbox):
    import re

    # The test settings switch allauth's rate limits off; this is its default for resets.
    settings.ACCOUNT_RATE_LIMITS = {"reset_password": "20/m/ip,5/m/key"}
    client = Client()
    for _ in range(5):
        sent = client.post("/accounts/password/reset/", {"email": "nobody@example.test"})
        assert sent.status_code == 302
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.test"})
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert [t.name for t in response.templates][:2] == ["429.html", "base.html"]
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    assert " ".join(re.sub(r"<[^>]+>", " ", main).split()) == (
        "Too many attempts That was tried too many times in a short while."
        " Wait a minute, then try again. Try again"
    )
    assert '<a class="button" href="/accounts/password/reset/">Try again</a>' in main
    assert len(mailoutbox) == 5


def test_admin_cannot_clear_revoked_at_to_revive_a_revoked_token(make_user):
    from apps.accounts.models import ApiToken
    from apps.accounts.selectors import api_token_user
    from apps.accounts.services import api_token_create, api_token_revoke

    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    user = make_user("leaky@example.test")
    token, raw = api_token_create(user=user, name="leaked laptop")
    assert api_token_revoke(user=user, token_id=token.id)
    revoked_at = ApiToken.objects.get(pk=token.pk).revoked_at
    client = Client()
    client.force_login(staff)
    response = client.post(
        f"/admin/accounts/apitoken/{token.pk}/change/",
        {"revoked_at_0": "", "revoked_at_1": ""},
    )
    assert response.status_code == 302
    assert ApiToken.objects.get(pk=token.pk).revoked_at == revoked_at
    assert api_token_user(raw=raw) is None


def test_admin_revokes_tokens_with_an_audited_action(make_user):
    from apps.accounts.models import ApiToken
    from apps.accounts.selectors import api_token_user
    from apps.accounts.services import api_token_create

    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    user = make_user("leaky@example.test")
    token, raw = api_token_create(user=user, name="leaked laptop")
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/accounts/apitoken/",
        {"action": "revoke", "_selected_action": [str(token.pk)], "index": "0"},
        follow=True,
    )
    assert "Revoked 1 token." in response.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert api_token_user(raw=raw) is None
    event = AuditEvent.objects.get(action="api_token.revoked")
    assert (event.actor_id, event.subject_id) == (staff.id, str(token.pk))


def test_deleting_a_session_row_in_admin_signs_that_session_out(make_user):
    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    user = make_user("stolen@example.test")
    victim = login(user.email, HTTP_USER_AGENT="Stolen")
    row = UserSession.objects.get(user=user)
    admin_client = Client()
    admin_client.force_login(staff)
    response = admin_client.post(
        "/admin/accounts/usersession/",
        {"action": "delete_selected", "_selected_action": [str(row.pk)], "post": "yes"},
    )
    assert response.status_code == 302
    assert not UserSession.objects.filter(user=user).exists()
    assert not Session.objects.filter(session_key=row.session_key).exists()
    assert victim.get("/account/").status_code == 302
    event = AuditEvent.objects.get(action="sessions.ended_by_staff")
    assert (event.actor_id, event.subject_id, event.details) == (
        staff.id,
        str(user.id),
        {"ended": 1},
    )


def test_demo_users_come_with_quota_accounts_and_demo_credits_once(settings):
    """Like sign-up and the admin's add: staff find every demo user under Quota accounts,
    not only those who already opened /usage/ or ran a turn."""
    from django.core.management import call_command

    from apps.accounts.management.commands.seed_demo import DEMO_USERS
    from apps.accounts.models import User
    from apps.quota.models import QuotaAccount

    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())  # idempotent
    emails = sorted(email for email, _name, _staff in DEMO_USERS)
    assert sorted(QuotaAccount.objects.values_list("user__email", flat=True)) == emails
    assert User.objects.count() == len(emails)
    # The plan's grant and the demo credits, once however often it runs.
    assert all(a.balance == a.plan.periodic_grant + 2000 for a in QuotaAccount.objects.all())


def test_staff_deactivating_a_user_in_admin_signs_them_out_and_revokes_tokens(make_user):
    """Like deactivating one's own account: reactivating the user later must not bring back
    the sessions and tokens they had (one of them perhaps why they were suspended)."""
    from apps.accounts.models import ApiToken, User
    from apps.accounts.selectors import api_token_user
    from apps.accounts.services import api_token_create

    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    target = make_user("abuser@example.test")
    browser = login(target.email)
    _token, raw = api_token_create(user=target, name="bot")
    client = login(staff.email)
    response = client.post(
        f"/admin/accounts/user/{target.id}/change/",
        {"email": target.email, "display_name": "Abuser"},
    )
    assert response.status_code == 302, response.content
    target.refresh_from_db()
    assert (target.is_active, target.deactivated_at is not None) == (False, True)
    assert not UserSession.objects.filter(user=target).exists()
    assert ApiToken.objects.get(user=target).revoked_at is not None
    event = AuditEvent.objects.get(action="user.deactivated_by_staff")
    assert (event.actor_id, event.subject_id) == (staff.id, str(target.id))
    User.objects.filter(pk=target.pk).update(is_active=True)
    assert browser.get("/account/").status_code == 302
    assert api_token_user(raw=raw) is None


def test_staff_reactivating_a_user_in_admin_clears_the_deactivation_and_records_who(make_user):
    staff = make_user("root@example.test", is_staff=True, is_superuser=True)
    target = make_user("back@example.test")
    client = login(staff.email)
    url = f"/admin/accounts/user/{target.id}/change/"
    client.post(url, {"email": target.email, "display_name": "Back"})
    target.refresh_from_db()
    assert (target.is_active, target.deactivated_at is not None) == (False, True)
    response = client.post(url, {"email": target.email, "display_name": "Back", "is_active": "on"})
    assert response.status_code == 302, response.content
    target.refresh_from_db()
    assert (target.is_active, target.deactivated_at) == (True, None)
    event = AuditEvent.objects.get(action="user.reactivated_by_staff")
    assert (event.actor_id, event.subject_id) == (staff.id, str(target.id))


@pytest.mark.parametrize(
    ("user_agent", "shown"),
    [
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Safari/537.36", "Chrome on Linux"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
         "Firefox on Windows"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
         "(KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1", "Safari on iPhone"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like "
         "Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", "Edge on macOS"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Mobile Safari/537.36", "Chrome on Android"),
        ("curl/8.5.0", "curl/8.5.0"),
    ],
)  # fmt: skip
def test_the_sessions_list_names_browser_and_system(make_user, user_agent, shown):
    from apps.accounts.models import device_label

    assert device_label(user_agent) == shown
    user = make_user("device@example.test")
    page = login(user.email, HTTP_USER_AGENT=user_agent).get("/account/")
    assert f">{shown} <".encode() in page.content


def test_seed_demo_refuses_production_settings_and_runs_under_overridden_ones(settings):
    """The refusal follows the settings in force, not the module's name, which overridden
    settings (as tests and tools apply them) do not carry."""
    from django.core.management import CommandError, call_command

    from apps.accounts.models import User

    settings.SAGASMITH_REGISTRATION_MODE = "open"  # any override: SETTINGS_MODULE is now None
    call_command("seed_demo", stdout=io.StringIO())
    seeded = User.objects.count()
    settings.SAGASMITH_PRODUCTION = True
    with pytest.raises(CommandError) as refused:
        call_command("seed_demo", stdout=io.StringIO())
    assert str(refused.value) == "seed_demo refuses to run with production settings."
    assert seeded > 0


def test_a_token_name_over_80_characters_says_the_allowed_length(make_user):
    from apps.accounts.models import ApiToken

    user = make_user("long-token@example.test")
    client = login(user.email)
    response = client.post("/account/tokens", {"name": "x" * 81}, follow=True)
    page = response.content.decode()
    assert "Give the token a name of 1-80 characters." in page
    assert "Give the token a name.<" not in page
    assert not ApiToken.objects.filter(user=user).exists()


def test_the_sessions_list_leaves_out_sessions_that_expired_or_were_cleared(make_user):
    from datetime import timedelta

    from django.utils import timezone

    user = make_user("old-sessions@example.test")
    expired = login(user.email, HTTP_USER_AGENT="Firefox/1")
    cleared = login(user.email, HTTP_USER_AGENT="Safari/1")
    current = login(user.email, HTTP_USER_AGENT="Chrome/1")
    Session.objects.filter(session_key=expired.session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    Session.objects.filter(session_key=cleared.session.session_key).delete()  # clearsessions
    page = current.get("/account/")
    assert [s.user_agent for s in page.context["sessions"]] == ["Chrome/1"]
    assert "Firefox" not in page.content.decode()
    assert "Safari" not in page.content.decode()


def test_signing_out_tells_the_room_sockets_of_that_session_at_once(make_user):
    """Room sockets close on `sessions_ended` (else only on their heartbeat, reading on till
    then); when they re-read their session it must already be gone."""
    from apps.accounts.events import sessions_ended
    from apps.accounts.middleware import session_store, session_user

    user = make_user("leaving@example.test")
    leaving = login(user.email)
    staying = login(user.email)
    key = leaving.session.session_key
    heard = []

    def receiver(sender, user, **kwargs):
        heard.append((user.email, session_user(session_store(key)).is_authenticated))

    sessions_ended.connect(receiver)
    try:
        assert leaving.post("/accounts/logout/").status_code == 302
    finally:
        sessions_ended.disconnect(receiver)
    assert heard == [("leaving@example.test", False)]
    assert staying.get("/account/").status_code == 200


def test_a_form_sent_when_the_terms_changed_returns_to_its_page_after_accepting(
    make_user, settings
):
    """The form's URL takes only a POST: sent back there after accepting, the browser would
    open it with a GET and get "not allowed"."""
    user = make_user("mid-form@example.test")
    client = login(user.email)
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    sent = client.post(
        "/account/tokens", {"name": "laptop"}, HTTP_REFERER="http://testserver/account/?tab=1"
    )
    assert sent["Location"] == "/legal/accept?next=%2Faccount%2F%3Ftab%3D1"
    # A page elsewhere, or none said: the accepted terms lead home.
    for headers in ({"HTTP_REFERER": "https://evil.example/account/"}, {}):
        assert client.post("/account/tokens", {"name": "x"}, **headers)["Location"] == (
            "/legal/accept?next=%2F"
        )
    assert not user.api_tokens.exists()


def test_a_deactivated_account_signing_in_is_told_how_to_get_it_back(make_user):
    import re

    user = make_user("gone@example.test")
    client = login(user.email)
    client.post("/account/deactivate", {"password": PASSWORD})
    page = Client().post(
        "/accounts/login/", {"login": user.email, "password": PASSWORD}, follow=True
    )
    main = re.search(r"<main\b.*?</main>", page.content.decode(), re.S).group(0)
    assert " ".join(re.sub(r"<[^>]+>", " ", main).split()) == (
        "Account inactive This account is deactivated, so it cannot sign in."
        " To use it again, ask the site's staff to reactivate it; your data was kept."
    )


def test_a_user_declining_changed_terms_can_still_deactivate_their_account(make_user, settings):
    user = make_user("leaving@example.test")
    client = login(user.email)
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    assert client.get("/").status_code == 302
    # Before accepting: the account page, to sign out elsewhere, change the password or leave.
    assert client.get("/account/").status_code == 200
    response = client.post("/account/deactivate", {"password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/")
    user.refresh_from_db()
    assert (user.is_active, user.terms_version) == (False, "2026-12-01")


def test_a_user_declining_changed_terms_can_still_revoke_a_token(make_user, settings):
    from apps.accounts.services import api_token_create

    user = make_user("cautious@example.test")
    token, _raw = api_token_create(user=user, name="laptop")
    client = login(user.email)
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    response = client.post(f"/account/tokens/{token.id}/revoke")
    assert (response.status_code, response["Location"]) == (302, "/account/")
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_user_declining_changed_terms_can_still_change_their_password(make_user, settings):
    user = make_user("wary@example.test")
    client = login(user.email)
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    new = "n3w-passw0rd-xyz"
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_the_accept_page_keeps_each_version_on_one_line(make_user, settings):
    settings.SAGASMITH_TERMS_VERSION = "2027-01-01"
    settings.SAGASMITH_PRIVACY_VERSION = "2026-12-01"
    client = login(make_user("new@example.test", accepted=False).email)
    page = client.get("/legal/accept").content.decode()
    assert (
        '<p>Please read the <a href="/legal/terms">terms of service</a> '
        '(<span class="nowrap">version 2027-01-01</span>) and the '
        '<a href="/legal/privacy">privacy policy</a> '
        '(<span class="nowrap">version 2026-12-01</span>).</p>'
    ) in page
