"""One-click options in Chromium name the turn they are for: a page opened while that turn
lasts offers them (to whom they were offered alone), even after others played on, and options
for a turn that has passed, arriving late, are not shown."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

CURRENT = "#turn-order li.is-current .turn-combatant__name"
GOBLIN_OPTIONS = ["goblin attacks Ilsa", "end turn"]


def _until_the_goblins_turn(campaign, gm, ilsa) -> int:
    """Once combat started: Ilsa ends her turn if she won the initiative, until the goblin is
    up. Returns how many turn jobs the campaign has run."""
    from playwright.sync_api import expect

    jobs = 1
    expect(gm.locator(CURRENT)).to_have_count(1)
    if gm.locator(CURRENT).inner_text() == "Ilsa":
        _say(ilsa, "end turn", mode="action")
        jobs += 1
        _settle(campaign, jobs)
    expect(gm.locator(CURRENT)).to_have_text("Goblin")
    return jobs


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gm_opening_the_room_after_a_players_roll_is_offered_the_monsters_options(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Late Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_the_goblins_turn(campaign, gm, ilsa)
        expect(gm.locator("#composer-suggestions button")).to_have_text(GOBLIN_OPTIONS)

        # Ilsa rolls on the goblin's turn: the game moved on after the options were offered.
        _say(ilsa, "roll 1d20", mode="action")
        _settle(campaign, jobs + 1)
        expect(gm.locator("#turn-dice li .turn-roll__title").first).to_contain_text("Ilsa")

        # The GM opens the room in another tab: still the goblin's turn, still its options.
        room = f"{asgi_server}/campaigns/{campaign.id}/room/"
        second = gm.context.new_page()
        _open(second, room)
        expect(second.locator(CURRENT)).to_have_text("Goblin")
        expect(second.locator("#composer-suggestions button")).to_have_text(GOBLIN_OPTIONS)

        # Ilsa's new tab offers her nothing: the monster's options are the GM's.
        hers = ilsa.context.new_page()
        _open(hers, room)
        expect(hers.locator(CURRENT)).to_have_text("Goblin")
        hers.wait_for_timeout(500)  # the panels' read after catching up
        expect(hers.locator("#composer-suggestions")).to_be_hidden()
        expect(hers.locator("#composer-suggestions button")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_options_for_a_turn_that_has_passed_arriving_late_are_not_shown(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.selectors import serialize_entry

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Stale Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_the_goblins_turn(campaign, gm, ilsa)
        # The GM's page, with its socket in the test's hands: it passes every frame on, and
        # can deliver one again, late.
        sockets = []

        def through(ws):
            ws.connect_to_server()
            sockets.append(ws)

        page = gm.context.new_page()
        page.route_web_socket("**/ws/rooms/**", through)
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        box = page.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)
        (offered,) = [
            m
            for m in Message.objects.filter(event_type="turn.suggestions").order_by("sequence")
            if m.data["suggestions"] == GOBLIN_OPTIONS
        ]

        # The GM ends the goblin's turn: Ilsa's comes, with what is offered for it.
        _say(page, "end turn", mode="action")
        _settle(campaign, jobs + 1)
        expect(page.locator(CURRENT)).to_have_text("Ilsa")
        expect(box.locator("button")).to_have_text(["describe", "end Ilsa's turn"])

        # The goblin's options arrive once more, after its turn: they are not shown.
        sockets[-1].send(json.dumps({"type": "entry", "entry": serialize_entry(offered)}))
        page.wait_for_timeout(500)
        expect(box.locator("button")).to_have_text(["describe", "end Ilsa's turn"])


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_opening_the_room_after_the_gms_roll_on_her_turn_is_offered_its_options(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_options_handover import OPTIONS, _until_ilsas_turn

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Tab Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        expect(ilsa.locator("#composer-suggestions button")).to_have_text(OPTIONS)

        # The GM rolls on Ilsa's turn: the game moved on after her options were offered.
        _say(gm, "roll 1d20", mode="action")
        _settle(campaign, jobs + 1)
        expect(ilsa.locator("#turn-dice li .turn-roll__title").first).to_contain_text("Gail GM")

        # Ilsa opens the room in another tab: still her turn, still her options.
        room = f"{asgi_server}/campaigns/{campaign.id}/room/"
        hers = ilsa.context.new_page()
        _open(hers, room)
        expect(hers.locator(CURRENT)).to_have_text("Ilsa")
        expect(hers.locator("#composer-suggestions button")).to_have_text(OPTIONS)

        # The GM's new tab is not offered hers: it shows what the GM's page shows (what the GM
        # was offered for her turn on ending the goblin's, if they did: their roll since
        # brought nothing new).
        gm.wait_for_timeout(500)  # the panels' read of the roll's end
        theirs = gm.locator("#composer-suggestions button").all_inner_texts()
        assert theirs != OPTIONS
        second = gm.context.new_page()
        _open(second, room)
        expect(second.locator(CURRENT)).to_have_text("Ilsa")
        second.wait_for_timeout(500)  # the panels' read after catching up
        if theirs:
            expect(second.locator("#composer-suggestions button")).to_have_text(theirs)
        else:
            expect(second.locator("#composer-suggestions")).to_be_hidden()
            expect(second.locator("#composer-suggestions button")).to_have_count(0)
