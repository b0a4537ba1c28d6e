"""The admin's reservation and ledger lists fit a 1440 px desktop with the admin's sidebar open,
as the grant list does: staff read when a hold lapses and which turn a charge settled without
scrolling the table sideways (those were the columns cut off)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_page_layout import _shot
from tests.browser.test_quota_grant_list_width import DESKTOP, TABLE_FITS
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("listed", ["reservation", "ledgerentry"])
def test_the_reservation_and_ledger_lists_fit_a_1440_px_screen(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    listed,
):
    from playwright.sync_api import expect

    from apps.quota.models import QuotaGrant
    from apps.quota.services import quota_grant, quota_reserve, quota_settle

    staff = make_user(
        "staff.member@example.test", display_name="Sam Staff", is_staff=True, is_superuser=True
    )
    player = make_user("pat.player.longname@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(player)
    quota_grant(account=account, amount=120000, source=QuotaGrant.Source.STAFF, actor=staff)
    job = "981d11d2-381e-4641-91a0-f78ac18b8a06"  # room turns are keyed by their job's id
    spent = quota_reserve(user=player, amount=1500, key=f"room_turn:{job}", owner_type="room_turn",
                          owner_id=job)  # fmt: skip
    quota_settle(reservation=spent, actual=1234)
    quota_reserve(user=player, amount=1500, key=f"room_turn:{job[::-1]}", owner_type="room_turn",
                  owner_id=job[::-1])  # fmt: skip
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = _sign_in(context, asgi_server, "staff.member@example.test")
        page.goto(f"{asgi_server}/admin/quota/{listed}/")
        expect(page.locator("#result_list tbody tr")).to_have_count(2)
        _shot(page, f"admin-quota-{listed}", DESKTOP)
        measured = page.evaluate(TABLE_FITS)
        assert measured["sidebar"] is True
        assert measured["table"] <= measured["box"], measured
    finally:
        context.close()
