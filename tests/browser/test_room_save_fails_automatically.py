"""A paralysed player's dex save in the room, in Chromium: its Dice line says it failed and why,
as the narration does, not only a total against the DC that would have passed."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_check_natural import _made, _rolled
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_paralysed_players_save_line_says_why_it_failed(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Ghoul Den") as (
        campaign,
        gm,
        ilsa,
    ):
        _say(gm, "paralyze Ilsa", mode="action")
        _settle(campaign, 2)
        _say(gm, "dex save for Ilsa dc 10", mode="action")
        _settle(campaign, 3)

        (save,) = _rolled(campaign, "saving_throw")
        assert (save["success"], save["automatic_failure"]) == (False, "Ilsa is paralyzed")

        for page in (gm, ilsa):
            line = page.locator('#turn-dice li[data-dice="saving_throw"] .turn-roll__line')
            expect(line).to_have_text(
                f"{_made(save['natural'], save['total'])} · DC {save['dc']} "
                "failure: Ilsa is paralyzed"
            )
