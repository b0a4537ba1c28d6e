"""Campaign pages that carry a campaign's name keep to the window's width when the name is one
unbroken 120-character word, in a real browser at a phone's and a desktop's size."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.browser.test_room_live import PASSWORD, asgi_server  # noqa: F401
from tests.campaigns.conftest import domain_env, domains, gm, make_campaign, player  # noqa: F401

SIZES = [
    pytest.param({"width": 1440, "height": 900}, id="desktop"),
    pytest.param({"width": 390, "height": 844}, id="phone"),
]
LONG_NAME = "W" * 120
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", SIZES)
def test_invite_create_and_character_pages_wrap_a_long_campaign_name(
    browser,
    asgi_server,  # noqa: F811
    make_campaign,  # noqa: F811
    gm,  # noqa: F811
    player,  # noqa: F811
    viewport,
):
    from apps.campaigns.services.invites import invite_create
    from tests.campaigns.conftest import join

    campaign = make_campaign(gm, name=LONG_NAME)
    join(campaign, gm, player)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/invites/{token}")  # signed out: the first page a guest sees
        assert page.locator("h1").inner_text() == LONG_NAME
        assert page.evaluate(NO_SIDEWAYS_SCROLL)

        page.goto(f"{asgi_server}/accounts/login/")
        page.fill("input[name=login]", "player@example.test")
        page.fill("input[name=password]", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{asgi_server}/")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/characters/new")
        assert page.url == f"{asgi_server}/campaigns/{campaign.id}/characters/new"
        assert page.evaluate(NO_SIDEWAYS_SCROLL)

        # The create page, back right after creating one, names the one just made.
        page.goto(f"{asgi_server}/campaigns/new")
        page.fill("input[name=name]", LONG_NAME)
        page.click("form[data-progress] button[type=submit]")
        page.wait_for_url(re.compile(r".*/settings$"))
        page.goto(f"{asgi_server}/campaigns/new")
        assert page.locator("#just-created").inner_text().startswith(f"You created {LONG_NAME}")
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
    finally:
        context.close()
