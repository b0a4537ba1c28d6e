"""The "New messages ↓" button in Chromium, on a phone and a desktop: offered while the reader
is up in the history, it sits below the list's visible part instead of over it, so the newest
entry's sender and time stay readable as the reader scrolls down to it."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

# The button's box, the list's visible box (its border box less its borders: its scrollport),
# and the newest entry's head, in the window's coordinates.
BOXES = """() => {
  const box = (r) => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  const scroller = document.querySelector('.room__timeline');
  const s = scroller.getBoundingClientRect();
  const view = {top: s.top + scroller.clientTop, left: s.left, right: s.right,
                bottom: s.top + scroller.clientTop + scroller.clientHeight};
  const head = document.querySelector('#timeline li[data-sequence]:last-child .entry__head');
  return {jump: box(document.getElementById('timeline-jump').getBoundingClientRect()),
          view, head: box(head.getBoundingClientRect())};
}"""

# Scrolls the list until the newest entry's head is just inside the bottom of its visible box.
HEAD_AT_BOTTOM = """() => {
  const scroller = document.querySelector('.room__timeline');
  const head = document.querySelector('#timeline li[data-sequence]:last-child .entry__head');
  const bottom = scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight;
  scroller.scrollBy({top: head.getBoundingClientRect().bottom - (bottom - 4), behavior: 'instant'});
}"""


def _overlap(a, b) -> bool:
    return (
        a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
        and (a["left"] < b["right"] and b["left"] < a["right"])
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_new_messages_covers_no_entry_of_the_list(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, _pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    for n in range(1, 31):
        room_message_post(
            membership=gm_m, body=f"Line {n}\nand more", mode="chat", client_message_id=f"p{n}"
        )
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        scroller = player.locator(".room__timeline")
        jump = player.locator("#timeline-jump")
        for n, width in enumerate((390, 1280), start=1):
            player.set_viewport_size({"width": width, "height": 844})
            # A little way up: the entry that arrives next comes in at the bottom.
            scroller.evaluate("el => el.scrollTo({top: el.scrollHeight, behavior: 'instant'})")
            scroller.evaluate("el => el.scrollBy({top: -200, behavior: 'instant'})")
            expect(jump).to_be_hidden()
            _say(gm, f"Something new, {n}.\nA second line.\nAnd a third.")
            expect(player.locator("#timeline li[data-sequence]").last).to_contain_text(
                f"Something new, {n}."
            )
            expect(jump).to_be_visible()
            player.evaluate(HEAD_AT_BOTTOM)
            expect(jump).to_be_visible()  # still up in the history
            boxes = player.evaluate(BOXES)
            # Over no part of the list, and the newest entry's head is in view, uncovered.
            assert not _overlap(boxes["jump"], boxes["view"]), (width, boxes)
            assert boxes["view"]["top"] <= boxes["head"]["top"], (width, boxes)
            assert boxes["head"]["bottom"] <= boxes["view"]["bottom"], (width, boxes)
            # Nor does it cover what follows the list (the message box).
            composer = player.locator("#composer").bounding_box()
            assert boxes["jump"]["bottom"] <= composer["y"], (width, boxes, composer)
            jump.click()
            expect(jump).to_be_hidden()
