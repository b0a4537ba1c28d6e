"""The opening notice of a room, in Chromium: a room with entries shows them once the socket
brings them, and neither "Loading messages…" nor "No messages yet" stays over them; a room whose
only entries are events the timeline does not show ends on "No messages yet"."""

from __future__ import annotations

import pytest

from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _sign_in, _wait_for_texts, asgi_server  # noqa: F401


def _welcomed_player(browser, base_url: str, make_user):
    """A room whose GM has said "Welcome, all.", and its player signed in (not yet in it)."""
    from apps.rooms.services import room_message_post

    campaign, gm, _player = _gm_and_player(make_user)
    room_message_post(membership=gm, body="Welcome, all.", mode="chat", client_message_id="c1")
    return campaign, _sign_in(browser.new_context(), base_url, "player@example.test")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_room_with_entries_shows_them_without_an_empty_or_loading_notice(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, page = _welcomed_player(browser, asgi_server, make_user)
    _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
    _wait_for_texts(page, ["Welcome, all."])
    expect(page.locator("#timeline-loading")).to_be_hidden()
    expect(page.locator("#timeline-empty")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_room_of_unshown_events_ends_on_no_messages_yet(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_event_record

    campaign, _gm, _player = _gm_and_player(make_user)
    room_event_record(campaign=campaign, event_type="state.changed", data={"scopes": ["party"]})
    page = _sign_in(browser.new_context(), asgi_server, "player@example.test")
    _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
    expect(page.locator("#timeline-loading")).to_be_hidden()
    expect(page.locator("#timeline-empty")).to_have_text("No messages yet. Say hello to the table.")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_socket_refused_before_its_replay_takes_the_loading_notice_with_it(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, page = _welcomed_player(browser, asgi_server, make_user)
    # The server refuses the room (access taken away) before it replays anything.
    page.route_web_socket("**/ws/rooms/**", lambda ws: ws.close(code=4403, reason="revoked"))
    page.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
    expect(page.locator("#room")).to_have_attribute("data-state", "closed")
    expect(page.locator("#timeline-loading")).to_be_hidden()
