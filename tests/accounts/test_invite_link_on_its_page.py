"""A new invite's link is shown on the invite's own page, in a field with a copy button,
instead of only inside a flash message; it is shown once (the database keeps its hash), so
opening the page again shows no link."""

import html as html_lib
import re

import pytest
from django.test import Client

from apps.accounts.models import RegistrationInvite
from apps.accounts.services import hash_token

pytestmark = pytest.mark.django_db


def test_a_new_invite_opens_its_page_with_the_link_to_copy_once(make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/accounts/registrationinvite/add/",
        {"email": "", "max_uses": 1, "note": "book club", "expires_in_days": 7},
    )
    invite = RegistrationInvite.objects.get()
    page_url = f"/admin/accounts/registrationinvite/{invite.pk}/change/"
    assert (response.status_code, response["Location"]) == (302, page_url)
    page = client.get(page_url)
    html = html_lib.unescape(page.content.decode())
    field = re.search(r'<input [^>]*id="invite-link"[^>]*>', html).group(0)
    link = re.search(r'value="([^"]+)"', field).group(1)
    raw = link.split("?invite=")[1]
    assert link == f"http://testserver/accounts/signup/?invite={raw}"
    assert invite.token_hash == hash_token(raw)
    assert "readonly" in field
    assert re.search(
        r'<button type="button"[^>]*data-copy="invite-link"[^>]*>Copy link</button>', html
    )
    assert '<script src="/static/js/forms.js" defer></script>' in html
    # The message says where the link is; the link itself is only in the field.
    assert [str(m) for m in page.context["messages"]] == [
        "Invite created. Copy its link below now: it will not be shown again."
    ]
    assert html.count("?invite=") == 1
    assert "?invite=" not in client.get(page_url).content.decode()
