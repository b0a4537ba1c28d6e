"""The usage page's grants, at a phone's and a desktop's width: an expired grant whose credits a
turn still holds, with its note and expiry, is read in full, each cell clear of the others and
inside its card, with no table scrolled sideways."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_page_layout import SIZES, _shot
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

# For each row of the grants table: every line of text of each cell as a box, and the card's.
CELL_TEXT_BOXES = """() => {
  const card = document.querySelector("#usage-grants").closest(".card").getBoundingClientRect();
  return [...document.querySelectorAll("#usage-grants tbody tr")].map((row) =>
    [...row.querySelectorAll("td")].map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return [...range.getClientRects()].filter((r) => r.width > 0).map((r) =>
        ({left: r.left, right: r.right, top: r.top, bottom: r.bottom}));
    })).concat([[[{left: card.left, right: card.right}]]]);
}"""


def _overlap(a: dict, b: dict) -> bool:
    # Half a pixel of slack: glyph boxes of adjacent lines may touch.
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_an_expired_grant_held_by_a_turn_reads_clearly_in_the_grants_table(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.quota.models import QuotaGrant, Reservation
    from apps.quota.services import quota_grant, quota_reserve

    user = make_user("player@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(user)
    now = timezone.now()
    for amount, expires, note in (
        (10, now + timedelta(hours=1), "Launch bonus"),
        (8, now + timedelta(days=7), "Weekly"),
        (100, None, "Welcome to the table"),
    ):
        quota_grant(account=account, amount=amount, source="staff", expires_at=expires, note=note)
    quota_reserve(user=user, amount=12, key="held-while-a-turn-runs")
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=now - timedelta(minutes=1)
    )
    # The turn reserved before the expiry.
    Reservation.objects.filter(account=account).update(created_at=now - timedelta(minutes=2))
    context = browser.new_context(viewport=viewport)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/usage/")
        rows = page.locator("#usage-grants tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.first.locator("td").nth(2)).to_have_text("10 held by turns in progress")
        _shot(page, "usage-grants", viewport)
        *table, [[card]] = page.evaluate(CELL_TEXT_BOXES)
        for row in table:
            for i, cell in enumerate(row):
                for box in cell:
                    assert card["left"] <= box["left"] and box["right"] <= card["right"], box
                    for other in row[i + 1 :]:
                        assert not any(_overlap(box, o) for o in other), (row, i)
        assert page.evaluate(
            "() => [...document.querySelectorAll('.table-wrap')]"
            ".map((w) => w.scrollWidth <= w.clientWidth)"
        ) == [True, True, True]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_expired_grant_on_a_phone_says_expired_once(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.quota.models import QuotaGrant
    from apps.quota.services import quota_grant

    user = make_user("player@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(user)
    now = timezone.now()
    quota_grant(account=account, amount=10, source="staff", expires_at=now + timedelta(hours=1))
    quota_grant(account=account, amount=8, source="staff", expires_at=now + timedelta(days=7))
    QuotaGrant.objects.filter(account=account, amount=10).update(expires_at=now)
    context = browser.new_context(viewport=SIZES[1].values[0])
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/usage/")
        rows = page.locator("#usage-grants tbody tr")
        expect(rows).to_have_count(2)
        # What the phone shows of each expiry cell: its label, then its text.
        shown = page.evaluate(
            """() => [...document.querySelectorAll("#usage-grants tbody td:nth-child(4)")]
              .map((td) => {
                const label = getComputedStyle(td, "::before").content;
                const text = label === "none" ? "" : label.replace(/^"|"$/g, "");
                return (text + td.innerText).split(" ").slice(0, 2); })"""
        )
        # The expired grant comes first (charges draw from it first); then the date.
        assert [first for first, _date in shown] == ["Expired", "Expires"]
        assert {date for _first, date in shown}.isdisjoint({"Expired", "Expires"})
    finally:
        context.close()
