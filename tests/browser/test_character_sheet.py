"""A dnd5e character's sheet on its card, in a "Sheet" disclosure closed by default: the six
abilities with their modifiers, each attack with the to-hit bonus and damage the attack tool
rolls, and a caster's spells; a fighter's card has no spells row. It fits the card on a desktop
and on a phone, and follows the card when the player acts as another character."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_accessibility_axe import _assert_no_violations
from tests.browser.test_character_card_resources import _ilsa_in_play
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

PHONE = {"width": 390, "height": 844}
# The card's screenshots go to this folder when it is set, to look at the layout by eye.
SHOTS = os.environ.get("BROWSER_SHOTS")
# Whether anything in the card reaches past its edges or scrolls sideways inside it.
SPILLS = """() => {
  const card = document.getElementById("character-card").getBoundingClientRect();
  return [...document.querySelectorAll("#character-card *")].filter((el) => {
    const box = el.getBoundingClientRect();
    if (!box.width) return false;
    return box.left < card.left - 0.5 || box.right > card.right + 0.5
      || el.scrollWidth > el.clientWidth + 1;
  }).map((el) => el.outerHTML.slice(0, 80));
}"""


def _row(page, name: str):
    return page.locator(f'#turn-character [data-row="{name}"]')


def _items(page, name: str) -> list[str]:
    return _row(page, name).locator("li").all_text_contents()


def _open_sheet(page):
    from playwright.sync_api import expect

    sheet = page.locator("#turn-character details.turn-character__more")
    expect(sheet).to_be_visible()
    # Closed until asked: the card stays short beside the conversation.
    assert sheet.evaluate("(el) => el.open") is False
    expect(_row(page, "attacks")).to_be_hidden()
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shot = Path(SHOTS) / f"character-sheet-closed-{page.viewport_size['width']}.png"
        page.locator("#character-card").screenshot(path=str(shot))
    sheet.locator("summary").click()
    expect(_row(page, "attacks")).to_be_visible()
    return sheet


def _fits(page, name: str) -> None:
    """Nothing spills out of the card, as wide as the test's page and as a phone's."""
    for viewport in (None, PHONE):
        if viewport:
            page.set_viewport_size(viewport)
        page.locator("#character-card").scroll_into_view_if_needed()
        assert page.evaluate(SPILLS) == []
        if SHOTS:
            folder = Path(SHOTS)
            folder.mkdir(parents=True, exist_ok=True)
            width = page.viewport_size["width"]
            page.locator("#character-card").screenshot(path=str(folder / f"{name}-{width}.png"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fighters_sheet_shows_abilities_and_the_longsword_and_no_spells_row(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    fighter = _ilsa_in_play(browser, asgi_server, make_user, template="fighter")
    with fighter as (ilsa, hurt, campaign):
        _open_sheet(ilsa)
        assert _items(ilsa, "abilities") == [
            "STR 15 (+2)", "DEX 13 (+1)", "CON 14 (+2)",
            "INT 8 (-1)", "WIS 12 (+1)", "CHA 10 (+0)",
        ]  # fmt: skip
        # Level 3: proficiency +2 and STR +2 to hit; the damage adds STR (an Unarmed Strike's
        # 1 + STR, last).
        assert _items(ilsa, "attacks") == [
            "Longsword +4 · 1d8+2 slashing",
            "Unarmed Strike +4 · 3 bludgeoning",
        ]
        expect(_row(ilsa, "spells")).to_be_hidden()
        # A change to the card keeps the sheet open and its rows as they were.
        hurt(20)
        _say(ilsa, "short rest, spend 1 hit dice", mode="action")
        _settle(campaign, 2)
        expect(ilsa.locator('#turn-character [data-field="hit-dice"]')).to_have_text("2 of 3 (d10)")
        assert _items(ilsa, "attacks") == [
            "Longsword +4 · 1d8+2 slashing",
            "Unarmed Strike +4 · 3 bludgeoning",
        ]
        assert ilsa.locator("#turn-character details").evaluate("(el) => el.open") is True
        _fits(ilsa, "character-sheet-fighter")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_clerics_sheet_lists_cure_wounds_and_healing_word_and_passes_axe(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _ilsa_in_play(browser, asgi_server, make_user, template="cleric") as (ilsa, _hurt, _c):
        _open_sheet(ilsa)
        expect(_row(ilsa, "spells")).to_be_visible()
        assert _items(ilsa, "spells") == [
            "Sacred Flame (cantrip, action, 60 ft)",
            "Bless (1st, action, 30 ft, up to 3 creatures, concentration)",
            "Cure Wounds (1st, action, touch)",
            "Healing Word (1st, bonus action, 60 ft)",
            "Shield of Faith (1st, bonus action, 60 ft, concentration)",
        ]
        assert _items(ilsa, "attacks") == [
            "Mace +3 · 1d6+1 bludgeoning",
            "Unarmed Strike +3 · 2 bludgeoning",
        ]
        assert _items(ilsa, "abilities")[4] == "WIS 15 (+2)"
        _fits(ilsa, "character-sheet-cleric")
        _assert_no_violations(ilsa)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sheet_follows_the_character_the_player_acts_as(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Two Hats", players=[("ilsa@example.test", "Ilsa")]
    )
    ids = {
        name: character_create_for(
            campaign=campaign, user=users["ilsa@example.test"],
            form_data={"name": name, "template": template, "level": 1},
        ).character_id
        for name, template in (("Bram", "fighter"), ("Ash", "wizard"))
    }  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (ilsa,):
        ilsa.locator("#composer-character").select_option(ids["Bram"])
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Bram")
        _open_sheet(ilsa)
        expect(_row(ilsa, "spells")).to_be_hidden()
        ilsa.locator("#composer-character").select_option(ids["Ash"])
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ash")
        expect(_row(ilsa, "spells").locator("li")).to_have_text(
            ["Fire Bolt (cantrip, action, 120 ft)", "Magic Missile (1st, action, 120 ft)"]
        )
        expect(_row(ilsa, "attacks").locator("li")).to_have_text(
            ["Fire Bolt +4 · 1d10 fire", "Unarmed Strike +1 · 0 bludgeoning"]
        )
        ilsa.locator("#composer-character").select_option(ids["Bram"])
        expect(_row(ilsa, "spells")).to_be_hidden()
        expect(_row(ilsa, "attacks").locator("li")).to_have_text(
            ["Longsword +4 · 1d8+2 slashing", "Unarmed Strike +4 · 3 bludgeoning"]
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gms_own_character_shows_its_sheet_on_the_gms_card(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(make_user, system_id="dnd5e", name="GM Plays")
    character_create_for(
        campaign=campaign, user=users["gm@example.test"],
        form_data={"name": "Ash", "template": "cleric", "level": 1},
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        expect(gm.locator('#turn-character [data-field="name"]')).to_have_text("Ash")
        _open_sheet(gm)
        assert _items(gm, "attacks") == [
            "Mace +3 · 1d6+1 bludgeoning",
            "Unarmed Strike +3 · 2 bludgeoning",
        ]
        assert _items(gm, "spells") == [
            "Sacred Flame (cantrip, action, 60 ft)",
            "Bless (1st, action, 30 ft, up to 3 creatures, concentration)",
            "Cure Wounds (1st, action, touch)",
            "Healing Word (1st, bonus action, 60 ft)",
            "Shield of Faith (1st, bonus action, 60 ft, concentration)",
        ]
