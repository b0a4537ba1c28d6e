import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_admin_index_names_the_accounts_models_as_the_account_page_does(make_user):
    staff = Client()
    staff.force_login(make_user("root@example.test", is_staff=True, is_superuser=True))
    page = staff.get("/admin/").content.decode()
    section = re.search(r'<div class="app-accounts module.*?</table>', page, re.S).group(0)
    names = re.findall(r'<th scope="row"[^>]*>\s*<a [^>]*>([^<]+)</a>', section)
    assert names == [
        "API tokens",
        "Legal acceptances",
        "Registration invites",
        "User sessions",
        "Users",
    ]
