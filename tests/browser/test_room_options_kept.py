"""One-click options in Chromium last as long as their turn, whatever the viewer sends: a chat
message leaves them; an action hides them while it runs and they are there again once it
ends on the same turn, on a reload too; an action refused before it runs (no turn, no new
offer) gives them back at once."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_options_on_opening import (
    CURRENT,
    GOBLIN_OPTIONS,
    _until_the_goblins_turn,
)
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_chat_message_leaves_the_turns_options(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Chat Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        _until_the_goblins_turn(campaign, gm, ilsa)
        box = gm.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)
        _say(gm, "The goblin snarls.")
        expect(gm.locator("#timeline li[data-sequence] .entry__body").last).to_have_text(
            "The goblin snarls."
        )
        gm.wait_for_timeout(300)
        expect(box).to_be_visible()
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_action_that_keeps_the_turn_keeps_its_options_on_a_reload_too(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Roll Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_the_goblins_turn(campaign, gm, ilsa)
        box = gm.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)

        # The GM rolls on the goblin's turn: the turn stays, and so do its options.
        _say(gm, "roll 1d20", mode="action")
        _settle(campaign, jobs + 1)
        expect(gm.locator("#turn-dice li .turn-roll__title").first).to_contain_text("Gail GM")
        expect(gm.locator(CURRENT)).to_have_text("Goblin")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)

        # Opened again, the page shows the same.
        gm.reload()
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(gm.locator(CURRENT)).to_have_text("Goblin")
        expect(gm.locator("#composer-suggestions button")).to_have_text(GOBLIN_OPTIONS)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_action_refused_before_it_runs_gives_the_options_back(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_feedback import QUOTA_ERROR

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Refused Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        _until_the_goblins_turn(campaign, gm, ilsa)
        box = gm.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)
        # Out of credits: no turn starts, so no panel read will come to show them again.
        gm.route(
            "**/room/actions",
            lambda route: route.fulfill(status=402, json=QUOTA_ERROR),
        )
        _say(gm, "roll 1d20", mode="action")
        expect(gm.locator("#composer-error")).to_contain_text("You have 0 credits available")
        expect(box.locator("button")).to_have_text(GOBLIN_OPTIONS)
