"""A GM's narration sent privately is words only (the game master applies narration to everyone
or to the GMs), in Chromium against uvicorn: while Narration and Private are both chosen, the
composer says so, and the Private option is described by it; in any other pairing it is gone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

HINT = (
    "Private narration is sent only as words to the people you choose: it changes nothing in "
    "the game. Narration to Everyone or GM only becomes a game master’s turn."
)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_private_narration_says_the_game_master_will_not_apply_it(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Salt Road",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        hint = gm.locator("#narration-private-hint")
        private = gm.locator("input[name=audience][value=private]")
        expect(hint).to_be_hidden()

        gm.check("input[name=mode][value=narration]")
        expect(hint).to_be_hidden()
        gm.check("input[name=audience][value=private]")
        expect(hint).to_be_visible()
        expect(hint).to_have_text(HINT)
        expect(private).to_have_attribute("aria-describedby", "narration-private-hint")

        gm.check("input[name=mode][value=chat]")  # private chat is words anyway
        expect(hint).to_be_hidden()
        expect(private).not_to_have_attribute("aria-describedby", "narration-private-hint")
        gm.check("input[name=mode][value=narration]")
        expect(hint).to_be_visible()
        gm.check("input[name=audience][value=public]")
        expect(hint).to_be_hidden()
        expect(private).not_to_have_attribute("aria-describedby", "narration-private-hint")
        # A player has no Narration: no such hint on their page.
        expect(ilsa.locator("#narration-private-hint")).to_have_count(0)
