import pytest
from django.test import Client

from apps.accounts.models import UserSession

pytestmark = pytest.mark.django_db


def test_the_session_admin_never_shows_a_sessions_key(make_user):
    """The key is the session cookie's value: whoever reads it can sign in as that user."""
    member = make_user("member@example.test", password="s3cret-passw0rd!")
    browser = Client()
    browser.post("/accounts/login/", {"login": member.email, "password": "s3cret-passw0rd!"})
    key = browser.session.session_key
    row = UserSession.objects.get(user=member)
    staff = Client()
    staff.force_login(make_user("root@example.test", is_staff=True, is_superuser=True))
    for path in ("/admin/accounts/usersession/", f"/admin/accounts/usersession/{row.pk}/change/"):
        page = staff.get(path)
        assert page.status_code == 200
        assert key not in page.content.decode()
    # Nor can a staff edit write one.
    staff.post(f"/admin/accounts/usersession/{row.pk}/change/", {"session_key": "x" * 32})
    row.refresh_from_db()
    assert row.session_key == key
