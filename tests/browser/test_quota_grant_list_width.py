"""The admin's grant list fits a 1440 px desktop with the admin's sidebar open: staff read every
column of each grant without scrolling the table sideways."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_page_layout import _shot
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

DESKTOP = {"width": 1440, "height": 900}

TABLE_FITS = """() => {
  const table = document.querySelector("#result_list");
  const box = table.parentElement;
  return {table: table.scrollWidth, box: box.clientWidth,
          sidebar: getComputedStyle(document.querySelector("#nav-sidebar")).display !== "none"
            && document.querySelector("#nav-sidebar").getBoundingClientRect().width > 0};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_grant_list_fits_a_1440_px_screen_with_the_sidebar_open(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.quota.models import QuotaGrant
    from apps.quota.services import quota_grant, quota_reserve

    staff = make_user(
        "staff.member@example.test", display_name="Sam Staff", is_staff=True, is_superuser=True
    )
    player = make_user("pat.player.longname@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(player)
    now = timezone.now()
    quota_grant(
        account=account,
        amount=120000,
        source=QuotaGrant.Source.STAFF,
        actor=staff,
        expires_at=now + timedelta(days=30),
        note="Launch bonus",
    )
    quota_grant(
        account=account,
        amount=50000,
        source=QuotaGrant.Source.PLAN,
        period_start=now,
        period_end=now + timedelta(days=30),
        expires_at=now + timedelta(days=30),
    )
    quota_grant(account=account, amount=1000, source=QuotaGrant.Source.UPGRADE,
                period_start=now, period_end=now + timedelta(days=30))  # fmt: skip
    quota_reserve(user=player, amount=1500, key="turn-in-progress")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = _sign_in(context, asgi_server, "staff.member@example.test")
        page.goto(f"{asgi_server}/admin/quota/quotagrant/")
        expect(page.locator("#result_list tbody tr")).to_have_count(3)
        _shot(page, "admin-quota-grants", DESKTOP)
        measured = page.evaluate(TABLE_FITS)
        assert measured["sidebar"] is True
        assert measured["table"] <= measured["box"], measured
    finally:
        context.close()
