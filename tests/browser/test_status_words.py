"""One character, one word for its state: its own card and everyone's initiative list say the
same thing for a character at 0 HP ("dying" while it makes death saves, "down" once stable)."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_feedback import _drop_to_zero
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_character_at_0_hp_is_dying_on_its_card_and_in_the_initiative_list(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, users, mine = fighters_table(make_user, name="Same Word", fighters=("Ilsa",))
    gm_user, (ilsa_id,) = users["gm@example.test"], mine
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        card_status = ilsa.locator('#turn-character [data-field="status"]')
        expect(card_status).to_have_text("Unhurt")
        # Down to 0 HP and not stable: making death saves, so dying, in both places.
        _drop_to_zero(campaign, gm_user, ilsa_id)
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        expect(card_status).to_have_text("Dying")
        expect(card_status).to_have_attribute("data-status", "dying")
        for page in (gm, ilsa):
            entry = page.locator(f'#turn-order li[data-id="{ilsa_id}"]')
            expect(entry.locator(".turn-combatant__dying")).to_have_text("Dying")
            expect(entry).not_to_contain_text("Down")
        # Stable (three death saves made; given here by the panel the page reads): down, in
        # both places, and dying in neither.

        def stable(node):
            if isinstance(node, dict):
                if node.get("id") == ilsa_id and isinstance(node.get("conditions"), list):
                    node["conditions"] = sorted({*node["conditions"], "stable"})
                return {key: stable(value) for key, value in node.items()}
            return [stable(value) for value in node] if isinstance(node, list) else node

        def panel(route):
            from playwright.sync_api import Error

            try:
                response = route.fetch()
                route.fulfill(response=response, json=stable(json.loads(response.text())))
            except Error:
                pass  # a read the page's own reload or closing cut short

        ilsa.route("**/room/panel*", panel)
        ilsa.reload()
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        entry = ilsa.locator(f'#turn-order li[data-id="{ilsa_id}"]')
        expect(card_status).to_have_text("Down")
        expect(entry.locator(".turn-combatant__down")).to_have_text("Down")
        expect(entry.locator(".turn-combatant__dying")).to_have_count(0)
        expect(entry).not_to_contain_text("Dying")
        expect(ilsa.locator("#turn-character")).not_to_contain_text("Dying")
