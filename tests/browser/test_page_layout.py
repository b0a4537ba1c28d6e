"""Pages keep their shape whatever is in them, in a real browser at a phone's and a desktop's
size: the room page ends at its footer however long the history; long unbroken names and
messages wrap inside their cards instead of widening the page; and the usage page shows its
numbers on a phone without sideways scrolling."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
# Full-page screenshots go to this folder when it is set, to look at the pages by eye.
SHOTS = os.environ.get("BROWSER_SHOTS")

PAGE_ENDS_AT_FOOTER = """() => {
  const footer = document.querySelector("footer.footer").getBoundingClientRect();
  return {scrollHeight: document.documentElement.scrollHeight,
          footerBottom: footer.bottom + window.scrollY};
}"""
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
# Whether each element matched by the selector stays within the card (or list item) holding it.
INSIDE_CARD = """([selector, holder]) => [...document.querySelectorAll(selector)].map((el) => {
  const box = el.getBoundingClientRect(), card = el.closest(holder).getBoundingClientRect();
  return box.left >= card.left - 0.5 && box.right <= card.right + 0.5;
})"""


def _shot(page, name: str, viewport: dict) -> None:
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}-{viewport['width']}.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_room_page_ends_at_its_footer_however_long_the_history(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, player_m = _gm_and_player(make_user)
    for seq in range(1, 101):
        room_message_post(
            membership=(gm_m, player_m)[seq % 2],
            body=f"Message {seq}\nwith a second line\nand a third",
            mode="chat", client_message_id=f"seed-{seq}",
        )  # fmt: skip
    context = browser.new_context(viewport=viewport)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#timeline li[data-sequence]")).to_have_count(100)
        size = page.evaluate(PAGE_ENDS_AT_FOOTER)
        _shot(page, "room-history", viewport)
        assert size["scrollHeight"] <= size["footerBottom"] + 2, size
        # The live region for new entries is still there for screen readers.
        announcer = page.locator("#timeline-announcer")
        assert announcer.get_attribute("aria-live") == "polite"
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_long_unbroken_campaign_and_member_names_wrap_inside_the_room_page(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
):
    from playwright.sync_api import expect

    campaign, _gm_m, player_m = _gm_and_player(make_user)
    campaign.name = "W" * 120
    campaign.save(update_fields=["name"])
    player = player_m.user
    player.display_name = "N" * 80
    player.save(update_fields=["display_name"])
    context = browser.new_context(viewport=viewport)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#presence")).to_contain_text("N" * 80)
        _shot(page, "room-long-names", viewport)
        assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert page.evaluate(INSIDE_CARD, [".room__title", "main"]) == [True]
        assert page.evaluate(INSIDE_CARD, ["#presence li", ".card"]) == [True]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_long_unbroken_join_request_message_wraps_inside_its_card_in_settings(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
):
    from datetime import timedelta

    from playwright.sync_api import expect

    from apps.campaigns.services.invites import invite_accept, invite_create

    gm = make_user("gm@example.test", display_name="Gail GM")
    campaign, _memberships = make_campaign(gm)
    campaign.name = "W" * 120
    campaign.save(update_fields=["name"])
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1),
        max_uses=1, role="player",
    )  # fmt: skip
    link = "https://example.test/" + "a" * 270
    requester = make_user("ro@example.test", display_name="R" * 80)
    invite_accept(token=token, user=requester, message=link)
    context = browser.new_context(viewport=viewport)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        requests = page.locator("#join-requests li")
        expect(requests).to_have_count(1)
        expect(requests).to_contain_text(link)
        _shot(page, "settings-long-request", viewport)
        assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert page.evaluate(INSIDE_CARD, ["#join-requests li > span", ".card"]) == [True, True]
        assert page.evaluate(INSIDE_CARD, ["#join-requests .small", ".card"]) == [True, True]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_usage_tables_show_their_numbers_on_a_phone_without_sideways_scrolling(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.quota.services import quota_grant, quota_reserve, quota_settle

    user = make_user("player@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(user)
    quota_grant(account=account, amount=1200, source="staff", note="Welcome to the table")
    for n in range(3):
        quota_settle(reservation=quota_reserve(user=user, amount=150, key=f"k{n}"), actual=125)
    quota_reserve(user=user, amount=40, key="held-while-a-turn-runs")
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/usage/")
        rows = page.locator("#usage-ledger tbody tr")
        expect(rows).to_have_count(4)
        _shot(page, "usage-ledger", PHONE)
        first = rows.first.locator("td")
        credits, balance = first.nth(3), first.nth(4)
        expect(credits).to_have_text("−125")
        expect(balance).to_have_text("825")
        held = page.locator("#usage-reservations tbody tr td")
        expect(held.nth(1)).to_have_text("40")
        grant = page.locator("#usage-grants tbody tr td")
        expect(grant.nth(1)).to_have_text("1200")
        expect(grant.nth(2)).to_have_text("825")
        # The numbers themselves are on screen, not only their cells' scrolled-away boxes.
        for cell in (credits, balance, held.nth(1), held.nth(3), grant.nth(1), grant.nth(2)):
            box = cell.evaluate(
                """(el) => { const r = document.createRange(); r.selectNodeContents(el);
                  const text = r.getBoundingClientRect();
                  return {left: text.left, right: text.right, width: window.innerWidth}; }"""
            )
            assert 0 <= box["left"] and box["right"] <= box["width"], box
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        # Nor does any table scroll sideways inside its card.
        assert page.evaluate(
            "() => [...document.querySelectorAll('.table-wrap')]"
            ".map((w) => w.scrollWidth <= w.clientWidth)"
        ) == [True, True, True]
    finally:
        context.close()
