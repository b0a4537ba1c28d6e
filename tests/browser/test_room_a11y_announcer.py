"""What a screen reader hears of new entries, in a real browser against uvicorn: each is said
once as it arrives, with what the page shows beside its sender (a whisper's "private", an
action's mode), not as words said to the whole table."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_whisper_and_an_action_are_announced_as_such_once_each(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        room_message_post(
            membership=gm_m, body="Meet me at dawn.", mode="chat", client_message_id="w1",
            audience="private", recipient_ids=[pat.id],
        )  # fmt: skip
        room_message_post(
            membership=gm_m, body="Hello, table.", mode="chat", client_message_id="c1"
        )
        room_message_post(
            membership=pat_m, body="I search the room.", mode="action", client_message_id="a1"
        )
        expect(player.locator("#timeline li[data-sequence]")).to_have_count(3)
        expect(gm.locator("#timeline li[data-sequence]")).to_have_count(3)
        # The whisper is heard as private, as its badge shows it; words to everyone as before.
        # Both are heard as a game master's, as their "GM" badge shows them.
        expect(player.locator("#timeline-announcer p")).to_have_text(
            ["Gail GM (GM, Private: you): Meet me at dawn.", "Gail GM (GM): Hello, table."]
        )
        expect(gm.locator("#timeline-announcer p")).to_have_text(
            ["Pat Player (Action): I search the room."]
        )
