"""Check, save and death-save results in the Chromium dice list: said as the table says them,
the natural d20 on the die and the total beside it, in the same lower-case words as attacks;
only the oracle's answer is upper-case."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL, _lines
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_death_save_result_is_lower_case_and_only_the_oracles_answer_is_upper_case(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Quiet Saves",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_ROLL, {"tool": "death_save", "label": "Death save · Ilsa",
                                 "expression": "d20", "total": 12, "result": "success",
                                 "sequence": 310001})  # fmt: skip
        ilsa.evaluate(ONE_ROLL, {"tool": "death_save", "label": "Death save · Ilsa",
                                 "expression": "d20", "total": 1, "result": "two failures",
                                 "sequence": 310002})  # fmt: skip
        ilsa.evaluate(ONE_ROLL, {"tool": "oracle_ask", "label": "Is the door locked?",
                                 "expression": "d100", "total": 71, "result": "yes, but",
                                 "sequence": 310003})  # fmt: skip
        expect(ilsa.locator("#turn-dice li")).to_have_count(3)
        assert _lines(ilsa) == [
            "d100 = 71 YES, BUT",
            "d20 = 1 two failures",
            "d20 = 12 success",
        ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_check_shows_its_natural_d20_on_the_die_and_the_total_beside_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Plain Checks",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    save = {"tool": "saving_throw", "label": "Dex save · Ilsa", "total": 21, "dc": 15,
            "success": True, "sequence": 320001}  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        # The room's check and save lines carry no natural roll: the total is not drawn as
        # a d20 face (a "21" on a d20 reads as impossible), and is named for what it is.
        ilsa.evaluate(ONE_ROLL, save)
        total = ilsa.locator("#turn-dice li .turn-roll__die").first
        expect(total).to_have_text("21")
        expect(total).to_have_class("turn-roll__die turn-roll__die--total")
        expect(total).to_have_accessible_name("total 21")
        assert _lines(ilsa) == ["21 · DC 15 success"]

        # With the natural roll: the d20 shows it, the line adds the modifier to the total.
        ilsa.evaluate(ONE_ROLL, {**save, "natural": 14, "success": True, "sequence": 320002})
        ilsa.evaluate(ONE_ROLL, {"tool": "ability_check", "label": "Athletics check · Ilsa",
                                 "natural": 9, "total": 8, "dc": 12, "success": False,
                                 "sequence": 320003})  # fmt: skip
        ilsa.evaluate(ONE_ROLL, {"tool": "ability_check", "label": "Wis check · Ilsa",
                                 "natural": 20, "total": 20, "dc": 10, "success": True,
                                 "sequence": 320004})  # fmt: skip
        expect(ilsa.locator("#turn-dice li")).to_have_count(4)
        faces = ilsa.locator("#turn-dice li .turn-roll__die")
        expect(faces).to_have_text(["20", "9", "14", "21"])
        expect(faces.nth(1)).to_have_class("turn-roll__die")
        expect(faces.nth(1)).to_have_attribute("aria-hidden", "true")
        expect(faces.nth(0)).to_have_attribute("data-natural", "20")
        assert _lines(ilsa) == [
            "d20 20 = 20 · DC 10 success",
            "d20 9 - 1 = 8 · DC 12 failure",
            "d20 14 + 7 = 21 · DC 15 success",
            "21 · DC 15 success",
        ]
