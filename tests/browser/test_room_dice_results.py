"""Check, save and death-save results in the Chromium dice list: said as the table says them,
the natural d20 on the die and the total beside it, in the same lower-case words as attacks;
only the oracle's answer is upper-case."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL, _lines
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.conftest import live_domains  # noqa: F401


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
