"""Every account notice says when the change was made as pages write times ("Dec 6, 2026,
9:30 AM"), with the zone: a reader far from UTC cannot tell from a bare time whether the
change came while they were at their computer."""

from datetime import UTC, datetime

import pytest
from django.contrib.sites.models import Site
from django.template.loader import render_to_string

pytestmark = pytest.mark.django_db

AT = datetime(2026, 12, 6, 21, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "notice",
    ["email_changed", "email_deleted", "password_set", "password_changed", "password_reset"],
)
def test_a_notice_dates_the_change_with_its_zone(notice):
    body = render_to_string(
        f"account/email/{notice}_message.txt",
        {
            "timestamp": AT,
            "ip": "127.0.0.1",
            "user_agent": "TestBrowser/1.0",
            "current_site": Site.objects.get_current(),
            "from_email": "old@example.test",
            "to_email": "new@example.test",
            "deleted_email": "old@example.test",
        },
    )
    assert [line for line in body.splitlines() if line.startswith("- Date:")] == [
        "- Date: Dec 6, 2026, 9:30 PM UTC"
    ]
