"""The room's status line in Chromium says an archived campaign's room is archived and
read-only once connected, not "Live"."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_archived_campaigns_room_says_archived_not_live(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import Campaign

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Old Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.ARCHIVED)
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        for page in (gm, ilsa):
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
            expect(page.locator("#room-status")).to_have_text("Archived (read-only)")
            # Not in the green of a live game.
            muted = page.evaluate("getComputedStyle(document.body).getPropertyValue('--muted')")
            color = page.locator("#room-status").evaluate("(e) => getComputedStyle(e).color")
            assert (muted.strip(), color) == ("#6b6880", "rgb(107, 104, 128)")
