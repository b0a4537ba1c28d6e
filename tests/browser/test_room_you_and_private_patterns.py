"""The room's "Name (you)", "private: names" and "as character" come from the view as whole
patterns, in Chromium against uvicorn: a translation that puts the words in another order is
shown in that order, in the timeline and in "Here now". A badge opening with the page's own word
("you") starts with a capital; one opening with a name keeps the name as it was written."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401

# A translator's word order, unlike English's.
REORDERED = {
    "%(name)s (you)": "(you) %(name)s",
    "private: %(names)s": "%(names)s: private",
    "as %(name)s": "%(name)s acting",
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_you_private_and_acted_as_follow_the_translated_word_order(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.rooms import views
    from apps.rooms.services import room_message_post

    monkeypatch.setattr(views, "_", lambda text: REORDERED.get(text, text))
    campaign = _gm_and_pat(make_user)
    emails = ("gm@example.test", "player@example.test")
    with in_the_room(browser, asgi_server, campaign, *emails) as (gm, pat):
        expect(gm.locator("#presence li").first).to_have_text("(you) Gail GM")

        gm.check("input[name=audience][value=private]")
        gm.check("#recipients input[name=recipients]")
        _say(gm, "Psst")
        _wait_for_texts(gm, ["Psst"])
        entry = gm.locator("#timeline li[data-sequence]").last
        expect(entry.locator(".entry__sender")).to_have_text("(you) Gail GM")
        expect(entry.locator(".badge--private")).to_have_text("Pat Player: private")
        _wait_for_texts(pat, ["Psst"])
        expect(pat.locator("#timeline .badge--private")).to_have_text("You: private")

        pat_m = CampaignMembership.objects.get(campaign=campaign, user__email="player@example.test")
        room_message_post(
            membership=pat_m, body="I listen.", mode="action", client_message_id="a1",
            data={"character_id": "c1", "character_name": "kara"},
        )  # fmt: skip
        _wait_for_texts(pat, ["Psst", "I listen."])
        expect(pat.locator("#timeline .badge--character")).to_have_text("kara acting")
