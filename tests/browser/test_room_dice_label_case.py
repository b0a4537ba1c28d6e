"""The dice list in Chromium starts every roll's title in sentence case: a label the tools give
in lower case ("luck") reads "Luck · Briar" beside the room's own "Roll · Briar"."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dice_list_titles_start_in_sentence_case(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Label Case",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        roll = {"expression": "1d20", "total": 12, "addends": [12], "by": "Briar"}
        ilsa.evaluate(ONE_ROLL, {**roll, "label": "", "sequence": 300000})
        ilsa.evaluate(ONE_ROLL, {**roll, "label": "luck", "sequence": 300001})
        ilsa.evaluate(ONE_ROLL, {**roll, "tool": "ability_check", "label": "stealth check · Briar",
                                 "natural": 12, "sequence": 300002})  # fmt: skip
        expect(ilsa.locator("#turn-dice li .turn-roll__title")).to_have_text(
            ["Stealth check · Briar", "Luck · Briar", "Roll · Briar"]
        )
