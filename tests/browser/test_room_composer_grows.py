"""The message box on a phone, in Chromium: it grows with a message of several lines so all of
it can be read over before it is sent (up to a height that keeps Send in the window), and is
back to its two rows once the message is sent."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, _wait_for_texts, asgi_server  # noqa: F401
from tests.rooms.factories import make_campaign

# Whether the box shows all of its text (nothing scrolled out of it), and its height.
FITS = "el => [el.scrollHeight <= el.clientHeight, Math.round(el.getBoundingClientRect().height)]"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_message_box_grows_with_its_lines_and_shrinks_once_sent(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    pat = _sign_in(phone, asgi_server, "pat@example.test")
    _open(pat, f"{asgi_server}/campaigns/{campaign.id}/room/")
    body = pat.locator("#composer-body")
    send = pat.locator("#composer button[type=submit]")
    fits, rest = body.evaluate(FITS)
    assert fits

    lines = [f"Line {n} of the plan for tonight" for n in range(1, 6)]
    body.fill("\n".join(lines))
    fits, grown = body.evaluate(FITS)
    assert fits and grown > rest, (grown, rest)
    expect(send).to_be_in_viewport()

    # A much longer one: the box stops growing (it scrolls) while Send stays in the window.
    body.fill("\n".join(f"Line {n}" for n in range(1, 41)))
    fits, tallest = body.evaluate(FITS)
    assert not fits and grown < tallest <= 200, (grown, tallest)
    expect(send).to_be_in_viewport()

    body.fill("\n".join(lines))
    send.tap()
    _wait_for_texts(pat, ["\n".join(lines)])
    expect(body).to_have_value("")
    assert body.evaluate(FITS) == [True, rest]
