"""The initiative list's numbers for a screen reader, in Chromium against uvicorn: each is said
with what it is ("Initiative 14") once, not again as a tooltip's description."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_initiative_number_is_named_once(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Said Once") as (
        _campaign,
        gm,
        ilsa,
    ):
        for page in (gm, ilsa):
            cells = page.locator("#turn-order li .turn-combatant__init")
            expect(cells).to_have_count(2)
            for cell in cells.all():
                expect(cell).to_have_text(re.compile(r"^Initiative -?\d+$"))
                expect(cell).to_have_accessible_description("")
                assert cell.get_attribute("title") is None
