"""The admin's plan list names each plan's period with a capital ("Monthly"), as the ledger and
grant lists name their kinds and sources: the labels are lowercase to read mid-sentence."""

import pytest

from apps.quota.models import Plan

from .test_admin_usable_now import listed

pytestmark = pytest.mark.django_db


def test_the_plan_list_names_periods_with_a_capital(staff_client):
    client, _ = staff_client
    Plan.objects.create(slug="daily", name="Daily", periodic_grant=5, period="daily")
    Plan.objects.create(slug="once", name="Once", periodic_grant=0, period="none")
    html = client.get("/admin/quota/plan/?o=1").content.decode()
    assert [(row["name"], row["plan_period"]) for row in listed(html) if row["name"] != "Free"] == [
        ("Daily", "Daily"),
        ("Once", "No periodic grant"),
    ]
    assert ">Period</a>" in html
