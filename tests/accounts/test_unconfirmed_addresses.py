"""An address someone only added, never confirmed, does not keep its real owner out."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.messages import get_messages
from django.test import Client, override_settings

from apps.accounts.models import RegistrationInvite, User
from apps.accounts.services import registration_invite_create
from apps.core.errors import ValidationFailed
from apps.core.models import AuditEvent

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
OWNER = "owner@example.test"
TAKEN = "A user is already registered with this email address."
ALREADY_EXISTS_SUBJECT = "[SagaSmith] Account already exists"
CONFIRM_SUBJECT = "[SagaSmith] Please confirm your email address"


def signup(email, invite):
    return Client().post(
        f"/accounts/signup/?invite={invite}",
        {"email": email, "password1": PASSWORD, "password2": PASSWORD, "invite": invite},
    )


def squat(user, email=OWNER):
    """`user` adds `email` on the email page, as anyone signed in can, and never confirms it."""
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/email/", {"action_add": "", "email": email})
    assert response.status_code == 302
    assert list(EmailAddress.objects.filter(email=email).values_list("user", "verified")) == [
        (user.pk, False)
    ]
    return client


def addresses():
    return sorted(EmailAddress.objects.values_list("user__email", "email", "primary", "verified"))


def released_audit():
    return list(
        AuditEvent.objects.filter(action="email_address.unconfirmed_released").values_list(
            "actor__email", "subject_type", "subject_id", "details"
        )
    )


@pytest.mark.parametrize("verification", ["optional", "mandatory"])
def test_the_owner_signs_up_by_invite_with_an_address_another_user_added_unconfirmed(
    make_user, settings, mailoutbox, verification
):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    _invite, raw = registration_invite_create(created_by=None, email=OWNER)
    squatter = make_user("squatter@example.test")
    squat(squatter)
    mailoutbox.clear()
    with override_settings(ACCOUNT_EMAIL_VERIFICATION=verification):
        response = signup(OWNER, raw)
    assert response.status_code == 302
    owner = User.objects.get(email=OWNER)
    assert owner.registration_invite_use.invite.used_count == 1
    # The unconfirmed claim went with the sign-up; the squatter keeps their own address.
    assert addresses() == [
        (OWNER, OWNER, True, False),
        ("squatter@example.test", "squatter@example.test", False, False),
    ]
    assert released_audit() == [(OWNER, "user", str(squatter.id), {"email": OWNER})]
    # Their confirmation, not the "account already exists" mail of an address with an account.
    assert [(m.to, m.subject) for m in mailoutbox] == [([OWNER], CONFIRM_SUBJECT)]


@pytest.mark.parametrize(
    ("verification", "error", "subjects"),
    [
        ("optional", {"email": [TAKEN]}, []),
        ("mandatory", None, [ALREADY_EXISTS_SUBJECT]),
    ],
)
def test_sign_up_still_refuses_an_address_another_user_confirmed(
    make_user, settings, mailoutbox, verification, error, subjects
):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    _invite, raw = registration_invite_create(created_by=None)
    holder = make_user("holder@example.test")
    EmailAddress.objects.create(user=holder, email=OWNER, verified=True)
    with override_settings(ACCOUNT_EMAIL_VERIFICATION=verification):
        response = signup(OWNER, raw)
    if error is None:
        # Mandatory verification hides that the address has an account: the mailbox is told.
        assert response.status_code == 302
    else:
        assert response.status_code == 200
        assert response.context["form"].errors == error
    assert list(User.objects.values_list("email", flat=True)) == ["holder@example.test"]
    assert list(EmailAddress.objects.values_list("user", "email", "verified")) == [
        (holder.pk, OWNER, True)
    ]
    assert [(m.to, m.subject) for m in mailoutbox] == [([OWNER], s) for s in subjects]
    assert released_audit() == []


def test_staff_can_invite_an_address_another_user_only_added_unconfirmed(make_user):
    squat(make_user("squatter@example.test"))
    invite, _raw = registration_invite_create(created_by=None, email=OWNER)
    assert RegistrationInvite.objects.get().email == invite.email == OWNER
    holder = make_user("holder@example.test")
    EmailAddress.objects.create(user=holder, email="confirmed@example.test", verified=True)
    with pytest.raises(ValidationFailed) as refused:
        registration_invite_create(created_by=None, email="confirmed@example.test")
    assert refused.value.message == (
        "confirmed@example.test already has an account: they can sign in with it."
    )
    assert RegistrationInvite.objects.count() == 1


def test_staff_adding_a_user_with_an_address_another_user_added_unconfirmed_releases_it(
    make_user,
):
    root = make_user("root@example.test", is_staff=True, is_superuser=True)
    squatter = make_user("squatter@example.test")
    squat(squatter)
    staff = Client()
    staff.force_login(root)
    response = staff.post(
        "/admin/accounts/user/add/",
        {"email": "Owner@Example.test", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    owner = User.objects.get(email=OWNER)
    assert addresses() == [("squatter@example.test", "squatter@example.test", False, False)]
    assert released_audit() == [("root@example.test", "user", str(squatter.id), {"email": OWNER})]
    assert owner.check_password(PASSWORD)


def assert_making_the_owner_address_primary_is_refused(squatter):
    """The squatter adds the owner's address and asks to make it primary: told it must be
    verified, their sign-in address stays their own."""
    client = squat(squatter)
    response = client.post("/accounts/email/", {"action_primary": "", "email": OWNER})
    assert (response.status_code, response["Location"]) == (302, "/accounts/email/")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"Confirmation email sent to {OWNER}.",
        "Your primary email address must be verified.",
    ]
    squatter.refresh_from_db()
    assert squatter.email == "squatter@example.test"


def test_a_user_with_a_confirmed_address_cannot_make_one_they_never_confirmed_primary(make_user):
    squatter = make_user("squatter@example.test")
    EmailAddress.objects.create(
        user=squatter, email="squatter@example.test", primary=True, verified=True
    )
    assert_making_the_owner_address_primary_is_refused(squatter)
    assert addresses() == [
        ("squatter@example.test", OWNER, False, False),
        ("squatter@example.test", "squatter@example.test", True, True),
    ]


def test_a_user_without_a_confirmed_address_cannot_make_an_added_one_their_sign_in_address(
    make_user, settings
):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    # As after an optional-verification sign-up: their own address is not confirmed either,
    # where allauth lets any added address become primary.
    squatter = make_user("squatter@example.test")
    EmailAddress.objects.create(user=squatter, email="squatter@example.test", primary=True)
    assert_making_the_owner_address_primary_is_refused(squatter)
    assert addresses() == [
        ("squatter@example.test", OWNER, False, False),
        ("squatter@example.test", "squatter@example.test", True, False),
    ]
    # So the owner can still be invited and sign up.
    _invite, raw = registration_invite_create(created_by=None, email=OWNER)
    assert signup(OWNER, raw).status_code == 302
    assert User.objects.get(email=OWNER).registration_invite_use.invite.email == OWNER


def test_a_user_can_still_mark_their_own_unconfirmed_sign_in_address_primary(make_user):
    user = make_user("plain@example.test")
    client = Client()
    client.force_login(user)
    # The page lists the sign-in address (its row made, not primary, as the page opens).
    assert client.get("/accounts/email/").status_code == 200
    assert addresses() == [("plain@example.test", "plain@example.test", False, False)]
    response = client.post(
        "/accounts/email/", {"action_primary": "", "email": "plain@example.test"}
    )
    assert (response.status_code, response["Location"]) == (302, "/accounts/email/")
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Primary email address set."]
    assert addresses() == [("plain@example.test", "plain@example.test", True, False)]
