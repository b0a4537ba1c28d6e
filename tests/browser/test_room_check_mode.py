"""A check rolled with disadvantage in the room, in Chromium: its Dice line says so where an
attack's line says its mode, before the outcome ("... · DC 10 with disadvantage, success")."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_check_natural import _made, _outcome, _rolled
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_poisoned_players_check_line_says_it_was_rolled_with_disadvantage(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Bad Ale") as (
        campaign,
        gm,
        ilsa,
    ):
        _say(gm, "poison Ilsa", mode="action")
        _settle(campaign, 2)
        _say(ilsa, "I roll stealth", mode="action")
        _settle(campaign, 3)

        (check,) = _rolled(campaign, "ability_check")
        assert check["mode"] == "disadvantage"

        line = ilsa.locator('#turn-dice li[data-dice="ability_check"] .turn-roll__line')
        expect(line).to_have_text(
            f"{_made(check['natural'], check['total'])} · DC {check['dc']} with disadvantage, "
            f"{_outcome(check)}"
        )
