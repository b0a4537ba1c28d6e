"""A cleric's card lists the spell slots left by level, and a cast spends one there, live; a
fighter's card has no spell slots row."""

from __future__ import annotations

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

    from apps.campaigns.services.characters import character_create_for
    from apps.domains.client import domain_call

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Chapel", players=[("ilsa@example.test", "Ilsa")]
    )
    gm_user, ilsa_user = users["gm@example.test"], users["ilsa@example.test"]
    cleric = character_create_for(
        campaign=campaign, user=ilsa_user,
        form_data={"name": "Ilsa", "template": "cleric", "level": 3},
    ).character_id  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        row = ilsa.locator('#turn-character [data-row="spell-slots"]')
        expect(row).to_be_visible()
        expect(row).to_have_text("Spell slotslevel 1: 4 of 4, level 2: 2 of 2")
        # On a row of its own: the armour class and conditions beside each other keep their
        # width, and nothing spills out of the card.
        facts = ilsa.evaluate(FACTS_LAID_OUT)
        assert (facts["slotsWidth"], facts["spills"], facts["conditionsLines"]) == (
            facts["listWidth"], False, 1,
        )  # fmt: skip
        domain_call(
            system_id="dnd5e", tool="damage_apply", requester=gm_user,
            campaign_id=str(campaign.id),
            arguments={"target_id": cleric, "amount": 6, "idempotency_key": "hurt",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
        _say(ilsa, "I cast cure wounds on me", mode="action")
        _settle(campaign, 2)
        expect(row.locator('[data-field="spell-slots"]')).to_have_text(
            "level 1: 3 of 4, level 2: 2 of 2"
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fighters_card_has_no_spell_slots_row(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.conftest import fighters_table

    campaign, _users, _mine = fighters_table(make_user, name="Barracks", fighters=("Ilsa",))
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        expect(ilsa.locator('#turn-character [data-row="spell-slots"]')).to_be_hidden()
