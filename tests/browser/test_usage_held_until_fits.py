"""The usage page's "Held until" on a laptop: a hold that ends on another day says its date
too, and the whole moment stays inside its card (it was cut off, "10:00 P…", unless the table
was scrolled sideways)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

LAPTOP = {"width": 1280, "height": 800}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_hold_ending_another_day_is_read_whole_on_a_laptop(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.quota.models import Reservation
    from apps.quota.services import quota_grant, quota_reserve

    user = make_user("player@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(user)
    quota_grant(account=account, amount=1200, source="staff", note="Welcome to the table")
    # A turn's hold, as the room reserves it: its key is long, and it began a while ago.
    key = "room_turn:bbbb682b-624c-4f1e-9a55-3f1b2c4d5e6f"
    reservation = quota_reserve(user=user, amount=5, key=key)
    now = timezone.now()
    Reservation.objects.filter(pk=reservation.pk).update(
        created_at=now - timedelta(minutes=30), expires_at=now + timedelta(days=2)
    )
    context = browser.new_context(viewport=LAPTOP, locale="en-US", timezone_id="America/New_York")
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/usage/")
        held = page.locator("#usage-reservations tbody tr td").nth(3)
        expect(held).to_have_text(
            held.locator("time").evaluate(
                """(t) => new Intl.DateTimeFormat("en", {year: "numeric", month: "short",
                  day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short"})
                  .format(new Date(t.dateTime))"""
            )
        )
        box = held.evaluate(
            """(el) => { const r = document.createRange(); r.selectNodeContents(el);
              const card = el.closest(".table-wrap").getBoundingClientRect();
              const text = r.getBoundingClientRect();
              return {left: text.left, right: text.right, card: card.right}; }"""
        )
        assert box["left"] >= 0 and box["right"] <= box["card"], box
        assert page.evaluate(
            "() => [...document.querySelectorAll('.table-wrap')]"
            ".map((w) => w.scrollWidth <= w.clientWidth)"
        ) == [True, True, True]
    finally:
        context.close()
