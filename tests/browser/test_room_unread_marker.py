"""Coming back to a room, in Chromium: the first entry written since the reader last read the
room is marked "New", once, so they can tell where they left off; entries arriving while they
are there are not, and a room they have read all of opens with no mark."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

MARKED = "#timeline li.entry--first-unread"
# What the mark says: drawn before the entry, from its label.
MARK_TEXT = "el => getComputedStyle(el, '::before').content"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_first_entry_since_the_reader_last_read_is_marked_new(
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
    for n in range(1, 9):
        room_message_post(
            membership=(gm_m, pat_m)[n % 2], body=f"Line {n}", mode="chat",
            client_message_id=f"u{n}",
        )  # fmt: skip
    # Pat read up to their own line 5; line 6 (the GM's) is the first written since.
    ReadCursor.objects.create(
        room=room_get_or_create(campaign=campaign), user=pat, last_read_sequence=5
    )
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        marked = player.locator(MARKED)
        expect(marked).to_have_count(1)
        expect(marked).to_have_attribute("data-sequence", "6")
        assert marked.evaluate(MARK_TEXT) == '"New"'
        expect(marked).to_be_in_viewport()
        # The GM has no cursor yet: nothing was ever read there, so nothing is told apart.
        expect(gm.locator(MARKED)).to_have_count(0)

        _say(gm, "Something new at the table.")
        expect(player.locator("#timeline li[data-sequence]")).to_have_count(9)
        expect(marked).to_have_count(1)
        expect(marked).to_have_attribute("data-sequence", "6")

        # Read to the end while open: opened again, nothing is new.
        for _ in range(100):
            if ReadCursor.objects.get(user=pat).last_read_sequence == 9:
                break
            player.wait_for_timeout(50)
        _open(player, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(player.locator("#timeline li[data-sequence]")).to_have_count(9)
        expect(player.locator(MARKED)).to_have_count(0)
