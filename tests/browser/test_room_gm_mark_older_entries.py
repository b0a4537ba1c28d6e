"""An entry written before messages said the role they were sent in, in Chromium against uvicorn:
its sender is marked "GM" by the role they hold as the page opens (the members the page names
as running the game), since the entry cannot say more."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401

Role = CampaignMembership.Role


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_entry_without_its_senders_role_is_marked_by_the_role_held_now(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_message_post
    from tests.rooms.factories import change_role, make_campaign

    owner = make_user("owner@example.test", display_name="Olga Owner")
    gail = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (owner_m, gail_m, pat_m) = make_campaign(owner, (gail, Role.GM), (pat, Role.PLAYER))
    said = ("Owner's words", "Gail's words", "Pat's words")
    for membership, body in zip((owner_m, gail_m, pat_m), said, strict=True):
        room_message_post(membership=membership, body=body, mode="chat", client_message_id=body)
    # As entries were written before the role was stored with them.
    Message.objects.filter(room__campaign=campaign).update(data={})
    change_role(gail_m, Role.PLAYER)
    change_role(pat_m, Role.GM)
    with in_the_room(browser, asgi_server, campaign, "owner@example.test") as (page,):
        _wait_for_texts(page, list(said))
        entries = page.locator("#timeline li[data-sequence]")
        assert [entries.nth(i).locator(".entry__role").count() for i in range(3)] == [1, 0, 1]
        for i in (0, 2):
            expect(entries.nth(i).locator(".entry__role")).to_have_text("GM")
