"""The room's "Name (you)" and "private: names" come from the view as whole patterns, in
Chromium against uvicorn: a translation that puts the words in another order is shown in that
order, in the timeline and in "Here now"."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401

# A translator's word order, unlike English's.
REORDERED = {"%(name)s (you)": "(you) %(name)s", "private: %(names)s": "%(names)s: private"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_you_and_private_follow_the_translated_word_order(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.rooms import views

    monkeypatch.setattr(views, "_", lambda text: REORDERED.get(text, text))
    campaign = _gm_and_pat(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        expect(gm.locator("#presence li").first).to_have_text("(you) Gail GM")

        gm.check("input[name=audience][value=private]")
        gm.check("#recipients input[name=recipients]")
        _say(gm, "Psst")
        _wait_for_texts(gm, ["Psst"])
        entry = gm.locator("#timeline li[data-sequence]").last
        expect(entry.locator(".entry__sender")).to_have_text("(you) Gail GM")
        expect(entry.locator(".badge--private")).to_have_text("Pat Player: private")
