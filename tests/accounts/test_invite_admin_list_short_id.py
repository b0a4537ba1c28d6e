"""The invite list's first column names each invite by a short id that fits a phone's width
(a full UUID wrapped to four lines at 390 px); the full id stays in its title, and the short id
links to the invite's page."""

import re

import pytest
from django.test import Client

from apps.accounts.services import registration_invite_create

pytestmark = pytest.mark.django_db


def test_the_invite_list_names_invites_by_a_short_id_linked_to_their_page(make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    invite, _raw = registration_invite_create(created_by=staff, note="book club")
    client = Client()
    client.force_login(staff)
    html = client.get("/admin/accounts/registrationinvite/").content.decode()
    row = re.search(r'<tr>\s*<td class="action-checkbox">.*?</tr>', html, re.S).group(0)
    first = re.search(r'<th class="field-short_id">(.*?)</th>', row, re.S).group(1)
    assert first == (
        f'<a href="/admin/accounts/registrationinvite/{invite.pk}/change/">'
        f'<span title="{invite.pk}">{str(invite.pk)[:8]}</span></a>'
    )
    # The full id is in no cell's text.
    assert str(invite.pk) not in re.sub(r"<[^>]+>", " ", row)
