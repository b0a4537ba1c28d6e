"""The owner archives the campaign in its settings while their room is open in another tab: the
room reloads read-only by itself, and the settings page still says "Campaign archived." (real
browser, uvicorn)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rooms_own_reload_leaves_the_owners_archive_notice_to_the_settings_page(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    owner = make_user("gm@example.test", display_name="Gail GM")
    campaign, _ = make_campaign(owner)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (room,):
        settings = room.context.new_page()
        settings.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        # The archive is posted and its redirect not yet followed: the notice waits in the
        # session while the room, told of the archive, loads itself again.
        status = settings.evaluate(
            """async () => {
                const form = document.querySelector("section[aria-labelledby=h-archive] form");
                const body = new FormData(form);
                const r = await fetch(form.action, {method: "POST", body, redirect: "manual"});
                return r.type;
            }"""
        )
        assert status == "opaqueredirect"
        expect(room.locator("#composer")).to_have_count(0)
        expect(room.get_by_text("This campaign is archived")).to_be_visible()
        expect(room.locator(".flash__item")).to_have_count(0)

        settings.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        expect(settings.locator(".flash__item")).to_have_text(["Campaign archived."])
