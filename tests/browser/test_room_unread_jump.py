"""Coming back to a room with much unread, in Chromium: it still opens at the newest entry, and
while the "New" mark (where the reader left off) is above the view, a "First new message"
button takes them there, by keyboard too; at 1280 px and 390 px."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

MARKED = "#timeline li.entry--first-unread"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_button_takes_the_reader_to_the_first_new_entry_while_it_is_above_the_view(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import ReadCursor
    from apps.rooms.services import room_get_or_create, room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    for n in range(1, 61):
        room_message_post(
            membership=gm_m if n > 5 else pat_m, body=f"Line {n}", mode="chat",
            client_message_id=f"u{n}",
        )  # fmt: skip
    room = room_get_or_create(campaign=campaign)
    cursor = ReadCursor.objects.create(room=room, user=pat, last_read_sequence=5)
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    for viewport in (VIEWPORT, {"width": 390, "height": 844}):
        context = browser.new_context(viewport=viewport)
        try:
            ReadCursor.objects.filter(pk=cursor.pk).update(last_read_sequence=5)
            page = _sign_in(context, asgi_server, "player@example.test")
            _open(page, room_url)
            entries = page.locator("#timeline li[data-sequence]")
            expect(entries).to_have_count(60)
            marked = page.locator(MARKED)
            jump = page.locator("#timeline-unread")
            # Opened where it always opens, at the newest; the mark is far above.
            expect(entries.last).to_be_in_viewport()
            expect(marked).to_have_attribute("data-sequence", "6")
            expect(marked).not_to_be_in_viewport()
            expect(jump).to_be_visible()
            expect(jump).to_have_accessible_name("First new message")
            expect(jump).to_be_in_viewport()
            # The template's notes about it stay in the template.
            expect(page.locator("main")).not_to_contain_text("{#")

            # In the keyboard's order where it is seen: just before the list.
            page.locator("#timeline").focus()
            page.keyboard.press("Shift+Tab")
            expect(jump).to_be_focused()
            # By keyboard: the mark comes into view, whole, and has the focus; the button goes.
            # Only the list moves: the page stays where it was (the room's head, the composer).
            jump.focus()
            page_top = page.evaluate("window.scrollY")
            page.keyboard.press("Enter")
            expect(marked).to_be_in_viewport(ratio=1)
            assert page.evaluate("window.scrollY") == page_top
            expect(marked).to_be_focused()
            expect(jump).to_be_hidden()

            # Back down at the newest: the mark above again, the button again.
            page.locator(".room__timeline").evaluate("el => el.scrollTo(0, el.scrollHeight)")
            expect(jump).to_be_visible()
            # Scrolled up to it by hand: no button while the mark is in view.
            marked.scroll_into_view_if_needed()
            expect(jump).to_be_hidden()
        finally:
            context.close()

    # A room with nothing unread offers no such button.
    ReadCursor.objects.filter(pk=cursor.pk).update(last_read_sequence=60)
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        _open(page, room_url)
        expect(page.locator("#timeline li[data-sequence]")).to_have_count(60)
        expect(page.locator(MARKED)).to_have_count(0)
        expect(page.locator("#timeline-unread")).to_be_hidden()
    finally:
        context.close()
