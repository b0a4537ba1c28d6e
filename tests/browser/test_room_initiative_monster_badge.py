"""The initiative list in Chromium: where a monster's "monster" badge sits in its row."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

# For each monster row: is its badge on a line of its own under the whole name?
BADGE_UNDER_NAME = """() => {
  const rows = document.querySelectorAll('#turn-order li[data-kind="monster"]');
  return [...rows].map((row) => {
  const name = row.querySelector(".turn-combatant__name").getBoundingClientRect();
  const badge = row.querySelector(".turn-kind").getBoundingClientRect();
  return [row.querySelector(".turn-combatant__name").textContent, badge.top >= name.bottom];
  });
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_monster_badge_sits_under_the_name_in_every_monster_row_on_laptop_and_phone(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(
        browser, asgi_server, make_user, name="Crypt Keep", monsters="goblin, zombie, giant rat"
    ) as (_campaign, gm, ilsa):
        for page in (gm, ilsa):
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 900})
                expect(page.locator('#turn-order li[data-kind="monster"]')).to_have_count(3)
                rows = sorted(page.evaluate(BADGE_UNDER_NAME))
                assert rows == [["Giant Rat", True], ["Goblin", True], ["Zombie", True]], width
