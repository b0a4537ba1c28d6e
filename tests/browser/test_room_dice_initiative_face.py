"""Initiative in the Dice panel, in Chromium: a combatant's initiative is its d20 plus its DEX
modifier, and the line carries the total alone, so its face is the flat tag a total shows on,
not the d20's face that a natural roll shows on (Briar's 18, a natural 14, read as a natural
18). The total shows once, on that tag, which says it to a screen reader ("total 18"); no line
under the title repeats it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_check_natural import _rolled
from tests.browser.test_room_dice_monster_attack import CLIP
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_initiative_total_is_not_drawn_as_a_natural_d20(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Quick Hands") as (
        campaign,
        gm,
        ilsa,
    ):
        (started,) = _rolled(campaign, "combat_start")
        totals = [str(entry["initiative"]) for entry in started["combat"]["order"]]
        for page in (gm, ilsa):
            rows = page.locator('#turn-dice li[data-dice="combat_start"]')
            expect(rows).to_have_count(2)
            faces = rows.locator(".turn-roll__die")
            expect(faces).to_have_text(totals)
            expect(rows.locator(".turn-roll__line")).to_have_count(0)
            for face, total in zip(faces.all(), totals, strict=True):
                expect(face).to_have_class("turn-roll__die turn-roll__die--total")
                expect(face).to_have_attribute("role", "img")
                expect(face).to_have_attribute("aria-label", f"total {total}")
                assert face.get_attribute("aria-hidden") is None
                assert face.get_attribute("data-natural") is None
                assert face.evaluate(CLIP) == "none"
