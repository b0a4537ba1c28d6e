"""The narrative scene panel in Chromium once the GM has ended a scene."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_after_the_gm_ends_the_scene_the_panel_says_none_is_open_not_none_yet(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Fog Harbour",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        for page in (gm, ilsa):
            expect(page.locator("#turn-scene [data-empty]")).to_have_text("No scene is open.")
        for jobs, action in enumerate(("set phase play", "open scene The Drowned Lantern"), 1):
            _say(gm, action, mode="action")
            _settle(campaign, jobs)
        for page in (gm, ilsa):
            expect(page.locator('#turn-scene [data-field="title"]')).to_have_text(
                "The Drowned Lantern"
            )
        _say(gm, "end scene", mode="action")
        _settle(campaign, 3)
        # There was a scene: "No scene yet." would say the story has not started.
        for page in (gm, ilsa):
            expect(page.locator("#turn-scene [data-scene]")).to_be_hidden()
            expect(page.locator("#turn-scene [data-empty]")).to_be_visible()
            expect(page.locator("#turn-scene [data-empty]")).to_have_text("No scene is open.")
