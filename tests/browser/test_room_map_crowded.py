"""The battle map in the room's side column, in Chromium, when a fight has many combatants: the
grid grows taller, and its labels must still be read at the size the room shows the image."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat, wait_until_true
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

# Twelve monsters (the most one action spawns) and eight fighters: twenty combatants, a row each.
MONSTERS = "6 goblins, 3 zombies, 3 giant rats"
FIGHTERS = ("Ilsa", "Bram", "Cora", "Dag", "Edda", "Finn", "Gunn", "Hild")

# The map's own SVG, drawn inline at the width the picture is drawn in the <img> (contained in
# its box, it may be narrower than the box): each text's size on screen is its font size times
# the scale from its user space to the screen. With where the image ends against its column and
# the page: nothing may stick out sideways.
SHOWN = """async () => {
  const img = document.getElementById("turn-grid");
  const column = document.getElementById("turn-combat");
  const source = await (await fetch(img.src)).text();
  const holder = document.createElement("div");
  holder.innerHTML = source;
  const svg = holder.querySelector("svg");
  const [, , w, h] = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  const drawn = Math.min(img.clientWidth, img.clientHeight * w / h);
  holder.style.cssText = "position:absolute;left:0;top:0;width:" + drawn + "px";
  document.body.append(holder);
  svg.style.width = drawn + "px";
  svg.style.height = "auto";
  const size = (text) => Number(text.getAttribute("font-size")) * text.getScreenCTM().a;
  const texts = [...svg.querySelectorAll("text")];
  const result = {
    boxWidth: img.clientWidth,
    drawnWidth: drawn,
    coordinates: Math.min(...texts.filter((t) => !t.closest("g[opacity]")).map(size)),
    creatures: texts.filter((t) => t.closest("g[opacity]")).map(size),
    rightOverColumn: img.getBoundingClientRect().right - column.getBoundingClientRect().right,
    pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
  };
  holder.remove();
  return result;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_crowded_battle_maps_labels_stay_legible_on_laptop_and_phone(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(
        browser, asgi_server, make_user, name="Crowded Keep", fighters=FIGHTERS, monsters=MONSTERS
    ) as (_, _gm, ilsa):
        expect(ilsa.locator("#turn-order > li")).to_have_count(20)
        for width in (1280, 390):
            ilsa.set_viewport_size({"width": width, "height": 900})
            expect(ilsa.locator("#turn-grid")).to_be_visible()
            wait_until_true(ilsa, "document.getElementById('turn-grid').complete")
            shown = ilsa.evaluate(SHOWN)
            assert len(shown["creatures"]) == 20
            # The picture takes its column's whole width, however many rows it has.
            assert shown["drawnWidth"] == shown["boxWidth"], (width, shown)
            assert shown["coordinates"] >= 10, (width, shown)
            assert min(shown["creatures"]) >= 10, (width, shown)
            assert shown["rightOverColumn"] <= 0.5, (width, shown)
            assert shown["pageScrollsSideways"] is False, (width, shown)
