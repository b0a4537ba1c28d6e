"""Initiative in the Dice panel, in Chromium: a combatant's initiative is a DEX check, its d20
plus its DEX modifier. A character's line reads as a check's: its natural d20 on the die's face
and "d20 14 + 1 = 15" beside it. A monster's line, which the players read too, carries no
natural die (with the total it would give away its DEX modifier): its total shows once, on the
flat tag a total shows on, not the d20's face (a total of 18 on a d20 would read as a natural
18), and that tag says it to a screen reader ("total 18"); no line under the title repeats it
unless two d20s were rolled ("9 · with disadvantage"). So does a line stored before initiative
lines said their roll."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat, gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL
from tests.browser.test_room_check_natural import _made, _rolled
from tests.browser.test_room_dice_monster_attack import CLIP
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


def _expect_total_tag(face, total: int) -> None:
    from playwright.sync_api import expect

    expect(face).to_have_text(str(total))
    expect(face).to_have_class("turn-roll__die turn-roll__die--total")
    expect(face).to_have_attribute("role", "img")
    expect(face).to_have_accessible_name(f"total {total}")
    assert face.get_attribute("aria-hidden") is None
    assert face.get_attribute("data-natural") is None
    assert face.evaluate(CLIP) == "none"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_characters_initiative_shows_its_d20_and_a_monsters_its_total_alone(
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
        by_name = {e["character"]["name"]: e for e in started["combat"]["order"]}
        ilsa_roll, goblin_roll = by_name["Ilsa"], by_name["Goblin"]
        for page in (gm, ilsa):
            ilsa_row = page.locator(
                '#turn-dice li[data-dice="combat_start"]', has_text="Initiative · Ilsa"
            )
            goblin_row = page.locator(
                '#turn-dice li[data-dice="combat_start"]', has_text="Initiative · Goblin"
            )
            expect(page.locator('#turn-dice li[data-dice="combat_start"]')).to_have_count(2)

            face = ilsa_row.locator(".turn-roll__die")
            expect(face).to_have_text(str(ilsa_roll["natural"]))
            expect(face).to_have_class("turn-roll__die")
            expect(face).to_have_attribute("data-natural", str(ilsa_roll["natural"]))
            # The line says it all: the face is hidden from a screen reader.
            expect(face).to_have_attribute("aria-hidden", "true")
            assert face.evaluate(CLIP).startswith("polygon(")
            expect(ilsa_row.locator(".turn-roll__line")).to_have_text(
                _made(ilsa_roll["natural"], ilsa_roll["initiative"])
            )

            # The line everyone reads, the GM too: the goblin's die stays back.
            _expect_total_tag(goblin_row.locator(".turn-roll__die"), goblin_roll["initiative"])
            expect(goblin_row.locator(".turn-roll__line")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_initiative_line_says_two_dice_a_monsters_too_and_an_old_one_keeps_its_tag(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Slow Hands",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    poisoned = {"tool": "combat_start", "label": "Initiative · Briar", "total": 6,
                "natural": 5, "mode": "disadvantage", "sequence": 300001}  # fmt: skip
    # Stored before initiative lines carried their roll: the total alone.
    old = {"tool": "combat_start", "label": "Initiative · Goblin", "total": 18,
           "sequence": 300002}  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_ROLL, poisoned)
        ilsa.evaluate(ONE_ROLL, old)
        rows = ilsa.locator('#turn-dice li[data-dice="combat_start"]')
        expect(rows).to_have_count(2)  # newest first

        expect(rows.nth(1).locator(".turn-roll__die")).to_have_attribute("data-natural", "5")
        expect(rows.nth(1).locator(".turn-roll__line")).to_have_text(
            "d20 5 + 1 = 6 · with disadvantage"
        )

        _expect_total_tag(rows.nth(0).locator(".turn-roll__die"), 18)
        expect(rows.nth(0).locator(".turn-roll__line")).to_have_count(0)

        # A poisoned monster's, as players read it: no die, yet the two dice are said, as its
        # check's line says them ("15 · with disadvantage").
        monster = {"tool": "combat_start", "label": "Initiative · Goblin 2", "total": 9,
                   "mode": "disadvantage", "sequence": 300003}  # fmt: skip
        ilsa.evaluate(ONE_ROLL, monster)
        expect(rows).to_have_count(3)
        _expect_total_tag(rows.nth(0).locator(".turn-roll__die"), 9)
        expect(rows.nth(0).locator(".turn-roll__line")).to_have_text("9 · with disadvantage")
