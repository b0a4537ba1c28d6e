"""The initiative list across a live refresh, in Chromium against uvicorn: the rows of the
combatants still fighting are the same elements, updated where they changed (the current
marker moves), so a screen reader keeps its place in the list and the list does not flicker."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _combat, _settle
from tests.turns.rooms_support import eager  # noqa: F401

# Marks every row and its name's text node, as a reader's cursor holds on to them.
MARK = """() => document.querySelectorAll('#turn-order li').forEach((row) => {
  row.kept = row.dataset.id;
  row.querySelector('.turn-combatant__name').firstChild.kept = row.dataset.id;
})"""
# For each row now: [its id, the row is the marked one, its name's text node is the marked one].
KEPT = """() => [...document.querySelectorAll('#turn-order li')].map((row) => [
  row.dataset.id, row.kept === row.dataset.id,
  row.querySelector('.turn-combatant__name').firstChild.kept === row.dataset.id])"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rows_of_the_initiative_list_are_kept_when_the_turn_passes(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Kept Rows") as (
        campaign,
        gm,
        ilsa,
    ):
        combat = _combat(campaign, campaign.owner)
        order = [e["id"] for e in combat["order"]]
        first, second = combat["current"], next(i for i in order if i != combat["current"])
        for page in (gm, ilsa):
            expect(page.locator("#turn-order li[aria-current=step]")).to_have_attribute(
                "data-id", first
            )
            page.evaluate(MARK)

        # Whoever has the go ends it: the panels are read again and the marker moves.
        goblin_first = combat["order"][order.index(first)]["character"]["kind"] == "monster"
        _say(gm if goblin_first else ilsa, "end turn", mode="action")
        _settle(campaign, 2)
        for page in (gm, ilsa):
            expect(page.locator("#turn-order li[aria-current=step]")).to_have_attribute(
                "data-id", second
            )
            assert page.evaluate(KEPT) == [[i, True, True] for i in order]
