"""The user's delete page tells staff what happens to the user's quota records, and when the
user cannot be deleted (they own a campaign), what to do instead: deactivate them."""

import re

import pytest
from django.test import Client

from tests.campaigns.conftest import domain_env, domains, make_campaign  # noqa: F401

pytestmark = pytest.mark.django_db
KEPT = (
    "Their quota account, grants, reservations and ledger are kept (the ledger is an audit"
    " record), named by the user’s ID."
)
DEACTIVATE = (
    "To stop them signing in without deleting anything, deactivate the user instead: untick"
    " “Active” on their page. That signs them out everywhere and revokes their API tokens;"
    " their data is kept."
)
KEPT_MANY = (
    "Their quota accounts, grants, reservations and ledgers are kept (the ledger is an audit"
    " record), named by each user’s ID."
)
DEACTIVATE_MANY = (
    "To stop them signing in without deleting anything, deactivate the users instead: untick"
    " “Active” on each user’s page. That signs them out everywhere and revokes their API"
    " tokens; their data is kept."
)


def page_text(client, user) -> str:
    html = client.get(f"/admin/accounts/user/{user.pk}/delete/").content.decode()
    content = re.search(r'<div id="content".*?</main>', html, re.S).group(0)
    return " ".join(re.sub(r"<[^>]+>", " ", content).split()).replace(" .", ".")


@pytest.fixture
def staff_client(make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    return client


def test_the_delete_page_says_the_quota_records_are_kept(staff_client, make_user):
    from apps.quota.services import quota_account_for

    leaving = make_user("leaving@example.test")
    quota_account_for(user=leaving)
    text = page_text(staff_client, leaving)
    assert KEPT in text
    assert DEACTIVATE in text


def test_a_campaign_owner_cannot_be_deleted_and_is_pointed_to_deactivation(
    staff_client,
    make_user,
    make_campaign,  # noqa: F811
):
    gm = make_user("gm@example.test", display_name="Gail GM")
    make_campaign(gm, name="The Sunless Citadel")
    text = page_text(staff_client, gm)
    assert text.startswith("Cannot delete user")
    assert DEACTIVATE in text
    assert f'<a href="/admin/accounts/user/{gm.pk}/change/">their page</a>' in (
        staff_client.get(f"/admin/accounts/user/{gm.pk}/delete/").content.decode()
    )


def test_deleting_selected_users_says_the_same(staff_client, make_user):
    from apps.quota.services import quota_account_for

    leaving = make_user("leaving@example.test")
    quota_account_for(user=leaving)
    html = staff_client.post(
        "/admin/accounts/user/", {"action": "delete_selected", "_selected_action": [leaving.pk]}
    ).content.decode()
    content = re.search(r'<div id="content".*?</main>', html, re.S).group(0)
    text = " ".join(re.sub(r"<[^>]+>", " ", content).split()).replace(" .", ".")
    assert "Are you sure you want to delete the selected user?" in text
    assert KEPT_MANY in text
    assert DEACTIVATE_MANY in text
