"""What a character has left to spend, on its card, live: a cleric's spell slots by level (a
cast spends one), and Hit Dice (a short rest spends them); a fighter's card has no spell slots
row. Each such line has a row of its own, so the card keeps its layout."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_feedback import _domain_revision
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

FACTS_LAID_OUT = """() => {
  const list = document.querySelector("#turn-character .turn-character__facts");
  const slots = list.querySelector('[data-row="spell-slots"]');
  const conditions = list.querySelector('[data-field="conditions"]');
  const lineHeight = parseFloat(getComputedStyle(conditions).lineHeight);
  return {slotsWidth: slots.getBoundingClientRect().width,
          listWidth: list.getBoundingClientRect().width,
          spills: list.scrollWidth > list.clientWidth,
          conditionsLines: Math.round(conditions.getBoundingClientRect().height / lineHeight)};
}"""


@contextmanager
def _ilsa_in_play(browser, base_url: str, make_user, *, template: str):
    """Ilsa's level 3 `template` at a dnd5e table in play, her page open on its room. Yields
    (Ilsa's page, hurt, the campaign), where hurt(amount) has the GM deal her that much
    damage."""
    from apps.campaigns.services.characters import character_create_for
    from apps.domains.client import domain_call

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Chapel", players=[("ilsa@example.test", "Ilsa")]
    )
    gm_user, ilsa_user = users["gm@example.test"], users["ilsa@example.test"]
    character = character_create_for(
        campaign=campaign, user=ilsa_user,
        form_data={"name": "Ilsa", "template": template, "level": 3},
    ).character_id  # fmt: skip

    def hurt(amount: int) -> None:
        domain_call(
            system_id="dnd5e", tool="damage_apply", requester=gm_user,
            campaign_id=str(campaign.id),
            arguments={"target_id": character, "amount": amount, "idempotency_key": "hurt",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip

    with gm_and_ilsa_in_the_room(browser, base_url, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        yield ilsa, hurt, campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_clerics_card_shows_the_slots_left_and_a_cast_spends_one(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    cleric = _ilsa_in_play(browser, asgi_server, make_user, template="cleric")
    with cleric as (ilsa, hurt, campaign):
        row = ilsa.locator('#turn-character [data-row="spell-slots"]')
        expect(row).to_be_visible()
        expect(row).to_have_text("Spell slotsLevel 1: 4 of 4 left, Level 2: 2 of 2 left")
        # On a row of its own: the armour class and conditions beside each other keep their
        # width, and nothing spills out of the card.
        facts = ilsa.evaluate(FACTS_LAID_OUT)
        assert (facts["slotsWidth"], facts["spills"], facts["conditionsLines"]) == (
            facts["listWidth"], False, 1,
        )  # fmt: skip
        hurt(6)
        _say(ilsa, "I cast cure wounds on me", mode="action")
        _settle(campaign, 2)
        expect(row.locator('[data-field="spell-slots"]')).to_have_text(
            "Level 1: 3 of 4 left, Level 2: 2 of 2 left"
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fighters_card_shows_the_hit_dice_left_and_a_short_rest_spends_them(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    fighter = _ilsa_in_play(browser, asgi_server, make_user, template="fighter")
    with fighter as (ilsa, hurt, campaign):
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        expect(ilsa.locator('#turn-character [data-row="spell-slots"]')).to_be_hidden()
        row = ilsa.locator('#turn-character [data-row="hit-dice"]')
        expect(row).to_be_visible()
        expect(row).to_have_text("Hit dice3 of 3 (d10)")
        hurt(20)
        _say(ilsa, "short rest, spend 2 hit dice", mode="action")
        _settle(campaign, 2)
        expect(row.locator('[data-field="hit-dice"]')).to_have_text("1 of 3 (d10)")
