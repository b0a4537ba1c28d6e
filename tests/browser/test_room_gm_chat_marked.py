"""A game master's own words in the timeline, in Chromium against uvicorn: a GM's chat carries a
"GM" badge beside their name, seen and heard by everyone in the room, so the table tells the
GM's table talk from a player's; a player's chat carries none."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_game_masters_chat_is_marked_gm_and_a_players_is_not(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, pat):
        _say(gm, "Welcome to the table")
        _wait_for_texts(pat, ["Welcome to the table"])
        _say(pat, "Hello")
        for page in (gm, pat):
            _wait_for_texts(page, ["Welcome to the table", "Hello"])
            entries = page.locator("#timeline li[data-sequence]")
            expect(entries.first.locator(".entry__role")).to_have_text("GM")
            expect(entries.last.locator(".entry__role")).to_have_count(0)
        # Heard with the name, as it is seen (not hidden from the accessibility tree).
        expect(
            pat.locator("#timeline li[data-sequence]").first.locator(".entry__head")
        ).to_match_aria_snapshot("- strong: Gail GM\n- text: GM")
        # The GM's own message is marked while it is being sent, as it will be once sent.
        gm.route("**/room/messages", lambda route: None)  # held: the message stays pending
        _say(gm, "One more thing")
        pending = gm.locator("#timeline li.entry--pending")
        expect(pending.locator(".entry__role")).to_have_text("GM")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_entry_keeps_the_mark_of_the_role_it_was_said_in(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    """A GM made a player keeps the mark on what they said as GM, and not on what they say
    after; a player made a GM has none on what they said before."""
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post
    from tests.rooms.factories import change_role, make_campaign

    owner = make_user("owner@example.test", display_name="Olga Owner")
    gail = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (_, gail_m, pat_m) = make_campaign(
        owner, (gail, CampaignMembership.Role.GM), (pat, CampaignMembership.Role.PLAYER)
    )
    for membership, body in ((gail_m, "Said as GM"), (pat_m, "Said as a player")):
        room_message_post(membership=membership, body=body, mode="chat", client_message_id=body)
    change_role(gail_m, CampaignMembership.Role.PLAYER)
    change_role(pat_m, CampaignMembership.Role.GM)
    gail_m.refresh_from_db()
    room_message_post(membership=gail_m, body="Said as a player now", mode="chat",
                      client_message_id="after")  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "owner@example.test") as (page,):
        _wait_for_texts(page, ["Said as GM", "Said as a player", "Said as a player now"])
        entries = page.locator("#timeline li[data-sequence]")
        assert [entries.nth(i).locator(".entry__role").count() for i in range(3)] == [1, 0, 0]
        expect(entries.first.locator(".entry__role")).to_have_text("GM")
