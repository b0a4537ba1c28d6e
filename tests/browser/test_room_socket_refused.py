"""The room's socket in Chromium when the server refuses it for good (a request it will refuse
again) and when the server merely restarts."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

VIEWPORT = {"width": 1280, "height": 900}
SOCKET = re.compile(r".*/ws/rooms/.*")


def _room_whose_next_sockets_close_with(browser, base_url, make_user, code):
    """Pat's page, live in the room, whose socket is then dropped and every new one closed by
    the server with `code` until `attempts` is given None. Returns (context, page, attempts:
    one entry per refused socket)."""
    campaign, _gm_m, _player_m = _gm_and_player(make_user)
    context = browser.new_context(viewport=VIEWPORT)
    page = _sign_in(context, base_url, "player@example.test")
    _open(page, f"{base_url}/campaigns/{campaign.id}/room/")
    attempts = []

    def refuse(ws):
        if attempts and attempts[-1] is None:
            ws.connect_to_server()
            return
        attempts.append(ws.url)
        ws.close(code=code, reason="")

    page.route_web_socket(SOCKET, refuse)
    page.evaluate("window.sagasmithRoom.dropSocket()")
    return context, page, attempts


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_socket_refused_as_a_bad_request_stops_retrying_and_asks_for_a_reload(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    context, page, attempts = _room_whose_next_sockets_close_with(
        browser, asgi_server, make_user, 4400
    )
    try:
        expect(page.locator("#room")).to_have_attribute("data-state", "closed")
        expect(page.locator("#room-status")).to_have_text(
            "This page cannot reach the room any more. Reload the page to try again."
        )
        # Well past the first backoff steps (0.25-0.5 s, then 0.5-1 s, then 1-2 s).
        page.wait_for_timeout(4000)
        assert len(attempts) == 1
        expect(page.locator("#room")).to_have_attribute("data-state", "closed")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_socket_closed_by_a_restarting_server_keeps_reconnecting(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    context, page, attempts = _room_whose_next_sockets_close_with(
        browser, asgi_server, make_user, 1012
    )
    try:
        expect(page.locator("#room")).to_have_attribute("data-state", "reconnecting")
        expect(page.locator("#room-status")).to_have_text("Connection lost — reconnecting…")
        page.wait_for_timeout(4000)
        assert len(attempts) >= 2
        expect(page.locator("#room")).to_have_attribute("data-state", "reconnecting")
        # The server back: the page is live again.
        attempts.append(None)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
    finally:
        context.close()
