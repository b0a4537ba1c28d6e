"""The room page with the system's forced colours (Windows high contrast), in a real browser
against uvicorn: backgrounds, border colours and shadows are replaced by the system's few
colours, so what the page says with them alone must still be told apart."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import fighters_table, in_the_room
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.rooms.factories import make_campaign
from tests.turns.rooms_support import eager  # noqa: F401

ROW_LOOK = """row => { const s = getComputedStyle(row);
    return [s.backgroundColor, s.borderTopColor, s.borderTopWidth, s.borderLeftWidth,
        s.boxShadow]; }"""
LOOK = """label => { const s = getComputedStyle(label);
    return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopWidth]; }"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_chosen_mode_and_audience_stand_out_in_forced_colours(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    context = browser.new_context(viewport=VIEWPORT, forced_colors="active")
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        assert page.evaluate("matchMedia('(forced-colors: active)').matches")
        chat = page.locator(".composer__modes label", has_text="Chat")
        action = page.locator(".composer__modes label", has_text="Action")
        everyone = page.locator(".composer__audience label", has_text="Everyone")
        gm_only = page.locator(".composer__audience label", has_text="GM only")
        # The chosen one of each switch is drawn unlike the others, not in bold type alone.
        assert chat.evaluate(LOOK) != action.evaluate(LOOK)
        assert everyone.evaluate(LOOK) != gm_only.evaluate(LOOK)
        chosen, other = chat.evaluate(LOOK), action.evaluate(LOOK)
        # Chosen by keyboard, the other one takes the chosen look.
        page.locator("input[name=mode][value=chat]").focus()
        page.keyboard.press("ArrowRight")
        expect(page.locator("input[name=mode][value=action]")).to_be_checked()
        assert action.evaluate(LOOK) == chosen
        assert chat.evaluate(LOOK) == other
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_whose_turn_it_is_shows_in_forced_colours(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Contrast Keep", fighters=["Ilsa"])
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        ilsa_context = browser.new_context(viewport=VIEWPORT, forced_colors="active")
        ilsa = _sign_in(ilsa_context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        rows = ilsa.locator("#turn-order li")
        expect(rows).to_have_count(2)
        expect(ilsa.locator("#turn-order li.is-current")).to_have_count(1)
        current = ilsa.locator("#turn-order li.is-current").evaluate(ROW_LOOK)
        waiting = ilsa.locator("#turn-order li:not(.is-current)").evaluate(ROW_LOOK)
        # Its frame, colour and shadow forced alike, the current row still looks unlike the other.
        assert current != waiting


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_hit_point_bar_is_drawn_filled_in_forced_colours(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Bar Keep", fighters=["Ilsa"])
    context = browser.new_context(viewport=VIEWPORT, forced_colors="active")
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        bar = ilsa.locator('#turn-character [data-field="hp-bar"]')
        expect(bar).to_be_visible()
        expect(bar).to_have_attribute("aria-valuenow", "12")
        # At full hit points the fill covers the track: drawn in a colour of its own, not
        # forced to the track's (which drew every bar as empty).
        fill, track = bar.evaluate(
            """bar => [getComputedStyle(bar.firstElementChild).backgroundColor,
                getComputedStyle(bar).backgroundColor]"""
        )
        assert fill != track
    finally:
        context.close()
