"""The room page with the system's forced colours (Windows high contrast), in a real browser
against uvicorn: backgrounds, border colours and shadows are replaced by the system's few
colours, so what the page says with them alone must still be told apart."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

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
