"""A concentration save in the Dice panel, in Chromium: its roll against the DC and, when it
failed, the spell it ended ("Shield of Faith ends"), as the turn's dice line carries it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

# A concentration save as the room's narration event carries it (dice_from's shape).
ONE_SAVE = """line => {
  const dice = [{tool: "saving_throw", label: "Concentration (CON save) · Ilsa → Shield of Faith",
                 mode: "normal", dc: 10, ...line}];
  document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
    entry: {event_type: "turn.narration", sequence: line.sequence, data: {dice}}}}));
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_failed_concentration_save_says_which_spell_it_ended(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Chapel Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_SAVE, {"natural": 12, "total": 14, "success": True, "sequence": 300001})
        kept = ilsa.locator('#turn-dice li[data-dice="saving_throw"]').first
        expect(kept.locator(".turn-roll__title")).to_have_text(
            "Concentration (CON save) · Ilsa → Shield of Faith"
        )
        expect(kept.locator(".turn-roll__line")).to_have_text("d20 12 + 2 = 14 · DC 10 success")

        ilsa.evaluate(
            ONE_SAVE,
            {"natural": 3, "total": 5, "success": False, "ends": "Shield of Faith ends",
             "sequence": 300002},
        )  # fmt: skip
        lost = ilsa.locator('#turn-dice li[data-dice="saving_throw"]').first
        expect(lost.locator(".turn-roll__line")).to_have_text(
            "d20 3 + 2 = 5 · DC 10 failure · Shield of Faith ends"
        )
