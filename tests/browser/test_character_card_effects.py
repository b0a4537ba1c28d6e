"""The spells on a character, on its card, live in Chromium: blessed, the card lists Bless under
"Effects" (not only the initiative list, and only in combat), with the rounds it has left once
a combat counts them; the row goes when the spell ends."""

from __future__ import annotations

import pytest

from tests.browser.test_character_card_concentration import _chapel, _write
from tests.browser.test_character_sheet import _row
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_blessed_characters_card_lists_bless_and_its_rounds_left(
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
        _ilsa, bram = pages
        expect(_row(bram, "effects")).to_be_hidden()
        _write(
            campaign, users["ilsa@example.test"], "spell_cast",
            caster_id=ids["Ilsa"], target_ids=[ids["Bram"]], spell="bless",
        )  # fmt: skip
        expect(_row(bram, "effects")).to_have_text("EffectsBless")
        expect(bram.locator('#turn-character [data-field="conditions"]')).to_have_text("None")
        _write(campaign, campaign.owner, "combat_start", participant_ids=[ids["Bram"], ids["Ilsa"]])
        expect(_row(bram, "effects")).to_have_text("EffectsBless (10 rounds left)")
        _write(
            campaign, users["ilsa@example.test"], "spell_cast", caster_id=ids["Ilsa"],
            target_ids=[ids["Bram"]], spell="bless", end_concentration=True,
        )  # fmt: skip
        expect(_row(bram, "effects")).to_be_hidden()
