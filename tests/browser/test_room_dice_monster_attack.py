"""The dice list in Chromium: a monster's attack, whose natural d20 is not shown, on a die face
that does not read as a natural roll."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL
from tests.browser.test_room_live import asgi_server  # noqa: F401

CLIP = "(die) => getComputedStyle(die).clipPath"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_monsters_attack_total_is_not_drawn_as_a_natural_d20(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Dice Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    attack = {"tool": "attack", "label": "Scimitar", "attacker_name": "Goblin",
              "target_name": "Ilsa", "natural": None, "total": 21, "hit": True,
              "critical": False, "damage": 5, "damage_type": "slashing",
              "sequence": 200001}  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_ROLL, attack)
        total = ilsa.locator("#turn-dice li .turn-roll__die").first
        expect(total).to_have_text("21")
        # Not the d20's shape, and named for what it is (the bonus stays hidden: no natural).
        expect(total).to_have_class("turn-roll__die turn-roll__die--total")
        expect(total).to_have_attribute("role", "img")
        expect(total).to_have_accessible_name("attack total 21")
        assert total.evaluate(CLIP) == "none"
        expect(ilsa.locator("#turn-dice li").first).not_to_contain_text("natural")

        # A natural roll keeps the d20's face, hidden from a screen reader (the line says it).
        ilsa.evaluate(ONE_ROLL, {**attack, "natural": 14, "sequence": 200002})
        natural = ilsa.locator("#turn-dice li .turn-roll__die").first
        expect(natural).to_have_text("14")
        expect(natural).to_have_class("turn-roll__die")
        expect(natural).to_have_attribute("aria-hidden", "true")
        assert natural.evaluate(CLIP).startswith("polygon(")
