"""What a screen reader is given on the room page, in a real browser against uvicorn: the
accessibility tree, as Chromium builds it, says what the page means and no decoration."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_who_is_here_is_read_as_names_without_the_dots_drawn_beside_them(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as pages:
        presence = pages[1].locator("#presence")
        expect(presence.locator("li")).to_have_count(2)
        # Still drawn: a green dot before each name...
        dot = presence.locator("li").first.evaluate(
            "el => getComputedStyle(el, '::before').content"
        )
        assert dot.startswith('"●"'), dot
        # ...but not read out as "black circle" before every name.
        expect(presence).to_match_aria_snapshot(
            "- list:\n  - listitem: Gail GM\n  - listitem: Pat Player (you)"
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_loading_the_last_earlier_messages_by_keyboard_keeps_focus_in_the_timeline(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, _pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    for n in range(1, 311):  # a page and ten more than the room opens on
        room_message_post(membership=gm_m, body=f"Line {n}", mode="chat", client_message_id=f"k{n}")
    with in_the_room(browser, asgi_server, campaign, "player@example.test") as (page,):
        earlier = page.locator("#timeline-earlier")
        expect(earlier).to_be_visible()
        earlier.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#timeline li[data-sequence]")).to_have_count(300)
        # More to load: the button keeps the focus, and Enter again loads the rest.
        expect(earlier).to_have_text("Load earlier messages")
        expect(earlier).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#timeline li[data-sequence]")).to_have_count(310)
        # Nothing earlier is left, so the button goes: the focus it had goes to the list the
        # new entries are in, not back to the top of the page.
        expect(earlier).to_be_hidden()
        expect(page.locator("#timeline")).to_be_focused()
        page.keyboard.press("Tab")
        expect(page.locator("input[name=mode][value=chat]")).to_be_focused()
