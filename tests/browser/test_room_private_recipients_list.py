"""A private message's badge lists its recipients as the page's language lists names ("A, B,
and C" in English), alphabetically and the reader first, in Chromium against uvicorn."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


def _gm_and_three(make_user):
    gm_user = make_user("gm@example.test", display_name="Gail GM")
    players = [
        make_user(f"{name.lower()}@example.test", display_name=f"{name} Player")
        for name in ("Pat", "Quinn", "Rae")
    ]
    campaign, _ = make_campaign(gm_user, *[(p, CampaignMembership.Role.PLAYER) for p in players])
    return campaign


def _whisper(gm, text, names):
    gm.check("input[name=audience][value=private]")
    for label in gm.locator("#recipients label").all():
        box = label.locator("input")
        if label.inner_text().strip() in names:
            box.check()
        else:
            box.uncheck()
    _say(gm, text)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_private_recipients_read_as_a_list_in_the_page_language(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_three(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test", "pat@example.test") as (
        gm,
        pat,
    ):
        _whisper(gm, "Two of you", {"Pat Player", "Quinn Player"})
        _wait_for_texts(gm, ["Two of you"])
        _whisper(gm, "All three", {"Pat Player", "Quinn Player", "Rae Player"})
        _wait_for_texts(gm, ["Two of you", "All three"])
        badges = gm.locator("#timeline li[data-sequence] .badge--private")
        expect(badges).to_have_text(
            [
                "Private: Pat Player and Quinn Player",
                "Private: Pat Player, Quinn Player, and Rae Player",
            ]
        )
        _wait_for_texts(pat, ["Two of you", "All three"])
        expect(pat.locator("#timeline li[data-sequence] .badge--private")).to_have_text(
            ["Private: you and Quinn Player", "Private: you, Quinn Player, and Rae Player"]
        )

    # A page in Chinese joins the names as Chinese does.
    context = browser.new_context(locale="zh-CN", viewport={"width": 1440, "height": 900})
    try:
        from tests.browser.test_room_history import _open
        from tests.browser.test_room_live import _sign_in

        page = _sign_in(context, asgi_server, "gm@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
        _wait_for_texts(page, ["Two of you", "All three"])
        expect(page.locator("#timeline li[data-sequence] .badge--private")).to_have_text(
            ["Private: Pat Player和Quinn Player", "Private: Pat Player、Quinn Player和Rae Player"]
        )
    finally:
        context.close()
