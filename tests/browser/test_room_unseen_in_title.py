"""The room in a background tab, in Chromium: the tab's title counts the entries others wrote
while it was not looked at ("(2) …"), so a player waiting on the GM in another tab sees that
something came; looked at again, the title is the room's own."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room, wait_until_true
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

# The page told its tab went to the background, or came back (as the browser tells it).
SHOWN = """shown => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => !shown});
  Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => shown ? 'visible' : 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_background_tab_s_title_counts_what_others_wrote_meanwhile(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        title = player.title()
        assert title == "The Sunless Citadel · room · SagaSmith"
        _say(gm, "Seen as it came.")
        wait_until_true(
            player, "document.querySelectorAll('#timeline li[data-sequence]').length === 1"
        )
        assert player.title() == title

        player.evaluate(SHOWN, False)
        _say(gm, "The door creaks.")
        _say(gm, "Footsteps.")
        wait_until_true(
            player, "document.querySelectorAll('#timeline li[data-sequence]').length === 3"
        )
        assert player.title() == f"(2) {title}"
        assert gm.title() == title  # their own words are no news to them

        player.evaluate(SHOWN, True)
        assert player.title() == title
