"""Taking one of the game master's options ("Try: …") over a draft of the reader's own, in
Chromium against uvicorn: the draft, its mode and its audience can be had back with "Undo",
announced in a status region, instead of being lost."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_draft_replaced_by_an_option_comes_back_with_undo(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Kept Draft") as (
        _campaign,
        gm,
        _ilsa,
    ):
        body = gm.locator("#composer-body")
        option = gm.locator("#composer-suggestions button").first
        expect(option).to_be_visible()
        words = option.inner_text()

        # A private word to Ilsa, half written.
        gm.check("input[name=mode][value=chat]")
        gm.check("input[name=audience][value=private]")
        gm.check("#recipients input[name=recipients]")
        body.fill("Ilsa, the goblin is your broth")
        option.click()
        expect(body).to_have_value(words)
        expect(gm.locator("input[name=mode][value=action]")).to_be_checked()
        expect(gm.locator("input[name=audience][value=gm]")).to_be_checked()

        undo_box = gm.locator("#composer-undo")
        expect(undo_box).to_have_attribute("role", "status")
        expect(undo_box).to_have_text("Your draft was replaced by the option. Undo")
        undo_box.get_by_role("button", name="Undo").click()
        expect(body).to_have_value("Ilsa, the goblin is your broth")
        expect(body).to_be_focused()
        expect(gm.locator("input[name=mode][value=chat]")).to_be_checked()
        expect(gm.locator("input[name=audience][value=private]")).to_be_checked()
        expect(gm.locator("#recipients")).to_be_visible()
        expect(gm.locator("#recipients input[name=recipients]")).to_be_checked()
        expect(undo_box).to_have_text("")

        # No draft of the reader's own (the box empty): nothing to undo.
        body.fill("")
        option.click()
        expect(body).to_have_value(words)
        expect(undo_box).to_have_text("")
