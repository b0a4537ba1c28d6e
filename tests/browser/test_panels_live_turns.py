"""The room's turn panels in Chromium with real turns (a live dnd5e server, the turn worker in
Celery's eager mode): what a player sees in the side panels after the connection comes back, and
other things a table notices while playing."""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    fighters_table,
    gm_and_ilsa_in_combat,
    gm_and_ilsa_in_the_room,
    in_the_room,
)
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


def _shows_the_combat(page) -> None:
    """The page's panels show the fight with a goblin: its initiative list (the fighter and the
    goblin) and the Combat phase."""
    from playwright.sync_api import expect

    expect(page.locator("#turn-combat")).to_be_visible()
    expect(page.locator("#turn-order > li")).to_have_count(2)
    expect(page.locator("#phase-panel .badge--phase")).to_have_text("Combat")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_panels_show_a_combat_started_while_the_player_was_offline_once_reconnected(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Offline Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        expect(ilsa.locator("#phase-panel .badge--phase")).to_have_text("Lobby")
        ilsa.context.set_offline(True)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "reconnecting")

        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        expect(gm.locator("#turn-order > li")).to_have_count(2)

        ilsa.context.set_offline(False)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        # The timeline caught up with the combat's start; the panels beside it follow it.
        _shows_the_combat(ilsa)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_card_still_loading_does_not_say_no_character_is_bound(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_history import VIEWPORT, _open
    from tests.browser.test_room_live import _sign_in

    campaign, _users, _mine = fighters_table(make_user, name="Slow Keep", fighters=["Ilsa"])
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        emails = ("gm@example.test", "ilsa@example.test")
        pages = [_sign_in(c, asgi_server, e) for c, e in zip(contexts, emails, strict=True)]
        held = []  # the panel reads, answered only once released
        released = []

        def hold(route):
            if released:
                route.continue_()
            else:
                held.append(route)

        for page in pages:
            page.route("**/room/panel*", hold)
            _open(page, room_url)
        gm, ilsa = pages
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        assert len(held) == 2
        # Not known yet: neither "no character" nor the way to make one.
        for page in pages:
            card = page.locator("#turn-character")
            expect(card.locator("[data-empty]")).to_be_hidden()
            expect(card.locator("[data-create-character]")).to_have_count(0 if page is gm else 1)
            expect(card.locator("[data-create]")).to_have_count(0 if page is gm else 1)
            expect(card.locator("[data-loading]")).to_have_text("Loading…")
        expect(ilsa.locator("#turn-character [data-create]")).to_be_hidden()

        released.append(True)
        for route in held:
            route.continue_()
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        expect(gm.locator("#turn-character [data-gm]")).to_be_visible()
        for page in pages:
            expect(page.locator("#turn-character [data-loading]")).to_be_hidden()
            expect(page.locator("#turn-character [data-empty]")).to_be_hidden()
        expect(ilsa.locator("#turn-character [data-create]")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_story_sections_still_loading_do_not_say_they_are_empty(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.conftest import in_the_room, table_for
    from tests.browser.test_room_history import VIEWPORT, _open
    from tests.browser.test_room_live import _sign_in

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Slow Harbour",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        _say(gm, "set phase play", mode="action")
        _say(gm, "open scene The Drowned Lantern", mode="action")
        _settle(campaign, 2)
        expect(gm.locator('#turn-scene [data-field="title"]')).to_have_text("The Drowned Lantern")

    context = browser.new_context(viewport=VIEWPORT)
    try:
        nia = _sign_in(context, asgi_server, "nia@example.test")
        held = []  # the panel reads, answered only once released
        released = []

        def hold(route):
            if released:
                route.continue_()
            else:
                held.append(route)

        nia.route("**/room/panel*", hold)
        _open(nia, f"{asgi_server}/campaigns/{campaign.id}/room/")
        assert len(held) == 1
        # Not read yet: no section claims to be empty (there is a scene).
        for section in ("#turn-scene", "#turn-clocks", "#turn-facts", "#turn-threads"):
            expect(nia.locator(f"{section} [data-empty]")).to_be_hidden()

        released.append(True)
        held[0].continue_()
        expect(nia.locator('#turn-scene [data-field="title"]')).to_have_text("The Drowned Lantern")
        expect(nia.locator("#turn-scene [data-empty]")).to_be_hidden()
        for section in ("#turn-clocks", "#turn-facts", "#turn-threads"):
            expect(nia.locator(f"{section} [data-empty]")).to_be_visible()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_jobs_list_still_loading_does_not_say_nothing_is_in_progress(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    turns_stay_queued,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_history import VIEWPORT, _open
    from tests.browser.test_room_live import _sign_in

    campaign, _users, _mine = fighters_table(make_user, name="Queued Keep", fighters=["Ilsa"])
    context = browser.new_context(viewport=VIEWPORT)
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
        _open(ilsa, room_url)
        _say(ilsa, "roll 1d20 for luck", mode="action")
        expect(ilsa.locator("#turn-jobs li")).to_have_count(1)

        held = []  # the panel reads, answered only once released
        released = []

        def hold(route):
            if released:
                route.continue_()
            else:
                held.append(route)

        ilsa.route("**/room/panel*", hold)
        _open(ilsa, room_url)
        assert held
        # Not read yet: the turn still queued is not denied.
        expect(ilsa.locator("#turn-jobs-empty")).to_be_hidden()

        released.append(True)
        for route in held:
            route.continue_()
        expect(ilsa.locator("#turn-jobs li .turn-job__action")).to_have_text(
            "You: roll 1d20 for luck"
        )
        expect(ilsa.locator("#turn-jobs-empty")).to_be_hidden()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_coming_back_to_the_room_with_the_back_button_shows_the_panels_as_they_are_now(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Back Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        ilsa.goto(f"{asgi_server}/campaigns/{campaign.id}/")
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        expect(gm.locator("#turn-order > li")).to_have_count(2)

        # The browser may show the page it kept; the panels ask for the state as it is now.
        ilsa.go_back()
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        _shows_the_combat(ilsa)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_gms_card_outside_combat_says_the_initiative_list_comes_with_a_fight(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Quiet Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, _ilsa):
        # No fight, so no initiative list on the page: the card does not send the GM to it.
        expect(gm.locator("#turn-combat")).to_be_hidden()
        expect(gm.locator("#turn-character [data-gm]")).to_have_text(
            "You run the table: in a fight, the initiative list shows monsters and everyone’s"
            " exact hit points."
        )


# For each word of an initiative-list name: on how many lines it is drawn.
WORD_LINES = """selector => {
  // Looked up here: a refresh redraws the list, detaching a row found beforehand.
  const text = document.querySelector(selector).firstChild;
  const out = {};
  let at = 0;
  for (const word of text.textContent.split(" ")) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    out[word] = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    at += word.length + 1;
  }
  return out;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_temporary_hit_points_in_the_initiative_list_leave_the_names_words_whole(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(
        browser, asgi_server, make_user, name="Temp Keep", fighters=["Briar Quickstep"]
    ) as (campaign, gm, ilsa):
        _say(ilsa, "give me 8 temp hp", mode="action")
        _settle(campaign, 2)
        for page in (gm, ilsa):
            row = page.locator('#turn-order li[data-kind="pc"]')
            expect(row.locator("[data-hp]")).to_contain_text("+8 temp")
            # The side column is narrow: the temporary hit points do not take the name's room.
            name = '#turn-order li[data-kind="pc"] .turn-combatant__name'
            assert page.evaluate(WORD_LINES, name) == {"Briar": 1, "Quickstep": 1}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_battle_map_link_says_it_opens_in_a_new_tab(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Map Keep") as (_, gm, ilsa):
        for page in (gm, ilsa):
            expect(page.locator("#turn-grid")).to_be_visible()
            # A screen reader hears where the link goes before it is followed, not just the title.
            expect(page.locator("#turn-grid-link")).to_have_attribute("target", "_blank")
            expect(page.locator("#turn-grid-link")).to_have_accessible_name(
                "Battle map: the combat grid with every combatant’s position (opens in a new tab)"
            )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_battle_map_keeps_its_shape_before_its_image_arrives(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    """The map's place is set from the grid's size, so the panel does not jump as it loads."""
    from playwright.sync_api import expect

    from apps.turns.models import ProjectionSnapshot

    campaign, _users, _mine = fighters_table(make_user, name="Map Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        # The image never arrives: its place is still the grid's shape.
        ilsa.route("**/room/artifacts/**", lambda route: route.abort())
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        expect(ilsa.locator("#turn-map")).to_be_visible()
        rows = ProjectionSnapshot.objects.filter(campaign=campaign, scope="grid")
        grid = rows.order_by("-authority_revision").first().data["grid"]
        box = ilsa.locator("#turn-grid").bounding_box()
        assert round(box["height"] / box["width"], 2) == round(grid["height"] / grid["width"], 2)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dice_list_says_no_rolls_only_once_the_room_has_caught_up(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_history import VIEWPORT
    from tests.browser.test_room_live import _sign_in

    campaign, _users, _mine = fighters_table(make_user, name="Dice Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, _ilsa):
        # Caught up with a room without rolls: it says so.
        expect(gm.locator("#turn-dice-empty")).to_have_text("No rolls yet.")
        expect(gm.locator("#turn-dice-empty")).to_be_visible()

    context = browser.new_context(viewport=VIEWPORT)
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        # The room's socket never reaches the server: the rolls it would replay are not known.
        ilsa.route_web_socket("**/ws/rooms/**", lambda ws: None)
        ilsa.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        expect(ilsa.locator("#room")).not_to_have_attribute("data-state", "live")
        expect(ilsa.locator("#turn-dice-empty")).to_be_hidden()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_panels_show_a_combat_started_before_the_rooms_first_connection_was_made(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_history import VIEWPORT
    from tests.browser.test_room_live import _sign_in

    campaign, _users, _mine = fighters_table(make_user, name="Late Keep", fighters=["Ilsa"])
    context = browser.new_context(viewport=VIEWPORT)
    try:
        with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
            ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
            let_through = []

            # The room's socket is refused until let through: the panels were read before it
            # joined the room, so whatever changed meanwhile reached no one on this page.
            def gate(ws):
                if let_through:
                    ws.connect_to_server()
                else:
                    ws.close()

            ilsa.route_web_socket("**/ws/rooms/**", gate)
            ilsa.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
            expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
            expect(ilsa.locator("#phase-panel .badge--phase")).to_have_text("Lobby")

            _say(gm, "start combat with a goblin", mode="action")
            _settle(campaign, 1)
            expect(gm.locator("#turn-order > li")).to_have_count(2)

            let_through.append(True)
            expect(ilsa.locator("#room")).to_have_attribute("data-state", "live", timeout=20_000)
            _shows_the_combat(ilsa)
    finally:
        context.close()
