"""A check rolled with no DC, in the Dice panel in Chromium: its roll and total ("d20 8 + 6 =
14"), how two d20s were rolled if they were, and no DC, success or failure, since nothing was
judged (the GM compares a Stealth roll with the Perception of whoever is watching). "I hide"
outside combat, with real turns, is such a check, and says who judges it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_check_natural import _made, _rolled
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

# A line as the room's narration event carries it (dice_from's shape), without a DC.
ONE_CHECK = """line => {
  const dice = [{tool: "ability_check", label: "Stealth check · Ilsa", mode: "normal", ...line}];
  document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
    entry: {event_type: "turn.narration", sequence: line.sequence, data: {dice}}}}));
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_check_line_with_no_dc_shows_the_roll_and_total_and_no_outcome(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Quiet Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_CHECK, {"natural": 8, "total": 14, "sequence": 300001})
        line = ilsa.locator('#turn-dice li[data-dice="ability_check"]').first
        expect(line.locator(".turn-roll__title")).to_have_text("Stealth check · Ilsa")
        expect(line.locator(".turn-roll__line")).to_have_text("d20 8 + 6 = 14")
        expect(line.locator(".turn-roll__die")).to_have_attribute("data-natural", "8")
        # Nothing was judged: no outcome, in words or in colour.
        expect(line.locator(".turn-roll__outcome")).to_have_count(0)
        assert line.get_attribute("data-outcome") is None

        ilsa.evaluate(
            ONE_CHECK, {"natural": 4, "total": 10, "mode": "disadvantage", "sequence": 300002}
        )
        expect(ilsa.locator("#turn-dice li .turn-roll__line").first).to_have_text(
            "d20 4 + 6 = 10 · with disadvantage"
        )

        # A monster's, to the players: its total alone, on a face not drawn as a d20.
        ilsa.evaluate(
            ONE_CHECK,
            {"label": "Stealth check · Goblin", "natural": None, "total": 13, "sequence": 300003},
        )
        goblin = ilsa.locator("#turn-dice li").first
        expect(goblin.locator(".turn-roll__line")).to_have_text("13")
        expect(goblin.locator(".turn-roll__die")).to_have_class(
            "turn-roll__die turn-roll__die--total"
        )
        expect(goblin.locator(".turn-roll__die")).to_have_accessible_name("total 13")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_hiding_outside_combat_shows_everyone_the_stealth_total_for_the_gm_to_compare(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Hidden Keep", fighters=("Ilsa",))
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        _say(ilsa, "I hide behind the crates", mode="action")
        _settle(campaign, 2)

        (check,) = _rolled(campaign, "ability_check")
        assert ("dc" in check, "success" in check, check["skill"]) == (False, False, "stealth")
        for page in (gm, ilsa):
            line = page.locator('#turn-dice li[data-dice="ability_check"]')
            expect(line).to_have_count(1)
            expect(line.locator(".turn-roll__title")).to_have_text("Stealth check · Ilsa")
            expect(line.locator(".turn-roll__line")).to_have_text(
                _made(check["natural"], check["total"])
            )
            expect(line.locator(".turn-roll__outcome")).to_have_count(0)
            expect(page.locator("#timeline li[data-sequence] .entry__body").last).to_have_text(
                f"Ilsa hides: Stealth {check['total']}. The GM compares it with the Perception "
                "of whoever is watching."
            )
