"""The spell badges in the initiative list for a screen reader, in Chromium: an effect is heard
once with what it does ("Shield of Faith: +2 AC"), not again as its tooltip's description; the
tooltip is still there on the name that shows; a concentration badge is heard once too."""

from __future__ import annotations

import pytest

from tests.browser.test_combat_panel_spell_effects import CONCENTRATING, EFFECTS, _blessed, _fight
from tests.browser.test_combat_panel_statuses import _row
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_each_spell_badge_is_heard_once(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _fight(browser, asgi_server, make_user, warded="Bram") as (campaign, _users, ids, pages):
        _gm, _ilsa, bram = pages
        bram.route("**/room/panel*", _blessed(ids))
        _open(bram, f"{asgi_server}/campaigns/{campaign.id}/room/")
        states = _row(bram, ids["Bram"]).locator(".turn-combatant__states")
        expect(states.locator(EFFECTS)).to_have_count(2)
        # What a screen reader meets: each effect's words once, and no description.
        expect(states).to_match_aria_snapshot('- text: "Bless: +1d4 Shield of Faith: +2 AC"')
        for badge in states.locator(EFFECTS).all():
            expect(badge).to_have_accessible_description("")
            assert badge.get_attribute("title") is None
        # The eye sees the name, and hovered, what it does.
        names = states.locator(".turn-state__name")
        expect(names).to_have_text(["Bless", "Shield of Faith"])
        expect(names.first).to_have_attribute("title", "Bless: +1d4")
        expect(names.first).to_have_attribute("aria-hidden", "true")

        # An effect that says nothing more is its name alone, heard as it is seen.
        mystery = _row(bram, ids["goblin"]).locator(EFFECTS)
        expect(mystery).to_have_text("Mystery Ward")
        expect(mystery).to_have_accessible_description("")
        assert mystery.locator(".turn-state__name").get_attribute("aria-hidden") is None
        assert mystery.locator(".turn-state__name").get_attribute("title") is None

        held = _row(bram, ids["Ilsa"]).locator(CONCENTRATING)
        expect(held).to_have_text("Concentrating: Bless")
        expect(held).to_have_accessible_description("")
        expect(_row(bram, ids["Ilsa"]).locator(".turn-combatant__states")).to_match_aria_snapshot(
            '- text: "Concentrating: Bless"'
        )
