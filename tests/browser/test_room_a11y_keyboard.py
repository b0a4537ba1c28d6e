"""The room page by keyboard alone, in a real browser against uvicorn: a button that goes away
when it has done its work hands its focus on to where the reader is taken, never back to the
top of the page."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_new_messages_pressed_by_keyboard_puts_the_focus_in_the_message_list(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, _pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    for n in range(1, 41):
        room_message_post(
            membership=gm_m, body=f"Line {n}\nand more", mode="chat", client_message_id=f"j{n}"
        )
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        # Up in the history, a new message arrives: "New messages" is offered.
        player.locator(".room__timeline").evaluate("el => el.scrollTo({top: 0})")
        player.wait_for_timeout(300)
        _say(gm, "Something new at the table.")
        jump = player.locator("#timeline-jump")
        expect(jump).to_be_visible()
        jump.focus()
        player.keyboard.press("Enter")
        expect(jump).to_be_hidden()
        # The button went with the focus it had: the list it took the reader down has it.
        expect(player.locator("#timeline")).to_be_focused()
        player.keyboard.press("Tab")
        expect(player.locator("input[name=mode][value=chat]")).to_be_focused()
