"""The quota admin's lists on a 390 px phone: the page itself never scrolls sideways; a table
wider than the screen scrolls inside its own box, so the search, actions and filters stay put."""

from __future__ import annotations

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MEASURED = """() => {
  const table = document.querySelector("#result_list");
  const box = table.parentElement;
  return {page: document.documentElement.scrollWidth, box: box.getBoundingClientRect().right,
          scrolls: getComputedStyle(box).overflowX};
}"""


@pytest.mark.parametrize("listed", ["quotaaccount", "quotagrant", "reservation", "ledgerentry"])
def test_the_quota_admin_lists_scroll_inside_their_box_at_390_px(
    browser, live_server, make_user, listed
):
    from playwright.sync_api import expect

    from apps.quota.models import QuotaGrant
    from apps.quota.services import quota_grant, quota_reserve, quota_settle

    staff = make_user(
        "staff.member@example.test", display_name="Sam Staff", is_staff=True, is_superuser=True
    )
    player = make_user("pat.player.with.a.long.address@example.test", display_name="Pat")
    account = account_on_a_zero_plan(player)
    quota_grant(account=account, amount=120000, source=QuotaGrant.Source.STAFF, actor=staff,
                note="Credits for the long campaign weekend, with thanks")  # fmt: skip
    job = "981d11d2-381e-4641-91a0-f78ac18b8a06"
    spent = quota_reserve(user=player, amount=1500, key=f"room_turn:{job}", owner_type="room_turn",
                          owner_id=job)  # fmt: skip
    quota_settle(reservation=spent, actual=1234)
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, staff.email)
    page.goto(f"{live_server.url}/admin/quota/{listed}/")
    expect(page.locator("#result_list tbody tr").first).to_be_visible()
    measured = page.evaluate(MEASURED)
    assert measured["page"] == 390
    assert measured["box"] <= 390
    assert measured["scrolls"] == "auto"
