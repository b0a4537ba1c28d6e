"""What changes the rolls in a fight, in the initiative list in Chromium: a combatant's Dodge,
Hide, Dash, Disengage and the Help actions it holds, in words, live for everyone the domain
tells, and on a phone."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import fighters_table, in_the_room
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_options_handover import CURRENT, _until_ilsas_turn
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

PHONE = {"width": 390, "height": 844}
STATES = ".turn-combatant__states .turn-state"
# Whether any initiative row is wider than the list it sits in (its text cut off on a phone).
ROWS_OVERFLOW = """() => {
  const list = document.getElementById("turn-order").getBoundingClientRect();
  return [...document.querySelectorAll("#turn-order li")].some((row) => {
    const box = row.getBoundingClientRect();
    return box.right > list.right + 0.5 || row.scrollWidth > row.clientWidth;
  }) || document.documentElement.scrollWidth > window.innerWidth;
}"""


def _row(page, character_id: str):
    return page.locator(f'#turn-order li[data-id="{character_id}"]')


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_dodge_shows_as_dodging_to_everyone_until_their_next_turn(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.campaigns.conftest import join

    campaign, users, mine = fighters_table(make_user, name="Dodge Keep", fighters=("Ilsa",))
    (ilsa_id,) = mine
    join(
        campaign, users["gm@example.test"],
        make_user("olga@example.test", display_name="Olga Observer"), role="observer",
    )  # fmt: skip
    emails = ("gm@example.test", "ilsa@example.test", "olga@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, ilsa, olga):
        olga.set_viewport_size(PHONE)
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        for page in (gm, ilsa, olga):
            expect(_row(page, ilsa_id)).to_contain_text("Ilsa")
            expect(page.locator(f"#turn-order {STATES}")).to_have_count(0)

        _say(ilsa, "I dodge", mode="action")
        jobs += 1
        _settle(campaign, jobs)
        for page in (gm, ilsa, olga):
            expect(_row(page, ilsa_id).locator(STATES)).to_have_text(["Dodging"])
            expect(_row(page, ilsa_id).locator(STATES)).to_have_attribute("data-state", "dodging")
            # Only hers: the goblin did nothing.
            expect(page.locator('#turn-order li[data-kind="monster"] .turn-state')).to_have_count(0)
        assert olga.evaluate(ROWS_OVERFLOW) is False

        # The Dodge lasts through the goblin's turn...
        _say(ilsa, "end turn", mode="action")
        jobs += 1
        _settle(campaign, jobs)
        for page in (gm, ilsa, olga):
            expect(page.locator(CURRENT)).to_have_text("Goblin")
            expect(_row(page, ilsa_id).locator(STATES)).to_have_text(["Dodging"])

        # ...and ends as her next one starts.
        _say(gm, "end turn", mode="action")
        jobs += 1
        _settle(campaign, jobs)
        for page in (gm, ilsa, olga):
            expect(page.locator(CURRENT)).to_have_text("Ilsa")
            expect(page.locator(f"#turn-order {STATES}")).to_have_count(0)


def _with_states(ilsa_id: str, goblin: dict):
    """A panel route handler: the combat as the server reads it, with Ilsa's turn, her
    Dash and Disengage, the goblin hidden (or not, as `goblin["hidden"]` says) and Ilsa holding two
    Helps."""
    from playwright.sync_api import Error

    def handle(route):
        try:
            response = route.fetch()
            panel = json.loads(response.text())
            combat = panel["panels"]["combat"]["data"]["combat"]
            combat["current"] = ilsa_id
            for entry in combat["order"]:
                if entry["id"] == ilsa_id:
                    entry["budget"] = {**entry["budget"], "dashed": 1, "disengaged": 1}
                    entry["helped_by"] = [
                        {"helper_id": "pc-9", "helper_name": "Bram", "target_id": goblin["id"],
                         "target_name": "Goblin"},
                        {"helper_id": "pc-8", "helper_name": "Cora", "target_id": None,
                         "target_name": None},
                    ]  # fmt: skip
                else:
                    goblin["id"] = entry["id"]
                    # A Dash or Disengage is over once its turn is: the goblin's, kept in
                    # its budget until its next turn, is not shown.
                    entry["budget"] = {**entry["budget"], "dashed": 1, "disengaged": 1}
                    entry.pop("hidden", None)
                    if goblin["hidden"]:
                        entry["hidden"] = True
            route.fulfill(response=response, json=panel)
        except Error:
            pass  # a read the page's own navigation cut short

    return handle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_hidden_disengaged_and_helps_show_in_words_as_the_combat_view_gives_them(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, mine = fighters_table(make_user, name="Help Keep", fighters=("Ilsa",))
    (ilsa_id,) = mine
    with in_the_room(browser, asgi_server, campaign, "gm@example.test", "ilsa@example.test") as (
        gm,
        ilsa,
    ):
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        goblin = {"id": "", "hidden": True}
        ilsa.route("**/room/panel*", _with_states(ilsa_id, goblin))
        ilsa.set_viewport_size(PHONE)
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(_row(ilsa, ilsa_id).locator(STATES)).to_have_text(
            ["Dashed", "Disengaged", "Helped by Bram (vs Goblin)", "Helped by Cora (next check)"]
        )
        # A screen reader hears each one apart, not run together.
        expect(_row(ilsa, ilsa_id).locator(".turn-combatant__states")).to_have_text(
            "Dashed Disengaged Helped by Bram (vs Goblin) Helped by Cora (next check)"
        )
        goblin_row = ilsa.locator('#turn-order li[data-kind="monster"]')
        expect(goblin_row.locator(STATES)).to_have_text(["Hidden"])
        assert ilsa.evaluate(ROWS_OVERFLOW) is False

        # A view that does not say it is hidden shows nothing of the kind.
        goblin["hidden"] = False
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(_row(ilsa, ilsa_id).locator(STATES)).to_have_count(4)
        expect(goblin_row.locator(STATES)).to_have_count(0)
        expect(goblin_row).not_to_contain_text("Hidden")
