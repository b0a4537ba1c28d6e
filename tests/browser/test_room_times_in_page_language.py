"""The room's times are written as every other page's: in the page's language and the reader's
own zone, whatever language the browser itself is set to."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.test_room_history import VIEWPORT, _gm_and_player, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

# 5:05 PM in London is the next morning in Tokyo: the zone moves the day as well as the hour.
MOMENT = datetime(2026, 11, 30, 17, 5, tzinfo=UTC)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_en_gb_browser_reads_the_rooms_times_as_the_other_pages_in_the_pages_language(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_message_post

    campaign, gm_m, _player_m = _gm_and_player(make_user)
    message, _ = room_message_post(
        membership=gm_m, body="At the gate.", mode="chat", client_message_id="gate"
    )
    Message.objects.filter(pk=message.pk).update(created_at=MOMENT)
    get_user_model().objects.filter(pk=gm_m.user_id).update(terms_accepted_at=MOMENT)
    # The browser says "en-GB" (a 24-hour clock); the page is in English ("en").
    context = browser.new_context(viewport=VIEWPORT, locale="en-GB", timezone_id="Asia/Tokyo")
    page = _sign_in(context, asgi_server, "gm@example.test", land=False)
    page.goto(f"{asgi_server}/account/")
    assert page.evaluate("document.documentElement.lang") == "en"
    # The account page's time, as local_time.js writes it.
    expect(page.locator("dd time")).to_have_text("Dec 1, 2026, 2:05 AM GMT+9")
    _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
    time = page.locator("#timeline li[data-sequence] .entry__time")
    expect(time).to_have_text("Dec 1, 2026, 2:05 AM GMT+9")
    expect(time).to_have_attribute("title", "Tuesday, December 1, 2026 at 2:05 AM GMT+9")
