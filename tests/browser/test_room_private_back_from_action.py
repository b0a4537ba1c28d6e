"""A GM whispering who switches to Action and back to Chat, in Chromium, is whispering again:
Action narrowed their Private to GM only for its while, and Chat gives it back with the same
recipients, unless they chose another audience meanwhile."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_private_comes_back_when_the_gm_returns_from_action_to_chat(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        audience = gm.locator("input[name=audience]:checked")
        recipients = gm.locator("#recipients")
        gm.get_by_label("Private", exact=True).check()
        gm.get_by_label("Pat Player").check()

        # Action: private words are chat, so it narrows to GM only for now.
        gm.get_by_label("Action", exact=True).check()
        expect(audience).to_have_value("gm")
        expect(recipients).to_be_hidden()

        # Back to chat: the whisper, to the same person.
        gm.get_by_label("Chat", exact=True).check()
        expect(audience).to_have_value("private")
        expect(recipients).to_be_visible()
        expect(gm.get_by_label("Pat Player")).to_be_checked()
        _say(gm, "Psst")
        _wait_for_texts(gm, ["Psst"])
        entry = gm.locator("#timeline li[data-sequence]").last
        expect(entry.locator(".badge--private")).to_have_text("Private: Pat Player")

        # An audience chosen while in Action is the GM's own choice: Chat keeps it.
        gm.get_by_label("Private", exact=True).check()
        gm.get_by_label("Action", exact=True).check()
        expect(audience).to_have_value("gm")
        gm.get_by_label("Everyone", exact=True).check()
        gm.get_by_label("Chat", exact=True).check()
        expect(audience).to_have_value("public")
        expect(recipients).to_be_hidden()

        # So is GM only chosen again in Action.
        gm.get_by_label("Private", exact=True).check()
        gm.get_by_label("Narration", exact=True).check()
        expect(audience).to_have_value("private")
        gm.get_by_label("Action", exact=True).check()
        gm.get_by_label("Everyone", exact=True).check()
        gm.get_by_label("GM only", exact=True).check()
        gm.get_by_label("Chat", exact=True).check()
        expect(audience).to_have_value("gm")
