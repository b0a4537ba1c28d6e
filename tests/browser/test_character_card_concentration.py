"""Shield of Faith and concentration on the character card, live: the warded creature's
armour class names the spell behind its +2, and the caster's card has a "Concentrating" row
naming the spell and on whom; both go once the spell ends (at will, or at 0 HP). The
Sheet's spell list says which spells need concentration."""

from __future__ import annotations

from contextlib import contextmanager
from itertools import count

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_accessibility_axe import _assert_no_violations
from tests.browser.test_character_sheet import _fits, _items, _open_sheet, _row
from tests.browser.test_room_feedback import _domain_revision
from tests.browser.test_room_live import asgi_server  # noqa: F401

_keys = count()


def _write(campaign, user, tool: str, **arguments) -> dict:
    """A write straight on the dnd5e server as `user`; then the room learns of it, so the
    pages read their cards again (as after a turn)."""
    from apps.campaigns.services.authority import campaign_refresh
    from apps.domains.client import domain_call

    gm = campaign.owner
    result = domain_call(
        system_id="dnd5e", tool=tool, requester=user, campaign_id=str(campaign.id),
        arguments={**arguments, "idempotency_key": f"{tool}-{next(_keys)}",
                   "expected_revision": _domain_revision(campaign, gm)},
    )  # fmt: skip
    campaign_refresh(campaign=campaign, requester=gm)
    return result.structured


@contextmanager
def _chapel(browser, base_url: str, make_user, *, players):
    """A dnd5e table in play whose players each have a level 3 character: `players` is
    (email, name, template). Yields (campaign, users by email, character ids by name, the
    players' pages in that order)."""
    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Chapel",
        players=[(email, name) for email, name, _template in players],
    )  # fmt: skip
    ids = {
        name: character_create_for(
            campaign=campaign, user=users[email],
            form_data={"name": name, "template": template, "level": 3},
        ).character_id
        for email, name, template in players
    }  # fmt: skip
    _write(campaign, campaign.owner, "phase_set", phase="play")
    emails = [email for email, _name, _template in players]
    with in_the_room(browser, base_url, campaign, *emails) as pages:
        yield campaign, users, ids, pages


def _ac(page):
    return page.locator('#turn-character [data-field="ac"]')


def _ac_note(page):
    return page.locator('#turn-character [data-field="ac-effects"]')


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_shield_of_faith_on_a_fighter_shows_on_both_cards_until_the_cleric_ends_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    players = [
        ("ilsa@example.test", "Ilsa", "cleric"),
        ("bram@example.test", "Bram", "fighter"),
    ]
    with _chapel(browser, asgi_server, make_user, players=players) as (campaign, users, ids, pages):
        ilsa, bram = pages
        expect(_ac(bram)).to_have_text("16")
        expect(_ac_note(bram)).to_have_count(0)
        expect(_row(ilsa, "concentration")).to_be_hidden()

        _write(
            campaign, users["ilsa@example.test"], "spell_cast",
            caster_id=ids["Ilsa"], target_id=ids["Bram"], spell="shield_of_faith",
        )  # fmt: skip
        # Bram's AC with the +2, and why, in the AC's own text (read out with it).
        expect(_ac(bram)).to_have_text("18 Shield of Faith +2")
        expect(_ac_note(bram)).to_have_text("Shield of Faith +2")
        expect(_row(bram, "concentration")).to_be_hidden()
        # Ilsa holds it: her card says on whom; her own AC is as it was.
        expect(_row(ilsa, "concentration")).to_be_visible()
        expect(_row(ilsa, "concentration")).to_have_text("ConcentratingShield of Faith on Bram")
        expect(_ac(ilsa)).to_have_text("18")
        _fits(bram, "character-card-warded")
        _fits(ilsa, "character-card-concentrating")
        _assert_no_violations(bram)
        _assert_no_violations(ilsa)

        _write(
            campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
            target_id=ids["Bram"], spell="shield_of_faith", end_concentration=True,
        )  # fmt: skip
        expect(_ac(bram)).to_have_text("16")
        expect(_ac_note(bram)).to_have_count(0)
        expect(_row(ilsa, "concentration")).to_be_hidden()
        expect(_ac(ilsa)).to_have_text("18")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cleric_warding_herself_concentrates_on_herself_until_she_drops_to_0_hp(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    players = [("ilsa@example.test", "Ilsa", "cleric")]
    with _chapel(browser, asgi_server, make_user, players=players) as (campaign, users, ids, pages):
        (ilsa,) = pages
        gm = users["gm@example.test"]
        expect(_ac(ilsa)).to_have_text("18")

        # The GM casts it for her (the GM may cast for any character).
        _write(
            campaign, gm, "spell_cast",
            caster_id=ids["Ilsa"], target_id=ids["Ilsa"], spell="shield_of_faith",
        )  # fmt: skip
        expect(_ac(ilsa)).to_have_text("20 Shield of Faith +2")
        expect(_row(ilsa, "concentration")).to_have_text("ConcentratingShield of Faith on yourself")

        # Dropping to 0 hit points ends her concentration, and the +2 with it.
        expect(ilsa.locator('#turn-character [data-field="hp-text"]')).to_have_text("24/24")
        _write(campaign, gm, "damage_apply", target_id=ids["Ilsa"], amount=24)
        expect(ilsa.locator('#turn-character [data-field="status"]')).to_have_text("Dying")
        expect(_ac(ilsa)).to_have_text("18")
        expect(_ac_note(ilsa)).to_have_count(0)
        expect(_row(ilsa, "concentration")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sheet_says_which_spells_need_concentration(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    players = [("ilsa@example.test", "Ilsa", "cleric")]
    with _chapel(browser, asgi_server, make_user, players=players) as (_c, _u, _ids, pages):
        (ilsa,) = pages
        _open_sheet(ilsa)
        assert _items(ilsa, "spells") == [
            "Sacred Flame (cantrip, action, 60 ft)",
            "Bless (1st, action, 30 ft, up to 3 creatures, concentration)",
            "Cure Wounds (1st, action, touch)",
            "Healing Word (1st, bonus action, 60 ft)",
            "Shield of Faith (1st, bonus action, 60 ft, concentration)",
        ]
        _fits(ilsa, "character-sheet-concentration")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_bless_on_several_creatures_names_them_all_on_the_casters_card(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    players = [
        ("ilsa@example.test", "Ilsa", "cleric"),
        ("bram@example.test", "Bram", "fighter"),
    ]
    with _chapel(browser, asgi_server, make_user, players=players) as (campaign, users, ids, pages):
        ilsa, bram = pages
        gm = users["gm@example.test"]
        goblin = _write(campaign, gm, "monster_spawn", monster_key="goblin")["character"]["id"]

        _write(
            campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
            target_ids=[ids["Bram"], ids["Ilsa"], goblin], spell="bless",
        )  # fmt: skip
        # Every target named as the domain names it, her own as "yourself", last; joined as
        # the game master's narration joins names (no comma before "and").
        expect(_row(ilsa, "concentration")).to_have_text(
            "ConcentratingBless on Bram, Goblin and yourself"
        )
        expect(_row(bram, "concentration")).to_be_hidden()
        _fits(ilsa, "character-card-bless")

        # A new Bless replaces the first: two creatures, neither of them her.
        _write(
            campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
            target_ids=[ids["Bram"], goblin], spell="bless",
        )  # fmt: skip
        expect(_row(ilsa, "concentration")).to_have_text("ConcentratingBless on Bram and Goblin")

        # Blessing herself alone reads as a Shield of Faith on herself does.
        _write(
            campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
            target_ids=[ids["Ilsa"]], spell="bless",
        )  # fmt: skip
        expect(_row(ilsa, "concentration")).to_have_text("ConcentratingBless on yourself")
