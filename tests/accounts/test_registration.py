import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from apps.accounts.models import RegistrationInvite, User
from apps.accounts.services import hash_token, registration_invite_create
from apps.core.models import AuditEvent
from apps.quota.models import QuotaAccount

PASSWORD = "correct-horse-battery-9"


def signup(client, email, invite="", **fields):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD, **fields}
    if invite:
        data["invite"] = invite
    return client.post("/accounts/signup/" + (f"?invite={invite}" if invite else ""), data)


def main_text(response) -> str:
    """The page's <main>, as its words: what the visitor reads."""
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    return " ".join(re.sub(r"<[^>]+>", " ", main).split()).replace(" .", ".")


SIGN_IN_LINE = "Already have an account? Then please sign in."
CLOSED_PAGE = f"Sign-up closed We are sorry, but the sign up is currently closed. {SIGN_IN_LINE}"
BY_INVITATION_PAGE = (
    "Sign up by invitation"
    " New accounts are by invitation. Open the registration link you were sent to sign up."
    " No link, or it does not work? Ask the person who invited you, or the site's staff,"
    f" for a registration link. {SIGN_IN_LINE}"
)
INVITE_LINK_NOT_VALID_PAGE = (
    "Invite link not valid This invite link is invalid, expired or already used."
    f" Ask the person who invited you for a new link. {SIGN_IN_LINE}"
)


@pytest.mark.django_db
def test_closed_mode_refuses_signup(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "closed"
    _invite, raw = registration_invite_create(created_by=None)
    response = signup(client, "new@example.test", raw)
    assert response.status_code == 200
    assert main_text(response) == CLOSED_PAGE
    assert not User.objects.filter(email="new@example.test").exists()
    for path in ("/accounts/signup/", f"/accounts/signup/?invite={raw}"):
        page = Client().get(path)
        assert (page.status_code, main_text(page)) == (200, CLOSED_PAGE)
        assert '<a href="/accounts/login/">sign in</a>' in page.content.decode()


@pytest.mark.django_db
def test_invite_mode_without_an_invite_says_sign_up_is_by_invitation(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    for response in (client.get("/accounts/signup/"), signup(client, "a@example.test")):
        assert response.status_code == 200
        assert main_text(response) == BY_INVITATION_PAGE
        assert "Sign-up closed" not in response.content.decode()
        assert '<a href="/accounts/login/">sign in</a>' in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_open_mode_allows_signup_without_invite(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    response = signup(client, "new@example.test")
    assert response.status_code == 302
    assert User.objects.filter(email="new@example.test").count() == 1


@pytest.mark.django_db
def test_signing_up_opens_the_quota_account_with_the_user(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    _invite, raw = registration_invite_create(created_by=None)
    assert signup(client, "new@example.test", raw).status_code == 302
    user = User.objects.get(email="new@example.test")
    # Staff can credit the new user at once, before they ever open /usage/.
    account = QuotaAccount.objects.get(user=user)
    assert (account.plan.slug, account.balance, account.reserved) == ("free", 100, 0)
    assert list(account.grants.values_list("source", "amount", "remaining")) == [("plan", 100, 100)]
    assert list(account.ledger.values_list("kind", "amount", "balance_after")) == [
        ("grant", 100, 100)
    ]
    # A refused sign-up opens nothing.
    assert signup(Client(), "again@example.test", raw).status_code == 200
    assert QuotaAccount.objects.count() == 1


INVITE_UNAVAILABLE = (
    "This invite link is invalid, expired or already used."
    " Ask the person who invited you for a new link."
)


def assert_invite_refused(response):
    """The sign-up page, open, with the invite error on the form and no account made."""
    assert response.status_code == 200
    assert "Sign-up closed" not in response.content.decode()
    assert response.context["form"].errors == {"__all__": [INVITE_UNAVAILABLE]}
    assert INVITE_UNAVAILABLE in response.content.decode()


@pytest.mark.django_db
def test_a_bad_invite_link_says_so_when_the_page_is_opened(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    expired, raw_expired = registration_invite_create(created_by=None)
    RegistrationInvite.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    used, raw_used = registration_invite_create(created_by=None)
    RegistrationInvite.objects.filter(pk=used.pk).update(used_count=1)
    for raw in ("not-a-token", raw_expired, raw_used):
        bad = Client()
        page = bad.get(f"/accounts/signup/?invite={raw}")
        assert (page.status_code, main_text(page)) == (200, INVITE_LINK_NOT_VALID_PAGE)
        assert "form" not in page.context  # no sign-up form to fill in for nothing
        assert 'name="password1"' not in page.content.decode()
        # The bad link is forgotten: the page without a link says sign-up is by invitation.
        assert main_text(bad.get("/accounts/signup/")) == BY_INVITATION_PAGE
    assert not User.objects.exists()


@pytest.mark.django_db
def test_invite_mode_requires_a_valid_invite_when_submitted(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    # A form opened with a good link whose invite is gone by the time it is submitted.
    invite, raw = registration_invite_create(created_by=None)
    page = client.get(f"/accounts/signup/?invite={raw}")
    assert page.status_code == 200
    assert page.context["form"].fields["invite"].initial == raw
    RegistrationInvite.objects.filter(pk=invite.pk).update(revoked_at=timezone.now())
    assert_invite_refused(signup(client, "a@example.test", raw))
    # The token remembered in the session is checked too, not only a posted one.
    assert_invite_refused(
        client.post(
            "/accounts/signup/",
            {"email": "a@example.test", "password1": PASSWORD, "password2": PASSWORD},
        )
    )
    # A bad link posted without opening the page first is refused by the form as before.
    assert_invite_refused(signup(Client(), "a@example.test", "not-a-token"))
    assert not User.objects.exists()
    assert not AuditEvent.objects.filter(action="registration_invite.used").exists()


@pytest.mark.django_db
def test_a_valid_invite_link_shows_the_form(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    _invite, raw = registration_invite_create(created_by=None, email="bound@example.test")
    page = Client().get(f"/accounts/signup/?invite={raw}")
    assert page.status_code == 200
    assert sorted(page.context["form"].fields) == [
        "display_name",
        "email",
        "invite",
        "password1",
        "password2",
    ]
    assert page.context["form"].fields["invite"].initial == raw
    assert main_text(page).startswith(f"Sign up {SIGN_IN_LINE}")


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
    # The losers' accounts rolled back with their users.
    assert list(QuotaAccount.objects.values_list("user", flat=True)) == [User.objects.get().pk]
    invite.refresh_from_db()
    assert invite.used_count == 1
    assert AuditEvent.objects.filter(action="registration_invite.used").count() == 1


@pytest.mark.django_db
def test_admin_revoke_says_how_many_and_audits_only_new_revocations(make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    first, _ = registration_invite_create(created_by=staff)
    second, _ = registration_invite_create(created_by=staff)
    earlier, _ = registration_invite_create(created_by=staff)
    revoked_at = timezone.now() - timedelta(days=1)
    RegistrationInvite.objects.filter(pk=earlier.pk).update(revoked_at=revoked_at)
    response = client.post(
        "/admin/accounts/registrationinvite/",
        {"action": "revoke", "_selected_action": [str(first.pk), str(second.pk), str(earlier.pk)]},
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == [
        "Revoked 2 invites. 1 was already revoked."
    ]
    assert RegistrationInvite.objects.filter(revoked_at__isnull=True).count() == 0
    earlier.refresh_from_db()
    assert earlier.revoked_at == revoked_at
    assert sorted(
        AuditEvent.objects.filter(action="registration_invite.revoked").values_list(
            "actor", "subject_id"
        )
    ) == sorted([(staff.pk, str(first.pk)), (staff.pk, str(second.pk))])
    again = client.post(
        "/admin/accounts/registrationinvite/",
        {"action": "revoke", "_selected_action": [str(first.pk)]},
        follow=True,
    )
    assert [str(m) for m in again.context["messages"]] == [
        "Revoked 0 invites. 1 was already revoked."
    ]
    assert AuditEvent.objects.filter(action="registration_invite.revoked").count() == 2


@pytest.mark.django_db
def test_admin_cannot_clear_revoked_at_to_revive_a_leaked_invite(make_user, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    invite, raw = registration_invite_create(created_by=staff, note="leaked")
    revoked_at = timezone.now() - timedelta(hours=1)
    RegistrationInvite.objects.filter(pk=invite.pk).update(revoked_at=revoked_at)
    response = client.post(
        f"/admin/accounts/registrationinvite/{invite.pk}/change/",
        {"note": "leaked", "revoked_at_0": "", "revoked_at_1": ""},
    )
    assert response.status_code == 302
    invite.refresh_from_db()
    assert invite.revoked_at == revoked_at
    assert_invite_refused(signup(Client(), "x@example.test", raw))


@pytest.mark.django_db
def test_an_email_bound_invite_blames_only_the_email_when_the_email_itself_is_refused(
    make_user, settings
):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    invite, raw = registration_invite_create(created_by=None, email="taken@example.test")
    # The address the invite is for got an account meanwhile; a typo is no address at all.
    make_user("taken@example.test")
    for email, error in (
        ("Taken@Example.test", "A user is already registered with this email address."),
        ("taken@", "Enter a valid email address."),
    ):
        response = signup(Client(), email, raw)
        assert response.status_code == 200
        assert response.context["form"].errors == {"email": [error]}
        assert b"This invite is for a different email address." not in response.content
    assert User.objects.count() == 1
    invite.refresh_from_db()
    assert invite.used_count == 0


RESERVED_NAME = "The room shows its own messages under this name; choose another display name."
INVISIBLE_NAME = "A display name needs a visible character."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("display_name", "error"),
    [
        ("Game master", RESERVED_NAME),
        ("  game   MASTER. ", RESERVED_NAME),
        ("GM", RESERVED_NAME),
        ("Room", RESERVED_NAME),
        ("System", RESERVED_NAME),
        ("A former member", RESERVED_NAME),
        ("\u200b\u200b", INVISIBLE_NAME),
    ],
)
def test_sign_up_refuses_a_display_name_that_passes_for_the_room_or_shows_nothing(
    client, settings, display_name, error
):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    response = signup(client, "new@example.test", display_name=display_name)
    assert response.status_code == 200
    assert response.context["form"].errors == {"display_name": [error]}
    assert not User.objects.exists()


@pytest.mark.django_db
def test_sign_up_keeps_a_display_name_that_only_mentions_a_reserved_word(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    response = signup(client, "new@example.test", display_name=" Roomba the Game Master's cat ")
    assert response.status_code == 302
    assert User.objects.get().display_name == "Roomba the Game Master's cat"


@pytest.mark.django_db
def test_staff_cannot_issue_an_invite_for_an_address_that_already_has_an_account(make_user):
    from apps.core.errors import ValidationFailed

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    make_user("member@example.test")
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/accounts/registrationinvite/add/",
        {"email": "Member@Example.test", "max_uses": 1, "note": "", "expires_in_days": 7},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "email": ["member@example.test already has an account: they can sign in with it."]
    }
    with pytest.raises(ValidationFailed) as refused:
        registration_invite_create(created_by=staff, email=" MEMBER@example.test")
    assert refused.value.message == (
        "member@example.test already has an account: they can sign in with it."
    )
    assert not RegistrationInvite.objects.exists()
    assert not AuditEvent.objects.filter(action="registration_invite.created").exists()


@pytest.mark.django_db
def test_an_invite_bound_to_an_address_is_for_one_sign_up(make_user):
    """One address signs up one account: more uses could never be taken."""
    from apps.core.errors import ValidationFailed

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/accounts/registrationinvite/add/",
        {"email": "new@example.test", "max_uses": 3, "note": "", "expires_in_days": 7},
    )
    assert response.status_code == 200
    message = "An invite for one address signs up one account: leave Max uses at 1."
    assert response.context["adminform"].form.errors == {"max_uses": [message]}
    with pytest.raises(ValidationFailed) as refused:
        registration_invite_create(created_by=staff, email="new@example.test", max_uses=3)
    assert refused.value.message == message
    assert not RegistrationInvite.objects.exists()
    invite, _raw = registration_invite_create(created_by=staff, max_uses=3)  # anyone: fine
    assert (invite.email, invite.max_uses) == ("", 3)


@pytest.mark.django_db
def test_a_sign_up_losing_the_address_to_a_simultaneous_one_gets_the_email_error(
    client, settings, monkeypatch
):
    from apps.accounts import forms as account_forms

    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    invite, raw = registration_invite_create(created_by=None, max_uses=2)
    check = account_forms.registration_invite_check

    def check_while_a_double_submit_lands(**kwargs):
        # The other submit's account appears after this form checked that the address was free.
        if not User.objects.exists():
            User.objects.create_user(email="twice@example.test", password=PASSWORD)
        return check(**kwargs)

    monkeypatch.setattr(
        account_forms, "registration_invite_check", check_while_a_double_submit_lands
    )
    response = signup(client, "twice@example.test", raw)
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "email": ["A user is already registered with this email address."]
    }
    assert User.objects.count() == 1
    invite.refresh_from_db()
    assert invite.used_count == 0
