"""The opportunity attacks a move left open, in the GM's combat panel in Chromium (real turns: a
live dnd5e server, the turn worker in Celery's eager mode): who may strike whom, and the square
left, under the initiative list, for the GM alone, kept up to date as the panel is, and on a
phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_accessibility_axe import _assert_no_violations
from tests.browser.test_room_initiative_positions import _combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_options_handover import _until_ilsas_turn
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SECTION = "#turn-opportunity"
ITEMS = "#turn-opportunity-list > li"
# Whether anything in the combat panel is wider than the panel (cut off, or the page scrolls
# sideways).
SPILLS = """() => {
  const panel = document.getElementById("turn-combat").getBoundingClientRect();
  return [...document.querySelectorAll("#turn-combat *")].some((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && (box.right > panel.right + 0.5 || box.left < panel.left - 0.5);
  }) || document.documentElement.scrollWidth > window.innerWidth;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_gm_alone_sees_the_opportunity_attack_a_move_left_open_until_it_is_taken(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    tmp_path,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Reach Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        combat = _combat(gm, asgi_server, campaign)
        at = {e["character"]["name"]: e["position"] for e in combat["order"]}
        # Face to face at the start: the goblin beside her, one column over.
        assert at["Goblin"] == [at["Ilsa"][0] + 1, at["Ilsa"][1]]
        for page in (gm, ilsa):
            expect(page.locator("#turn-order > li")).to_have_count(2)
            expect(page.locator(SECTION)).to_be_hidden()

        # Two squares back: out of the goblin's reach.
        x, y = at["Ilsa"]
        _say(ilsa, f"move to {x - 2},{y}", mode="action")
        jobs += 1
        _settle(campaign, jobs)

        expect(gm.locator(ITEMS)).to_have_text([f"Goblin may strike Ilsa (left {x}, {y})"])
        expect(gm.locator(SECTION)).to_be_visible()
        expect(gm.locator("#turn-opportunity-title")).to_have_text("Opportunity attacks GM only")
        expect(gm.locator("#turn-opportunity-list")).to_have_accessible_name(
            "Opportunity attacks GM only"
        )
        # Ilsa's panel read has no such key: her page says nothing of it.
        expect(ilsa.locator(".turn-combatant.is-current .turn-combatant__place")).to_contain_text(
            f"at ({x - 2}, {y})"
        )
        expect(ilsa.locator(SECTION)).to_be_hidden()
        expect(ilsa.locator(ITEMS)).to_have_count(0)
        assert "opportunity" not in _combat(ilsa, asgi_server, campaign)

        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            gm.set_viewport_size(size)
            gm.locator(SECTION).scroll_into_view_if_needed()
            expect(gm.locator(ITEMS)).to_have_count(1)
            assert gm.evaluate(SPILLS) is False, name
            gm.screenshot(path=str(tmp_path / f"opportunity-{name}.png"), full_page=True)

        # The policy blocks nothing it needs, and axe finds nothing to report in it.
        _assert_no_violations(gm)

        # The goblin takes it: the window closes, and the panel says so as it updates.
        _say(gm, "goblin attacks Ilsa as a reaction", mode="action")
        jobs += 1
        _settle(campaign, jobs)
        expect(gm.locator(SECTION)).to_be_hidden()
        expect(gm.locator(ITEMS)).to_have_count(0)
        assert "opportunity" not in _combat(gm, asgi_server, campaign)
