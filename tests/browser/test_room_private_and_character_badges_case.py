"""The badges beside a sender start with a capital as the mode badges do, in Chromium against
uvicorn: "Private: Pat Player", "Private: you", "As Kara", and "Private" on a whisper still
being sent; a character's name keeps the case it was given ("As kara")."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_private_and_acted_as_badges_start_with_a_capital(
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
        for cmid, name in (("a1", "Kara"), ("a2", "kara")):
            room_message_post(
                membership=pat_m, body="I search the room.", mode="action",
                client_message_id=cmid, data={"character_id": cmid, "character_name": name},
            )  # fmt: skip
        texts = ["Meet me at dawn.", "I search the room.", "I search the room."]
        for page in (gm, player):
            _wait_for_texts(page, texts)
            badges = page.locator("#timeline li.entry--action .badge--character")
            expect(badges).to_have_text(["As Kara", "As kara"])
        expect(gm.locator("#timeline .badge--private")).to_have_text(["Private: Pat Player"])
        expect(player.locator("#timeline .badge--private")).to_have_text(["Private: you"])

        # A whisper being sent, its recipients not yet listed, is marked "Private" too.
        gm.route("**/room/messages", lambda route: None)  # held: the message stays pending
        gm.check("input[name=audience][value=private]")
        gm.check("#recipients input[name=recipients]")
        _say(gm, "And bring a lamp.")
        pending = gm.locator("#timeline li.entry--pending")
        expect(pending.locator(".badge--private")).to_have_text("Private")
