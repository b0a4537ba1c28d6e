"""A private badge in the room, in Chromium against uvicorn: "Private: you" is in a calm blue
of its own, not the red that failures and errors are in beside it (it read as an alert), and
its words stay readable on its background (at least 4.5:1)."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

# The badge's colours and their contrast ratio (WCAG's relative luminance), beside the red
# the page's errors are in.
COLOURS = """badge => {
  const rgb = (value) => value.match(/\\d+/g).slice(0, 3).map(Number);
  const luminance = (value) => {
    const [r, g, b] = rgb(value).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(badge);
  const [light, dark] = [luminance(style.backgroundColor), luminance(style.color)].sort().reverse();
  const error = document.createElement("p");
  error.className = "form-error";
  document.body.append(error);
  const danger = getComputedStyle(error).color;
  error.remove();
  return {
    color: style.color,
    background: style.backgroundColor,
    contrast: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100,
    danger,
  };
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_private_badge_is_a_calm_blue_not_the_error_red(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, _pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    with in_the_room(browser, asgi_server, campaign, "player@example.test") as (player,):
        room_message_post(
            membership=gm_m, body="Meet me at dawn.", mode="chat", client_message_id="w1",
            audience="private", recipient_ids=[pat.id],
        )  # fmt: skip
        _wait_for_texts(player, ["Meet me at dawn."])
        badge = player.locator("#timeline .badge--private")
        expect(badge).to_have_text("Private: you")
        assert badge.evaluate(COLOURS) == {
            "color": "rgb(7, 89, 133)",
            "background": "rgb(224, 242, 254)",
            "contrast": 6.59,
            "danger": "rgb(180, 35, 24)",
        }
