"""A player's one-click options for their combat turn, in Chromium: they go away once that
turn is over, whoever ended it, and a page opened while it lasts offers them again."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

CURRENT = "#turn-order li.is-current .turn-combatant__name"
OPTIONS = ["attack the goblin", "end turn"]


def _until_ilsas_turn(campaign, gm, ilsa) -> int:
    """Once combat started: the GM ends the goblin's turn if it won the initiative, until Ilsa
    is up. Returns how many turn jobs the campaign has run."""
    from playwright.sync_api import expect

    jobs = 1
    expect(ilsa.locator(CURRENT)).to_have_count(1)
    if ilsa.locator(CURRENT).inner_text() != "Ilsa":
        _say(gm, "end turn", mode="action")
        jobs += 1
        _settle(campaign, jobs)
    expect(ilsa.locator(CURRENT)).to_have_text("Ilsa")
    return jobs


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_turn_options_go_away_when_the_gm_ends_that_turn(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Handover Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        box = ilsa.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(OPTIONS)
        # A screen reader meets them as one group, named by what they are.
        expect(ilsa.get_by_role("group", name="Try:").get_by_role("button")).to_have_text(OPTIONS)

        # The GM ends Ilsa's turn for her: what she was offered for it is gone (a click on
        # "end turn" would now be refused, or end a later turn of hers).
        _say(gm, "end turn", mode="action")
        _settle(campaign, jobs + 1)
        expect(ilsa.locator(CURRENT)).to_have_text("Goblin")
        expect(box).to_be_hidden()
        expect(box.locator("button")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_who_opens_the_room_during_their_turn_is_offered_its_options(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Reload Keep") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        box = ilsa.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(OPTIONS)

        # A reload (or a page opened late) on her turn: still hers, still the same options.
        ilsa.reload()
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        expect(box.locator("button")).to_have_text(OPTIONS)

        # Once the GM has ended it, a page opened afterwards offers nothing.
        _say(gm, "end turn", mode="action")
        _settle(campaign, jobs + 1)
        expect(ilsa.locator(CURRENT)).to_have_text("Goblin")
        ilsa.reload()
        # Live: caught up, past the replayed suggestions.
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        expect(box).to_be_hidden()
        expect(box.locator("button")).to_have_count(0)
