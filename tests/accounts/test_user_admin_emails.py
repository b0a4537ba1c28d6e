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


def change_user(client, user, email, display_name=""):
    """Save the user's change form in admin with `email` and `display_name`, left active."""
    return client.post(
        f"/admin/accounts/user/{user.id}/change/",
        {"email": email, "display_name": display_name, "is_active": "on"},
    )


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
    refused = change_user(staff_client, target, "Other@Example.test")
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {"email": [TAKEN]}
    target.refresh_from_db()
    assert target.email == "target@example.test"
    changed = change_user(staff_client, target, "Renamed@Example.test")
    assert changed.status_code == 302
    target.refresh_from_db()
    assert target.email == "renamed@example.test"


def test_staff_replacing_an_email_takes_sign_in_and_password_reset_from_the_old_address(
    staff_client, settings, mailoutbox
):
    from allauth.account.models import EmailAddress

    settings.SAGASMITH_REGISTRATION_MODE = "open"
    assert Client().post(
        "/accounts/signup/",
        {"email": "old@example.test", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    ).status_code == 302  # fmt: skip
    user = User.objects.get(email="old@example.test")
    EmailAddress.objects.create(user=user, email="second@example.test", verified=True)
    response = change_user(staff_client, user, "new@example.test")
    assert response.status_code == 302
    # The user's own second address stays; the replaced one goes, the new one is primary.
    assert sorted(EmailAddress.objects.values_list("email", "primary", "verified")) == [
        ("new@example.test", True, False),
        ("second@example.test", False, True),
    ]
    mailoutbox.clear()
    assert (
        Client().post("/accounts/password/reset/", {"email": "old@example.test"}).status_code == 302
    )
    assert (
        Client().post("/accounts/password/reset/", {"email": "new@example.test"}).status_code == 302
    )
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["old@example.test"], "[SagaSmith] Unknown account"),
        (["new@example.test"], "[SagaSmith] Password reset email"),
    ]
    old = Client().post("/accounts/login/", {"login": "old@example.test", "password": NEW_PASSWORD})
    assert old.status_code == 200
    assert old.context["form"].errors == {
        "__all__": ["The email address and/or password you specified are not correct."]
    }
    new = Client().post("/accounts/login/", {"login": "new@example.test", "password": NEW_PASSWORD})
    assert (new.status_code, new["Location"]) == (302, "/")


def test_staff_cannot_give_a_user_an_address_another_user_confirmed(staff_client, make_user):
    from allauth.account.models import EmailAddress

    target = make_user("target@example.test")
    other = make_user("other@example.test")
    EmailAddress.objects.create(user=other, email="alt@example.test", verified=True)
    refused = change_user(staff_client, target, "ALT@example.test")
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {"email": [TAKEN]}
    target.refresh_from_db()
    assert target.email == "target@example.test"
    assert list(EmailAddress.objects.values_list("user", "email", "verified")) == [
        (other.pk, "alt@example.test", True)
    ]


def test_staff_giving_a_user_an_address_another_user_only_added_unconfirmed_takes_it_over(
    staff_client, make_user
):
    from allauth.account.models import EmailAddress

    from apps.core.models import AuditEvent

    target = make_user("target@example.test")
    other = make_user("other@example.test")
    EmailAddress.objects.create(user=other, email="alt@example.test")
    changed = change_user(staff_client, target, "ALT@example.test")
    assert changed.status_code == 302
    target.refresh_from_db()
    assert target.email == "alt@example.test"
    # The other user never proved the mailbox theirs: their row for it goes, audited.
    assert list(EmailAddress.objects.values_list("user", "email", "primary", "verified")) == [
        (target.pk, "alt@example.test", True, False)
    ]
    assert list(
        AuditEvent.objects.filter(action="email_address.unconfirmed_released").values_list(
            "actor__email", "subject_id", "details"
        )
    ) == [("root@example.test", str(other.id), {"email": "alt@example.test"})]


def test_staff_setting_a_password_ends_the_users_sessions_and_their_rows(staff_client, make_user):
    from apps.accounts.models import UserSession

    user = make_user("member@example.test", password="old-passw0rd-xyz")
    browser = Client()
    assert browser.post(
        "/accounts/login/", {"login": user.email, "password": "old-passw0rd-xyz"}
    ).status_code == 302  # fmt: skip
    assert UserSession.objects.filter(user=user).count() == 1
    response = staff_client.post(
        f"/admin/accounts/user/{user.id}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert browser.get("/account/").status_code == 302
    assert not UserSession.objects.filter(user=user).exists()


def test_staff_setting_their_own_password_in_admin_keeps_only_this_session(make_user):
    from apps.accounts.models import UserSession

    staff = make_user("root@example.test", password="old-passw0rd-xyz", is_staff=True,
                      is_superuser=True)  # fmt: skip
    here, elsewhere = Client(), Client()
    for client in (here, elsewhere):
        client.post("/accounts/login/", {"login": staff.email, "password": "old-passw0rd-xyz"})
    response = here.post(
        f"/admin/accounts/user/{staff.id}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302
    assert here.get("/account/").status_code == 200
    assert elsewhere.get("/account/").status_code == 302
    assert list(UserSession.objects.values_list("session_key", flat=True)) == [
        here.session.session_key
    ]


def test_staff_who_may_edit_users_cannot_raise_anyones_privileges(make_user):
    from django.contrib.auth.models import Permission

    support = make_user("support@example.test", is_staff=True)
    support.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    member = make_user("member@example.test")
    client = Client()
    client.force_login(support)
    for target in (support, member):
        response = client.post(
            f"/admin/accounts/user/{target.id}/change/",
            {"email": target.email, "display_name": "Renamed", "is_active": "on",
             "is_staff": "on", "is_superuser": "on",
             "user_permissions": list(Permission.objects.values_list("pk", flat=True))},
        )  # fmt: skip
        assert response.status_code == 302
        target.refresh_from_db()
        # Support work (names, suspensions) still goes through; privileges do not.
        assert target.display_name == "Renamed"
        assert (target.is_staff, target.is_superuser) == (target == support, False)
        assert target.user_permissions.count() == (2 if target == support else 0)


def test_staff_who_may_edit_users_cannot_take_over_a_superuser(make_user):
    from django.contrib.auth.models import Permission

    support = make_user("support@example.test", is_staff=True)
    support.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    root = make_user("root@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(support)
    changed = change_user(client, root, "support+root@example.test")
    password = client.post(
        f"/admin/accounts/user/{root.id}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert (changed.status_code, password.status_code) == (403, 403)
    root.refresh_from_db()
    assert root.email == "root@example.test"
    assert not root.check_password(NEW_PASSWORD)


def test_staff_who_may_delete_users_cannot_delete_a_superuser(make_user):
    from django.contrib.auth.models import Permission

    support = make_user("support@example.test", is_staff=True)
    # Deleting a user deletes their rows in other tables too: this staff may delete those.
    support.user_permissions.add(
        *Permission.objects.filter(codename__startswith="delete_"),
        Permission.objects.get(codename="view_user"),
    )
    root = make_user("root@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(support)
    response = client.post(f"/admin/accounts/user/{root.id}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert User.objects.filter(pk=root.pk).exists()


def test_staff_who_may_delete_users_cannot_delete_a_superuser_in_bulk(make_user):
    from django.contrib.auth.models import Permission

    support = make_user("support@example.test", is_staff=True)
    support.user_permissions.add(
        *Permission.objects.filter(codename__startswith="delete_"),
        Permission.objects.get(codename="view_user"),
    )
    root = make_user("root@example.test", is_staff=True, is_superuser=True)
    spammer = make_user("spammer@example.test")
    client = Client()
    client.force_login(support)
    response = client.post(
        "/admin/accounts/user/",
        {"action": "delete_selected", "_selected_action": [str(root.pk), str(spammer.pk)],
         "post": "yes"},
    )  # fmt: skip
    assert response.status_code == 403
    assert sorted(User.objects.values_list("email", flat=True)) == [
        "root@example.test",
        "spammer@example.test",
        "support@example.test",
    ]


def test_migration_lowercases_stored_emails_so_those_users_can_sign_in(make_user):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("apps.accounts.migrations.0002_lowercase_emails")
    mixed = make_user("mixed@example.test", password=NEW_PASSWORD)
    make_user("plain@example.test")
    # As the user admin stored it. (A twin beside its lower-case spelling is refused by 0003.)
    User.objects.filter(pk=mixed.pk).update(email="Mixed@Example.test")
    refused = Client().post(
        "/accounts/login/", {"login": "mixed@example.test", "password": NEW_PASSWORD}
    )
    assert refused.status_code == 200
    migration.lowercase_emails(apps, None)
    migration.lowercase_emails(apps, None)  # a second run finds nothing to do
    assert sorted(User.objects.values_list("email", flat=True)) == [
        "mixed@example.test",
        "plain@example.test",
    ]
    signed_in = Client().post(
        "/accounts/login/", {"login": "Mixed@example.test", "password": NEW_PASSWORD}
    )
    assert (signed_in.status_code, signed_in["Location"]) == (302, "/")


def test_staff_adding_a_user_whose_address_another_account_takes_meanwhile_is_told_so(
    staff_client, make_user, monkeypatch
):
    from django.contrib.messages import get_messages

    from apps.accounts import admin as accounts_admin

    make_user("bob@example.test")
    # As when the other account is saved after this form checked the address: every check
    # before the save finds it free.
    monkeypatch.setattr(accounts_admin, "email_in_use", lambda **kwargs: False)
    monkeypatch.setattr(User, "validate_unique", lambda self, exclude=None: None)
    monkeypatch.setattr(User, "validate_constraints", lambda self, exclude=None: None)
    response = add_user(staff_client, "Bob@Example.test")
    monkeypatch.undo()
    assert (response.status_code, response["Location"]) == (302, "/admin/accounts/user/add/")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Another account already uses this email address (in any letter case)."
    ]
    assert list(User.objects.filter(email__iexact="bob@example.test").values_list("email")) == [
        ("bob@example.test",)
    ]


def test_a_password_reset_is_not_mailed_to_an_address_its_account_never_verified(
    make_user, mailoutbox
):
    from allauth.account.models import EmailAddress

    user = make_user("owner@example.test")
    client = Client()
    client.force_login(user)
    # A mistyped second address: its mailbox is someone else's, and never confirmed it.
    assert client.post(
        "/accounts/email/", {"action_add": "", "email": "owner@exampel.test"}
    ).status_code == 302  # fmt: skip
    mailoutbox.clear()
    response = Client().post("/accounts/password/reset/", {"email": "owner@exampel.test"})
    assert (response.status_code, mailoutbox) == (302, [])
    # Once confirmed, the address is the user's, and a reset reaches it.
    EmailAddress.objects.filter(email="owner@exampel.test").update(verified=True)
    Client().post("/accounts/password/reset/", {"email": "owner@exampel.test"})
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["owner@exampel.test"], "[SagaSmith] Password reset email")
    ]


def test_staff_giving_a_user_a_display_name_get_the_checks_players_get(staff_client, make_user):
    target = make_user("named@example.test")
    refused = change_user(staff_client, target, target.email, "Ilsa\u202e")
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {
        "display_name": [
            "A display name cannot hold control or hidden formatting characters (such as line "
            "breaks or text-direction marks)."
        ]
    }
    changed = change_user(staff_client, target, target.email, "  Ilsa  ")
    assert changed.status_code == 302
    target.refresh_from_db()
    assert target.display_name == "Ilsa"
