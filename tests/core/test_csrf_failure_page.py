"""A form refused by the CSRF check (an expired or blocked cookie) is answered with the site's
own page, which the page policy lets render: Django's built-in one styles itself inline."""

import pytest
from django.test import Client

from tests.core.test_content_security_policy import _inline_code


@pytest.mark.django_db
def test_a_form_refused_by_the_csrf_check_gets_the_sites_page_with_no_inline_code():
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"login": "gm@example.test", "password": "x"}
    )
    page = response.content.decode()

    assert response.status_code == 403
    assert _inline_code(page) == []
    assert "The form was sent without this site’s security check" in page
