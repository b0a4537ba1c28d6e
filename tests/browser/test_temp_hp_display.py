"""Temporary hit points in a dnd5e room, in Chromium with real turns: the player grants their
fighter some and the GM grants the goblin some; the card and the initiative list show them beside
the hit points ("12/12 +5 temp") to whoever sees those hit points, and a monster's never to a
player."""

from __future__ import annotations

import re

import pytest

from apps.domains.client import domain_call
from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


def _rows(page):
    order = page.locator("#turn-order")
    return order.locator('li[data-kind="pc"]'), order.locator('li[data-kind="monster"]')


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_temporary_hit_points_show_beside_the_hit_points_a_viewer_sees(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, users, mine = fighters_table(make_user, name="Temp Keep", fighters=["Ilsa"])
    (ilsa_id,) = mine
    hp = domain_call(
        system_id="dnd5e", tool="character_get", arguments={"character_id": ilsa_id},
        requester=users["gm@example.test"], campaign_id=str(campaign.id),
    ).structured["character"]["hp"]  # fmt: skip
    full = f"{hp['max']}/{hp['max']}"
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)
        for page in (gm, ilsa):
            expect(page.locator("#turn-order > li")).to_have_count(2)
            # None yet: nothing is added to the hit points.
            expect(_rows(page)[0].locator("[data-hp]")).to_have_text(full)
        expect(ilsa.locator('#turn-character [data-field="hp-text"]')).to_have_text(full)
        expect(_rows(gm)[1].locator("[data-hp]")).to_have_text("7/7")

        _say(ilsa, "give me 5 temp hp", mode="action")
        _settle(campaign, 2)
        _say(gm, "the goblin gains 6 temp hp", mode="action")
        _settle(campaign, 3)

        with_temp = f"{full} +5 temp"
        expect(ilsa.locator('#turn-character [data-field="hp-text"]')).to_have_text(with_temp)
        for page in (gm, ilsa):
            pc = _rows(page)[0]
            expect(pc.locator("[data-hp]")).to_have_text(with_temp)
            expect(pc.locator("[data-hp] .turn-hp__temp")).to_have_attribute(
                "title", "5 temporary hit points"
            )
            expect(pc.locator('[role="meter"]')).to_have_attribute(
                "aria-valuetext", f"{full}, 5 temporary hit points"
            )
        # The GM reads the goblin's; the player reads only its status word.
        expect(_rows(gm)[1].locator("[data-hp]")).to_have_text("7/7 +6 temp")
        goblin = _rows(ilsa)[1]
        expect(goblin.locator("[data-status]")).to_have_text("Unhurt")
        expect(goblin.locator("[data-hp], .turn-hp__temp, [role=meter]")).to_have_count(0)
        side = ilsa.locator(".room__side").inner_text()
        assert "+6" not in side and not re.search(r"\b6 temp", side), side
        timeline = ilsa.locator("#timeline").inner_text()
        assert "Goblin is granted temporary hit points." in timeline
        assert "6 temporary" not in timeline, timeline
        expect(gm.locator("#timeline")).to_contain_text("Goblin gains 6 temporary hit points.")
