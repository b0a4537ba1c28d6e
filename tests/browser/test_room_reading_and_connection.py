"""What a reader sees of the connection and of what is new, end to end in a real browser against
uvicorn: losing the network says so at once (not "Live" until the heartbeat gives up) and comes
back without loss; entries arriving while the reader is up in the history are announced with a
"New messages" button and are not marked read until seen; and the account page's session list
fits a phone."""

from __future__ import annotations

import pytest

from apps.rooms.models import ReadCursor
from tests.browser.conftest import wait_until_true
from tests.browser.test_room_history import _gm_and_player, _open, _steady
from tests.browser.test_room_live import (  # noqa: F401
    PASSWORD,
    _say,
    _sign_in,
    _wait_for_texts,
    asgi_server,
)

VIEWPORT = {"width": 1440, "height": 900}
SCROLLER = "document.querySelector('.room__timeline')"
CLIPPED_IN_CARD = """() => {
  const table = document.querySelector("table.table");
  const card = table.closest("section.card");
  let box = table.parentElement;
  while (box !== card && getComputedStyle(box).overflowX === "visible") box = box.parentElement;
  const fits = (el) => el.getBoundingClientRect().right <= card.getBoundingClientRect().right + 0.5;
  return box === card ? fits(table) : fits(box);
}"""


def _scroll_up(page) -> None:
    """Wheel the timeline up into the history and wait until it has come to rest there. A wheel
    scrolls over frames, and a renderer starved on a loaded run may not have begun in a fixed
    pause: a message arriving before the page saw the reader leave the newest entry is followed
    down to, not announced."""
    page.mouse.wheel(0, -1500)
    distance = _steady(
        page, f"() => {SCROLLER}.scrollHeight - {SCROLLER}.scrollTop - {SCROLLER}.clientHeight"
    )
    assert distance > 200


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_going_offline_says_so_at_once_and_catches_up_when_back(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _gm_m, _player_m = _gm_and_player(make_user)
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        player = _sign_in(contexts[1], asgi_server, "player@example.test")
        for page in (gm, player):
            _open(page, room_url)
        _say(gm, "Before the storm.")
        _wait_for_texts(player, ["Before the storm."])

        # The status line is a live region: each text it takes is said once.
        player.evaluate(
            """() => { window.statusSaid = [];
              new MutationObserver(() => window.statusSaid.push(
                document.getElementById("room-status").textContent)).observe(
                document.getElementById("room-status"), {childList: true, characterData: true,
                subtree: true}); }"""
        )
        # The network goes: well within a heartbeat, the page no longer claims to be live.
        contexts[1].set_offline(True)
        expect(player.locator("#room")).to_have_attribute(
            "data-state", "reconnecting", timeout=3000
        )
        expect(player.locator("#room-status")).to_have_text("Connection lost — reconnecting…")
        _say(gm, "During the storm.")
        _wait_for_texts(gm, ["Before the storm.", "During the storm."])
        player.wait_for_timeout(3000)  # several tries to reconnect
        assert player.evaluate("window.statusSaid") == ["Connection lost — reconnecting…"]

        contexts[1].set_offline(False)
        expect(player.locator("#room")).to_have_attribute("data-state", "live")
        _wait_for_texts(player, ["Before the storm.", "During the storm."])
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_new_entries_below_a_reader_in_the_history_are_announced_and_read_only_when_seen(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, player_m = _gm_and_player(make_user)
    for seq in range(1, 61):
        room_message_post(
            membership=(gm_m, player_m)[seq % 2], body=f"Message {seq}\nwith a second line",
            mode="chat", client_message_id=f"seed-{seq}",
        )  # fmt: skip
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]

    def player_read() -> int:
        return (
            ReadCursor.objects.filter(room__campaign=campaign, user=player_m.user)
            .values_list("last_read_sequence", flat=True)
            .first()
            or 0
        )

    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        player = _sign_in(contexts[1], asgi_server, "player@example.test")
        for page in (gm, player):
            _open(page, room_url)
        jump = player.locator("#timeline-jump")
        expect(jump).to_be_hidden()
        # Opened at the newest entry: everything shown is read.
        wait_until_true(player, f"{SCROLLER}.scrollHeight > {SCROLLER}.clientHeight")
        for _ in range(60):
            if player_read() == 60:
                break
            player.wait_for_timeout(100)
        assert player_read() == 60

        # Up in the history, a new message arrives: the reader is told, and it is not read yet.
        player.mouse.move(400, 300)
        _scroll_up(player)
        _say(gm, "Something new at the table.")
        expect(player.locator("#timeline li[data-sequence]")).to_have_count(61)
        expect(jump).to_be_visible()
        expect(jump).to_have_text("New messages ↓")
        player.wait_for_timeout(1500)  # past the read debounce
        assert player_read() == 60

        # The button takes the reader to it, and then it is read.
        jump.click()
        expect(jump).to_be_hidden()
        wait_until_true(
            player, f"{SCROLLER}.scrollHeight - {SCROLLER}.scrollTop - {SCROLLER}.clientHeight < 2"
        )
        for _ in range(60):
            if player_read() == 61:
                break
            player.wait_for_timeout(100)
        assert player_read() == 61

        # The reader's own message (sent from another device: this page does not scroll for
        # it) never raises the button, though the reader is still up in the history.
        _scroll_up(player)
        room_message_post(membership=player_m, body="Mine.", mode="chat", client_message_id="own")
        expect(player.locator("#timeline li[data-sequence]")).to_have_count(62)
        player.wait_for_timeout(300)
        expect(jump).to_be_hidden()
        assert (
            player.evaluate(
                f"() => {SCROLLER}.scrollHeight - {SCROLLER}.scrollTop - {SCROLLER}.clientHeight"
            )
            > 200
        )
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_account_pages_session_list_fits_a_phone(browser, live_server, make_user):
    make_user("phone@example.test", display_name="Phone User")
    for width in (1440, 390):
        # As a phone lays a page out (a device viewport, touch), where the overflow shows.
        context = browser.new_context(
            viewport={"width": width, "height": 844}, is_mobile=width < 600, has_touch=width < 600
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=login]", "phone@example.test")
        page.fill("input[name=password]", PASSWORD)
        page.get_by_role("button", name="Sign In").click()
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/account/")
        assert page.locator("table.table tbody tr").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # What of the table is drawn stays inside its card: a wider table scrolls in a box of
        # the card's own, not past the card's edge (cut off, or the page pushed sideways).
        assert page.evaluate(CLIPPED_IN_CARD), width
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_entry_from_another_day_shows_its_date(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from datetime import UTC, datetime

    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_message_post

    campaign, gm_m, _player_m = _gm_and_player(make_user)
    old, _ = room_message_post(
        membership=gm_m, body="Back in March", mode="chat", client_message_id="old"
    )
    new, _ = room_message_post(
        membership=gm_m, body="Just now", mode="chat", client_message_id="new"
    )
    Message.objects.filter(pk=old.pk).update(created_at=datetime(2026, 3, 9, 14, 5, tzinfo=UTC))
    # Early in the day (today), when a clock with a leading zero would read "09:07 AM".
    today = datetime.now(UTC).replace(hour=9, minute=7, second=0, microsecond=0)
    Message.objects.filter(pk=new.pk).update(created_at=today)
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC")
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        times = gm.locator("#timeline li[data-sequence] .entry__time")
        expect(times).to_have_count(2)
        # Written as every page writes a time, in the reader's zone: no leading zero on a
        # 12-hour clock, and the zone's name.
        expect(times.nth(0)).to_have_text("Mar 9, 2026, 2:05 PM UTC")
        expect(times.nth(0)).to_have_attribute("title", "Monday, March 9, 2026 at 2:05 PM UTC")
        # Today's: the time alone.
        expect(times.nth(1)).to_have_text("9:07 AM UTC")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_screen_reader_hears_live_entries_not_the_replayed_history(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, player_m = _gm_and_player(make_user)
    for seq in range(1, 221):
        room_message_post(
            membership=gm_m, body=f"Line {seq}", mode="chat", client_message_id=f"seed-{seq}"
        )
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        player = _sign_in(contexts[1], asgi_server, "player@example.test")
        for page in (gm, player):
            _open(page, room_url)
        entries = player.locator("#timeline li[data-sequence]")
        expect(entries).to_have_count(200)
        # The history is no live region: opening the room reads nothing out.
        assert player.locator("#timeline").get_attribute("aria-live") is None
        heard = player.locator("#timeline-announcer p")
        expect(heard).to_have_count(0)
        _say(gm, "Something new at the table.")
        expect(entries).to_have_count(201)
        player.locator("#timeline-earlier").click()
        expect(entries).to_have_count(221)
        _say(player, "My own words.")
        _say(gm, "And more.")
        expect(entries).to_have_count(223)
        expect(heard).to_have_text(
            ["Gail GM (GM): Something new at the table.", "Gail GM (GM): And more."]
        )
        assert player.locator("#timeline-announcer").get_attribute("aria-live") == "polite"
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_gm_can_whisper_a_player_who_joined_after_the_room_was_opened(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from tests.rooms.factories import remove_member

    campaign, _gm_m, player_m = _gm_and_player(make_user)
    context = browser.new_context(viewport=VIEWPORT)
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        late = make_user("late@example.test", display_name="Lou Late")
        CampaignMembership.objects.create(
            campaign=campaign, user=late, role=CampaignMembership.Role.PLAYER
        )
        remove_member(player_m)

        # Choosing to send privately lists the members as they are now.
        gm.check("input[name=audience][value=private]")
        picker = gm.locator("#recipients")
        expect(picker.locator("label")).to_have_text(["Lou Late"])
        picker.get_by_label("Lou Late").check()
        gm.fill("#composer-body", "Welcome, Lou.")
        gm.keyboard.press("Enter")
        expect(gm.locator("#timeline li", has_text="Welcome, Lou.")).to_contain_text("Lou Late")
    finally:
        context.close()
