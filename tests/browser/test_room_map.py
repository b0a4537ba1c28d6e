"""The battle map in the room's side column, in Chromium: its coordinates and the creatures'
labels are read at the size the room shows the image, on a laptop and on a phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat, wait_until_true
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

# The map's own SVG, drawn inline at the size the <img> shows it: each text's size on screen is
# its font size times the scale from its user space to the screen.
SHOWN_TEXT_SIZES = """async () => {
  const img = document.getElementById("turn-grid");
  const source = await (await fetch(img.src)).text();
  const holder = document.createElement("div");
  holder.style.cssText = "position:absolute;left:0;top:0;width:" + img.clientWidth + "px";
  holder.innerHTML = source;
  document.body.append(holder);
  const svg = holder.querySelector("svg");
  svg.style.width = img.clientWidth + "px";
  svg.style.height = "auto";
  const size = (text) => Number(text.getAttribute("font-size")) * text.getScreenCTM().a;
  const texts = [...svg.querySelectorAll("text")];
  const result = {
    coordinates: texts.filter((t) => !t.closest("g[opacity]")).map(size),
    creatures: texts.filter((t) => t.closest("g[opacity]")).map(size),
  };
  holder.remove();
  return result;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_battle_maps_coordinates_and_creature_labels_are_legible_on_laptop_and_phone(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Map Keep") as (_, _gm, ilsa):
        for width in (1280, 390):
            ilsa.set_viewport_size({"width": width, "height": 900})
            expect(ilsa.locator("#turn-grid")).to_be_visible()
            wait_until_true(ilsa, "document.getElementById('turn-grid').complete")
            sizes = ilsa.evaluate(SHOWN_TEXT_SIZES)
            # A 12-column grid: every column and row is numbered, every creature labelled.
            assert len(sizes["coordinates"]) == 12 + 6
            assert len(sizes["creatures"]) == 2
            assert min(sizes["coordinates"]) >= 10, (width, sizes)
            assert min(sizes["creatures"]) >= 10, (width, sizes)
