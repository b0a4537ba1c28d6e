"""The composer as a keyboard and screen-reader user meets it, in a real browser against
uvicorn: a hint about the message being written goes once the message is put right, and a
message sent with the Send button leaves the cursor in the message box for the next one."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.conftest import in_the_room
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign


def _gm_and_pat(make_user):
    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (pat, CampaignMembership.Role.PLAYER))
    return campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_composer_hint_goes_once_the_message_is_put_right(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        body = gm.locator("#composer-body")
        error = gm.locator("#composer-error")

        # Nothing to send: the box is marked invalid and described by the hint...
        body.fill("   ")
        body.press("Enter")
        expect(error).to_have_text("Type something to send first.")
        expect(body).to_have_attribute("aria-invalid", "true")
        expect(body).to_have_attribute("aria-describedby", "composer-error")
        # ...until something is typed: the hint no longer says what is on screen.
        body.press_sequentially("Hi")
        expect(error).to_be_hidden()
        expect(body).not_to_have_attribute("aria-invalid", "true")
        expect(body).not_to_have_attribute("aria-describedby", "composer-error")

        # Private with nobody chosen: the hint goes once someone is.
        gm.check("input[name=audience][value=private]")
        body.press("Enter")
        expect(error).to_have_text("Choose who receives this private message.")
        expect(body).to_have_value("Hi")
        gm.check("#recipients input[name=recipients]")
        expect(error).to_be_hidden()
        body.press("Enter")
        _wait_for_texts(gm, ["Hi"])


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_recipients_box_is_described_by_its_hint_while_nobody_is_chosen(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    pat = make_user("player@example.test", display_name="Pat Player")
    rob = make_user("rob@example.test", display_name="Rob Player")
    player = CampaignMembership.Role.PLAYER
    campaign, _ = make_campaign(gm_user, (pat, player), (rob, player))
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        body = gm.locator("#composer-body")
        error = gm.locator("#composer-error")
        picker = gm.locator("#recipients")
        boxes = picker.locator("input[name=recipients]")

        def marks() -> tuple[str | None, list[str | None]]:
            return (
                picker.get_attribute("aria-describedby"),
                [box.get_attribute("aria-invalid") for box in boxes.all()],
            )

        gm.check("input[name=audience][value=private]")
        expect(boxes).to_have_count(2)
        assert marks() == (None, [None, None])
        # Nobody chosen: the box is described by the hint, and each choice in it is invalid.
        body.fill("Hi")
        body.press("Enter")
        expect(error).to_have_text("Choose who receives this private message.")
        assert marks() == ("composer-error", ["true", "true"])
        # Someone chosen: the hint goes, and with it what it said of the box.
        boxes.first.check()
        expect(error).to_be_hidden()
        assert marks() == (None, [None, None])
        # No longer private: the same.
        boxes.first.uncheck()
        body.press("Enter")
        expect(error).to_have_text("Choose who receives this private message.")
        assert marks() == ("composer-error", ["true", "true"])
        gm.check("input[name=audience][value=public]")
        expect(error).to_be_hidden()
        assert marks() == (None, [None, None])


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sending_with_the_send_button_leaves_the_cursor_in_the_message_box(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    with in_the_room(browser, asgi_server, campaign, "player@example.test") as (pat,):
        body = pat.locator("#composer-body")
        send = pat.locator("#composer button[type=submit]")

        # By keyboard: Tab from the box to Send, Enter.
        body.fill("First, by keyboard.")
        body.press("Tab")
        expect(send).to_be_focused()
        pat.keyboard.press("Enter")
        _wait_for_texts(pat, ["First, by keyboard."])
        expect(body).to_be_focused()
        # Typing goes on where it left off.
        pat.keyboard.type("Second, by mouse.")
        send.click()
        _wait_for_texts(pat, ["First, by keyboard.", "Second, by mouse."])
        expect(body).to_be_focused()
        expect(body).to_have_value("")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}, {"width": 390, "height": 844}],
)
@pytest.mark.parametrize("email", ["gm@example.test", "player@example.test"])
def test_a_long_room_opens_with_the_message_box_and_send_in_view(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
    email,
):
    from apps.rooms.services import room_message_post

    campaign = _gm_and_pat(make_user)
    pat = CampaignMembership.objects.get(campaign=campaign, user__email="player@example.test")
    for n in range(40):  # more than the timeline can show at once
        room_message_post(membership=pat, body=f"Line {n}", mode="chat", client_message_id=f"l{n}")
    context = browser.new_context(viewport=viewport)
    try:
        page = _sign_in(context, asgi_server, email)
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        assert page.evaluate("window.scrollY") == 0
        for selector in ("#composer-body", "#composer button[type=submit]"):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (selector, box)
        # The timeline still shows a good part of the story.
        timeline = page.locator(".room__timeline").bounding_box()
        assert timeline["height"] >= 0.4 * viewport["height"], timeline
    finally:
        context.close()
