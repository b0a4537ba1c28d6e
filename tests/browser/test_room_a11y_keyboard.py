"""The room page by keyboard alone, in a real browser against uvicorn: a button that goes away
when it has done its work hands its focus on to where the reader is taken, never back to the
top of the page; nor does a one-click option taken away with its turn, nor a recipient box
drawn anew."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import (
    gm_and_ilsa_in_combat,
    gm_and_ilsa_in_the_room,
    in_the_room,
    table_for,
)
from tests.browser.test_room_history import _open, _steady
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_options_on_opening import (
    CURRENT,
    GOBLIN_OPTIONS,
    _until_the_goblins_turn,
)
from tests.browser.test_room_turns import _settle
from tests.rooms.factories import make_campaign
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_new_messages_is_named_by_its_words_and_by_keyboard_leaves_the_focus_in_the_list(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, _pat_m) = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    for n in range(1, 41):
        room_message_post(
            membership=gm_m, body=f"Line {n}\nand more", mode="chat", client_message_id=f"j{n}"
        )
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, player):
        # Up in the history, a new message arrives: "New messages" is offered.
        player.locator(".room__timeline").evaluate("el => el.scrollTo({top: 0})")
        # At rest there, the page's scroll handling has seen the reader leave the newest entry.
        assert _steady(player, "() => document.querySelector('.room__timeline').scrollTop") == 0
        _say(gm, "Something new at the table.")
        jump = player.locator("#timeline-jump")
        expect(jump).to_be_visible()
        # Named by its words: the arrow drawn after them is not read out as "down arrow".
        expect(player.get_by_role("button", name="New messages", exact=True)).to_be_visible()
        jump.focus()
        player.keyboard.press("Enter")
        expect(jump).to_be_hidden()
        # The button went with the focus it had: the list it took the reader down has it.
        expect(player.locator("#timeline")).to_be_focused()
        player.keyboard.press("Tab")
        expect(player.locator("input[name=mode][value=chat]")).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_option_with_the_focus_that_goes_with_its_turn_leaves_the_focus_in_the_message_box(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Focus Keep") as (
        campaign,
        gm,
        _ilsa,
    ):
        jobs = _until_the_goblins_turn(campaign, gm, _ilsa)
        options = gm.locator("#composer-suggestions button")
        expect(options).to_have_text(GOBLIN_OPTIONS)
        options.first.focus()
        # The GM ends the goblin's turn from another tab: its options go from this page.
        second = gm.context.new_page()
        _open(second, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(second, "end turn", mode="action")
        _settle(campaign, jobs + 1)
        expect(gm.locator(CURRENT)).to_have_text("Ilsa")
        expect(options.filter(has_text="goblin attacks Ilsa")).to_have_count(0)
        # The focus the option had is where the next action is written, not the page's top.
        expect(gm.locator("#composer-body")).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_recipient_box_with_the_focus_keeps_it_when_the_member_list_is_read_again(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        held = []
        gm.route("**/members*", lambda route: held.append(route))
        # Private by keyboard: the boxes shown are those the page was loaded with, while the
        # members are read again; the GM tabs on to the first.
        gm.locator("input[name=audience][value=public]").focus()
        gm.keyboard.press("ArrowRight")
        gm.keyboard.press("ArrowRight")
        expect(gm.locator("input[name=audience][value=private]")).to_be_checked()
        box = gm.locator(f"#recipients input[value='{pat.id}']")
        expect(box).to_be_visible()
        gm.keyboard.press("Tab")
        expect(box).to_be_focused()
        gm.keyboard.press("Space")
        expect(box).to_be_checked()
        for _ in range(50):  # the read was asked for as the box showed
            if held:
                break
            gm.wait_for_timeout(100)
        held[0].continue_()
        # The list read again draws the boxes anew: the one the GM is on keeps the focus (and
        # its tick), so Space or Tab carries on from there, not from the top of the page.
        gm.wait_for_timeout(500)
        expect(box).to_be_checked()
        expect(box).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_create_a_character_with_the_focus_closed_by_a_fight_leaves_the_focus_in_the_message_box(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Late Keep",
        players=[("ilsa@example.test", "Ilsa Player"), ("nia@example.test", "Nia Player")],
    )  # fmt: skip
    character_create_for(
        campaign=campaign, user=users["nia@example.test"],
        form_data={"name": "Nia", "template": "fighter", "level": 1},
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        create = ilsa.locator("[data-create-character]")
        expect(create).to_be_visible()
        create.focus()
        # The GM starts a fight: no character can be made during it, so the link goes.
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        expect(create).to_be_hidden()
        expect(ilsa.locator("#composer-body")).to_be_focused()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cancel_with_the_focus_keeps_it_when_its_row_learns_the_players_name(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_feedback import _job
    from tests.campaigns.conftest import join

    campaign, users = table_for(make_user, system_id="dnd5e", name="Named Late")
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        # A player who joined after the GM's page was loaded asks for a turn: its row is drawn
        # before the page has looked up their name.
        nia = make_user("nia@example.test", display_name="Nia Player")
        join(campaign, users["gm@example.test"], nia)
        held = []
        gm.route("**/members*", lambda route: held.append(route))
        queued = {**_job("job-l", "queued"), "requester_id": str(nia.id)}
        gm.evaluate(
            'job => document.dispatchEvent(new CustomEvent("room:job", {detail: job}))',
            {**queued, "updated_at": "2999-01-01T00:00:00Z"},
        )
        cancel = gm.locator('#turn-jobs li[data-job="job-l"] button')
        expect(cancel).to_have_accessible_name("Cancel this turn: I pick the lock (Queued)")
        cancel.focus()
        for _ in range(50):  # the lookup was asked for as the row was drawn
            if held:
                break
            gm.wait_for_timeout(100)
        held[0].continue_()
        # Drawn again with the name: the focus stays on its Cancel, not the page's top.
        expect(cancel).to_have_accessible_name(
            "Cancel the turn of Nia Player: I pick the lock (Queued)"
        )
        expect(cancel).to_be_focused()
