"""The room is wider than the other pages (timeline beside the side column); the site's header
and footer widen with it there, so their edges line up with the room's, in Chromium."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

EDGES = """() => [".brand", ".room__title", ".footer__inner > span"].map(
  (s) => Math.round(document.querySelector(s).getBoundingClientRect().left))"""
RIGHT_EDGES = """() => [".nav", ".room__side"].map(
  (s) => Math.round(document.querySelector(s).getBoundingClientRect().right))"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rooms_edges_line_up_with_the_header_and_footer(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = _sign_in(context, asgi_server, "pat@example.test")
    for width, left in ((1280, 16), (1920, 256)):
        page.set_viewport_size({"width": width, "height": 900})
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        assert page.evaluate(EDGES) == [left, left, left]
        assert page.evaluate(RIGHT_EDGES) == [width - left, width - left]
