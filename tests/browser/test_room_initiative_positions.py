"""The initiative list in Chromium with real turns (a live dnd5e server, the turn worker in
Celery's eager mode): where each combatant stands and how far the one whose go it is can still
move, in words, for a player who types "move to X,Y" and cannot read the battle map."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


def _combat(page, base_url, campaign):
    """The combat state this page's viewer reads (the panel the page itself is drawn from)."""
    panel = page.request.get(f"{base_url}/api/campaigns/{campaign.id}/room/panel").json()
    return panel["panels"]["combat"]["data"]["combat"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_initiative_list_says_each_combatants_square_and_the_movement_left(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Square Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        for page in (gm, ilsa):
            combat = _combat(page, asgi_server, campaign)
            expect(page.locator("#turn-order > li")).to_have_count(2)
            for entry in combat["order"]:
                x, y = entry["position"]
                where = f"at ({x}, {y})"
                if entry["id"] == combat["current"]:
                    where += f" · {entry['budget']['movement']} ft of movement left"
                row = page.locator(f'#turn-order li[data-id="{entry["id"]}"]')
                expect(row.locator(".turn-combatant__place")).to_have_text(where)
