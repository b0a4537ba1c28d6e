"""A player's attack in the Dice panel, in Chromium: its line shows the arithmetic a check's, a
save's and a blessed attack's line show ("d20 12 + 5 = 17 · hit, ..."), not the total alone
with its natural d20 said only to a screen reader."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat, gm_and_ilsa_in_the_room, table_for
from tests.browser.test_dice_bless import ATTACK, ONE_LINE, SAVE
from tests.browser.test_room_check_natural import _made, _rolled
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_options_handover import _until_ilsas_turn
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


def _outcome(attack) -> str:
    said = "critical hit" if attack["critical"] else "hit" if attack["hit"] else "miss"
    damage = attack.get("damage") or {}
    if damage.get("total") is not None:
        said += f", {damage['total']} {damage['damage_type']} damage"
    return said


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_attack_line_shows_its_d20_arithmetic(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Even Sums") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = _until_ilsas_turn(campaign, gm, ilsa)
        _say(ilsa, "attack goblin", mode="action")
        _settle(campaign, jobs + 1)

        (attack,) = _rolled(campaign, "attack")
        to_hit = attack["to_hit"]
        assert to_hit["mode"] == "normal"
        for page in (ilsa, gm):
            line = page.locator('#turn-dice li[data-dice="attack"] .turn-roll__line')
            expect(line).to_have_count(1)
            # All of its text, a screen reader's too: the natural die said once, in the sum.
            expect(line).to_have_text(
                f"{_made(to_hit['natural'], to_hit['total'])} · {_outcome(attack)}"
            )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_attack_and_save_lines_read_alike_blessed_or_not(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Like Sums",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        lines = ilsa.locator("#turn-dice li .turn-roll__line")
        shown = [
            ({**ATTACK, "natural": 12, "total": 17},
             "d20 12 + 5 = 17 · hit, 6 slashing damage"),
            ({**ATTACK, "natural": 12, "bless": 2, "total": 19},
             "d20 12 + 2 (Bless) + 5 = 19 · hit, 6 slashing damage"),
            ({**SAVE, "natural": 12, "total": 17, "success": True},
             "d20 12 + 5 = 17 · DC 15 success"),
            # A penalty, no modifier, and the kept d20 of two.
            ({**ATTACK, "natural": 9, "total": 8, "hit": False, "damage": None},
             "d20 9 - 1 = 8 · miss"),
            ({**ATTACK, "natural": 20, "total": 20, "critical": True},
             "d20 20 = 20 · critical hit, 6 slashing damage"),
            ({**ATTACK, "natural": 15, "total": 19, "mode": "advantage"},
             "d20 15 + 4 = 19 · with advantage, hit, 6 slashing damage"),
            # A monster's, its natural die kept back: the total alone, as its save's.
            ({**ATTACK, "natural": None, "total": 16}, "16 · hit, 6 slashing damage"),
        ]  # fmt: skip
        for sequence, (line, text) in enumerate(shown, start=310001):
            ilsa.evaluate(ONE_LINE, {**line, "sequence": sequence})
            expect(lines.first).to_have_text(text)
            assert lines.first.text_content() == text
