"""Staff read at a glance whether each registration invite can still be used, and filter the
list by it: usable, used up, expired or revoked (not by the revocation's date)."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import RegistrationInvite
from apps.accounts.services import registration_invite_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def invites(make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    made = {}
    for note in ("usable", "used up", "expired", "revoked"):
        made[note], _raw = registration_invite_create(created_by=staff, note=note)
    RegistrationInvite.objects.filter(pk=made["used up"].pk).update(used_count=1)
    RegistrationInvite.objects.filter(pk=made["expired"].pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    RegistrationInvite.objects.filter(pk=made["revoked"].pk).update(revoked_at=timezone.now())
    client = Client()
    client.force_login(staff)
    return client


def rows(client, query=""):
    """(note, status) per listed invite."""
    html = client.get(f"/admin/accounts/registrationinvite/{query}").content.decode()
    found = re.findall(
        r'<td class="field-note">([^<]*)</td>.*?<td class="field-status">([^<]*)</td>', html, re.S
    )
    return sorted(found)


def test_the_invite_list_says_whether_each_invite_can_be_used(invites):
    assert rows(invites) == [
        ("expired", "Expired"),
        ("revoked", "Revoked"),
        ("usable", "Usable"),
        ("used up", "Used up"),
    ]


@pytest.mark.parametrize(
    ("status", "listed"),
    [("usable", [("usable", "Usable")]), ("used_up", [("used up", "Used up")]),
     ("expired", [("expired", "Expired")]), ("revoked", [("revoked", "Revoked")])],
)  # fmt: skip
def test_the_invite_list_filters_by_status(invites, status, listed):
    assert rows(invites, f"?status={status}") == listed
