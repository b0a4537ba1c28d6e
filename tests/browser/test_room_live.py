"""Two browser contexts in one live room, served by a real uvicorn (websockets + lifespan):
GM and player see each other's chat live, GM-only narration never reaches the player, and a
player whose socket dropped catches up without loss or duplicates."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from apps.campaigns.models import CampaignMembership
from domain_servers.common.testing import listening_socket
from tests.rooms.factories import make_campaign

PASSWORD = "s3cret-passw0rd!"


@pytest.fixture
def asgi_server(transactional_db):
    """uvicorn in a thread: same process, so it shares the test database and channel layer."""
    import uvicorn
    from django.conf import settings
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from sagasmith_web.asgi import application
    from tests.conftest import reset_realtime_state

    # The lifespan attaches the publisher to the server's loop; start from, and leave behind,
    # no loop, queue or cached layer that another test's event loop owns.
    reset_realtime_state()
    # The server's worker threads must not keep PostgreSQL connections past each request, or
    # the test database cannot be dropped at the end of the session.
    db = settings.DATABASES["default"]
    old_max_age = db.get("CONN_MAX_AGE", 0)
    db["CONN_MAX_AGE"] = 0
    # Served on a socket bound here: no other process can take the port before the server runs.
    listener = listening_socket()
    port = listener.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),  # DEBUG is off in tests; serve /static/ anyway
        lifespan="on",
        log_level="warning",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=[listener])), daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()
        reset_realtime_state()
        db["CONN_MAX_AGE"] = old_max_age
    assert not thread.is_alive(), "uvicorn did not shut down within 10 s"


def _sign_in(context, base, email, *, land=True):
    """A page of `context` signed in as `email`: its session is made as the sign-in form's would
    be (the user_logged_in hooks run), without the form's two page loads, which each test paid
    once per person; the sign-in form itself is driven in test_account_lifecycle. The page is on
    the dashboard, or blank with land=False for a caller that goes somewhere at once."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(email=email))
    session_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session_key, "url": base}])
    page = context.new_page()
    if land:
        page.goto(f"{base}/")
    return page


def _say(page, text, *, mode="chat", audience=None):
    page.check(f"input[name=mode][value={mode}]")
    if audience is not None:
        page.check(f"input[name=audience][value={audience}]")
    page.fill("#composer-body", text)
    page.press("#composer-body", "Enter")


def _texts(page):
    return page.locator("#timeline li[data-sequence] .entry__body").all_inner_texts()


def _wait_for_texts(page, expected, timeout=15):
    deadline = time.monotonic() + timeout
    while (got := _texts(page)) != expected:
        assert time.monotonic() < deadline, f"timeline is {got}, expected {expected}"
        page.wait_for_timeout(50)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_gm_and_player_live_with_hidden_narration_and_catch_up(browser, asgi_server, make_user):
    from playwright.sync_api import expect

    gm_user = make_user("gm@example.test", display_name="Gail GM")
    player_user = make_user("player@example.test", display_name="Pat Player")
    campaign, _ = make_campaign(gm_user, (player_user, CampaignMembership.Role.PLAYER))
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"

    gm_context = browser.new_context(viewport={"width": 1440, "height": 900})
    player_context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        gm = _sign_in(gm_context, asgi_server, "gm@example.test")
        player = _sign_in(player_context, asgi_server, "player@example.test")
        for page in (gm, player):
            page.goto(room_url)
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
        expect(gm.locator("#presence")).to_contain_text("Pat Player")
        expect(player.locator("#presence")).to_contain_text("Gail GM")
        assert player.locator("#audience-picker").count() == 0  # players address everyone

        _say(gm, "Welcome, travellers.")
        _wait_for_texts(player, ["Welcome, travellers."])
        _say(player, "Hello from the road.")
        _wait_for_texts(gm, ["Welcome, travellers.", "Hello from the road."])

        _say(gm, "The lich watches from afar.", mode="narration", audience="gm")
        _say(gm, "Roll for initiative.", mode="chat", audience="public")
        _wait_for_texts(
            gm,
            [
                "Welcome, travellers.",
                "Hello from the road.",
                "The lich watches from afar.",
                "Roll for initiative.",
            ],
        )
        secret = gm.locator("#timeline li[data-sequence]").nth(2)
        expect(secret.locator(".badge--gm")).to_have_text("GM only")
        expect(secret).to_have_class("entry entry--narration")
        # The later public message arrived, so the hidden one was filtered, not just slow.
        _wait_for_texts(
            player, ["Welcome, travellers.", "Hello from the road.", "Roll for initiative."]
        )

        # Drop the player's connection; the table keeps talking meanwhile.
        player_context.set_offline(True)
        player.evaluate("window.sagasmithRoom.dropSocket()")
        expect(player.locator("#room")).to_have_attribute("data-state", "reconnecting")
        _say(gm, "Initiative: goblins first.", mode="chat", audience="public")
        _say(gm, "Goblin HP: 7.", mode="chat", audience="gm")
        _say(gm, "A goblin lunges at Pat.", mode="action", audience="public")
        _wait_for_texts(
            gm,
            [
                "Welcome, travellers.",
                "Hello from the road.",
                "The lich watches from afar.",
                "Roll for initiative.",
                "Initiative: goblins first.",
                "Goblin HP: 7.",
                "A goblin lunges at Pat.",
            ],
        )
        assert _texts(player) == [
            "Welcome, travellers.",
            "Hello from the road.",
            "Roll for initiative.",
        ]
        player_context.set_offline(False)
        expect(player.locator("#room")).to_have_attribute("data-state", "live")
        _wait_for_texts(
            player,
            [
                "Welcome, travellers.",
                "Hello from the road.",
                "Roll for initiative.",
                "Initiative: goblins first.",
                "A goblin lunges at Pat.",
            ],
        )
        # Sequences are the de-duplication key: each rendered once, in order.
        seqs = player.locator("#timeline li[data-sequence]").evaluate_all(
            "els => els.map(e => Number(e.dataset.sequence))"
        )
        assert seqs == [1, 2, 4, 5, 7]

        # Layout: no horizontal overflow at either end of the supported range.
        assert player.evaluate("document.documentElement.scrollWidth") <= 390
        assert gm.evaluate("document.documentElement.scrollWidth") <= 1440
        gm.screenshot(path="/tmp/room-gm-1440.png", full_page=True)
        player.screenshot(path="/tmp/room-player-390.png", full_page=True)

        # A message that cannot be sent keeps its text: a private one with nobody chosen is
        # stopped before it leaves, and one the server refuses comes back to the composer.
        _say(gm, "Only for you, Pat.", audience="private")
        expect(gm.locator("#composer-error")).to_have_text(
            "Choose who receives this private message."
        )
        expect(gm.locator("#composer-body")).to_have_value("Only for you, Pat.")
        type(campaign).objects.filter(pk=campaign.pk).update(status="archived")
        _say(player, "Anyone still here?")
        expect(player.locator("#composer-error")).to_have_text(
            "This campaign is archived; its room is read-only."
        )
        expect(player.locator("#composer-body")).to_have_value("Anyone still here?")
        assert player.locator("#timeline li.entry--pending").count() == 0
    finally:
        gm_context.close()
        player_context.close()
