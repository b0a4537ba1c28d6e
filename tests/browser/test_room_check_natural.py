"""A check or save made in the room, in Chromium: a player's own shows its natural d20 and the
total it makes; a monster's save the GM calls shows everyone its total alone (its natural roll
would give its modifier away), and the GM's own GM-only line shows its natural d20."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


def _rolled(campaign, tool):
    """The full results of the turns' `tool` calls, oldest first, as the domain answered them."""
    from apps.turns.models import Operation

    return [
        op.result["structuredContent"]
        for op in Operation.objects.filter(job__campaign=campaign, tool=tool).order_by(
            "job__created_at", "step"
        )
    ]


def _made(natural: int, total: int) -> str:
    modifier = total - natural
    return f"d20 {natural} {'-' if modifier < 0 else '+'} {abs(modifier)} = {total}"


def _outcome(result) -> str:
    return "success" if result["success"] else "failure"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_check_shows_its_natural_d20_and_a_monsters_save_its_total_alone(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Quiet Steps") as (
        campaign,
        gm,
        ilsa,
    ):
        _say(ilsa, "I roll stealth", mode="action")
        _settle(campaign, 2)
        _say(gm, "dex save for Goblin DC 12", mode="action")
        _settle(campaign, 3)
        _say(gm, "dex save for Goblin DC 12", mode="action", audience="gm")
        _settle(campaign, 4)

        (check,) = _rolled(campaign, "ability_check")
        to_all, to_gm = _rolled(campaign, "saving_throw")
        # The GM's calls were answered in full: the line, not the domain, keeps the die back.
        assert (to_all["character_kind"], isinstance(to_all["natural"], int)) == ("monster", True)

        checks = ilsa.locator('#turn-dice li[data-dice="ability_check"]')
        expect(checks).to_have_count(1)
        expect(checks.locator(".turn-roll__die")).to_have_attribute(
            "data-natural", str(check["natural"])
        )
        expect(checks.locator(".turn-roll__line")).to_have_text(
            f"{_made(check['natural'], check['total'])} · DC {check['dc']} {_outcome(check)}"
        )

        for page in (ilsa, gm):
            saves = page.locator('#turn-dice li[data-dice="saving_throw"]')
            expect(saves).to_have_count(1 if page is ilsa else 2)
            shown = saves.last  # the one to everyone (newest first)
            expect(shown.locator(".turn-roll__die")).to_have_class(
                "turn-roll__die turn-roll__die--total"
            )
            expect(shown.locator(".turn-roll__line")).to_have_text(
                f"{to_all['total']} · DC 12 {_outcome(to_all)}"
            )

        secret = gm.locator('#turn-dice li[data-dice="saving_throw"]').first
        expect(secret.locator(".turn-roll__die")).to_have_attribute(
            "data-natural", str(to_gm["natural"])
        )
        expect(secret.locator(".turn-roll__line")).to_have_text(
            f"{_made(to_gm['natural'], to_gm['total'])} · DC 12 {_outcome(to_gm)}"
        )
