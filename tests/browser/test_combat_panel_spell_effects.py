"""Spell effects and concentration in the initiative list, in Chromium: a warded combatant's
row names the spell on it ("Shield of Faith", heard once and hovered as "Shield of Faith: +2 AC"),
the caster's row says "Concentrating: Shield of Faith", a monster's row shows only what the
viewer's combat read carries, and all of it goes when the spell ends."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_accessibility_axe import _assert_no_violations
from tests.browser.test_character_card_concentration import _write
from tests.browser.test_character_sheet import SHOTS
from tests.browser.test_combat_panel_statuses import PHONE, ROWS_OVERFLOW, STATES, _row
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import asgi_server  # noqa: F401

EFFECTS = '.turn-state[data-state="effect"]'


def _fits(page, name: str) -> None:
    """No initiative row wider than the list (as a phone shows it); a picture of the list
    when BROWSER_SHOTS names a folder."""
    assert page.evaluate(ROWS_OVERFLOW) is False
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        width = page.viewport_size["width"]
        page.locator("#turn-combat").screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"))


CONCENTRATING = '.turn-state[data-state="concentrating"]'


@contextmanager
def _fight(browser, base_url: str, make_user, *, warded: str):
    """A dnd5e table in play: Ilsa's level 3 cleric casts Shield of Faith on `warded` ("Bram",
    the other player's fighter, or "goblin") before the three of them start a fight. Yields
    (campaign, users by email, ids by name, the GM's, Ilsa's and Bram's pages)."""
    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Chapel Fight",
        players=[("ilsa@example.test", "Ilsa Player"), ("bram@example.test", "Bram Player")],
    )  # fmt: skip
    ids = {
        name: character_create_for(
            campaign=campaign, user=users[email],
            form_data={"name": name, "template": template, "level": 3},
        ).character_id
        for email, name, template in (
            ("ilsa@example.test", "Ilsa", "cleric"), ("bram@example.test", "Bram", "fighter"))
    }  # fmt: skip
    gm = campaign.owner
    _write(campaign, gm, "phase_set", phase="play")
    ids["goblin"] = _write(campaign, gm, "monster_spawn", monster_key="goblin")["character"]["id"]
    _write(
        campaign, users["ilsa@example.test"], "spell_cast",
        caster_id=ids["Ilsa"], target_id=ids[warded], spell="shield_of_faith",
    )  # fmt: skip
    _write(campaign, gm, "combat_start", participant_ids=[ids["Ilsa"], ids["Bram"], ids["goblin"]])
    emails = ("gm@example.test", "ilsa@example.test", "bram@example.test")
    with in_the_room(browser, base_url, campaign, *emails) as pages:
        yield campaign, users, ids, pages


def _end_it(campaign, users, ids, warded: str) -> None:
    """Ilsa lets Shield of Faith go (no action needed, in combat or out)."""
    _write(
        campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
        target_id=ids[warded], spell="shield_of_faith", end_concentration=True,
    )  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_warded_fighter_and_the_concentrating_cleric_show_it_to_everyone_until_it_ends(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _fight(browser, asgi_server, make_user, warded="Bram") as (campaign, users, ids, pages):
        gm, ilsa, bram = pages
        bram.set_viewport_size(PHONE)
        for page in pages:
            expect(page.locator("#turn-order > li")).to_have_count(3)
            effect = _row(page, ids["Bram"]).locator(EFFECTS)
            # Seen as its name; heard, and hovered, with what it does.
            expect(effect).to_have_count(1)
            expect(effect.locator(".turn-state__name")).to_have_text("Shield of Faith")
            expect(effect.locator(".sr-only")).to_have_text("Shield of Faith: +2 AC")
            expect(effect.locator(".turn-state__name")).to_have_attribute(
                "title", "Shield of Faith: +2 AC"
            )
            expect(effect).to_have_attribute("data-spell", "shield_of_faith")
            expect(_row(page, ids["Bram"]).locator(CONCENTRATING)).to_have_count(0)
            # The caster keeps it going; her own row has no effect on it.
            expect(_row(page, ids["Ilsa"]).locator(STATES)).to_have_text(
                ["Concentrating: Shield of Faith"]
            )
            expect(_row(page, ids["goblin"]).locator(STATES)).to_have_count(0)
        _fits(bram, "initiative-warded")
        _fits(gm, "initiative-warded")
        _assert_no_violations(ilsa)

        _end_it(campaign, users, ids, "Bram")
        for page in pages:
            expect(page.locator(f"#turn-order {STATES}")).to_have_count(0)
            expect(_row(page, ids["Bram"])).not_to_contain_text("Shield of Faith")
            expect(_row(page, ids["Ilsa"])).not_to_contain_text("Concentrating")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_warded_goblin_shows_the_spell_the_players_read_carries_and_never_its_ac(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _fight(browser, asgi_server, make_user, warded="goblin") as (campaign, users, ids, pages):
        gm, ilsa, bram = pages
        for page in pages:
            goblin = _row(page, ids["goblin"])
            expect(goblin.locator(".turn-combatant__states")).to_match_aria_snapshot(
                '- text: "Shield of Faith: +2 AC"'
            )
            expect(_row(page, ids["Ilsa"]).locator(STATES)).to_have_text(
                ["Concentrating: Shield of Faith"]
            )
        # The players read of the goblin what the domain gives them: the spell on it, no
        # hit points (a status word) and no armour class, which the list never works out.
        for page in (ilsa, bram):
            goblin = _row(page, ids["goblin"])
            expect(goblin.locator(".turn-hp")).to_have_text("Unhurt")
            expect(goblin.locator(".turn-combatant__states")).to_match_aria_snapshot(
                '- text: "Shield of Faith: +2 AC"'
            )
            expect(goblin.locator(".turn-hp [data-hp]")).to_have_count(0)

        _end_it(campaign, users, ids, "goblin")
        for page in pages:
            expect(page.locator(f"#turn-order {STATES}")).to_have_count(0)


def _blessed(ids: dict[str, str]):
    """A panel route handler: the combat as the server reads it, with a Bless as a parallel
    change may shape it: Ilsa concentrating on several targets (target_ids), an effect giving
    dice instead of an AC bonus on Bram, and one with neither on the goblin."""
    from playwright.sync_api import Error

    def handle(route):
        try:
            response = route.fetch()
            panel = json.loads(response.text())
            for entry in panel["panels"]["combat"]["data"]["combat"]["order"]:
                character = entry["character"]
                if entry["id"] == ids["Ilsa"]:
                    character["concentration"] = {
                        "spell": "bless", "name": "Bless",
                        "target_ids": [ids["Bram"], ids["goblin"]],
                        "target_names": ["Bram", "Goblin"],
                    }  # fmt: skip
                elif entry["id"] == ids["Bram"]:
                    character["effects"] = [
                        {"spell": "bless", "name": "Bless", "dice": "1d4", "from": ids["Ilsa"]},
                        {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2,
                         "from": ids["Ilsa"]},
                    ]  # fmt: skip
                else:
                    character["effects"] = [{"spell": "mystery", "name": "Mystery Ward"}]
            route.fulfill(response=response, json=panel)
        except Error:
            pass  # a read the page's own navigation cut short

    return handle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_any_effect_shows_by_its_name_and_a_caster_of_several_targets_by_the_spell(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _fight(browser, asgi_server, make_user, warded="Bram") as (campaign, users, ids, pages):
        _gm, _ilsa, bram = pages
        bram.route("**/room/panel*", _blessed(ids))
        bram.set_viewport_size(PHONE)
        _open(bram, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(_row(bram, ids["Ilsa"]).locator(STATES)).to_have_text(["Concentrating: Bless"])
        effects = _row(bram, ids["Bram"]).locator(EFFECTS)
        expect(effects.locator(".turn-state__name")).to_have_text(["Bless", "Shield of Faith"])
        expect(effects.first.locator(".turn-state__name")).to_have_attribute("title", "Bless: +1d4")
        # Heard apart, not run together.
        expect(_row(bram, ids["Bram"]).locator(".turn-combatant__states")).to_match_aria_snapshot(
            '- text: "Bless: +1d4 Shield of Faith: +2 AC"'
        )
        # What the read does not say is not made up: the name alone, no title.
        mystery = _row(bram, ids["goblin"]).locator(EFFECTS)
        expect(mystery).to_have_text(["Mystery Ward"])
        assert mystery.locator(".turn-state__name").get_attribute("title") is None
        _fits(bram, "initiative-blessed")
