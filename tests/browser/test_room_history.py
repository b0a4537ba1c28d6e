"""The room page's recent additions, end to end in a real browser against uvicorn: it opens on
the viewer's newest 200 entries with "Load earlier" paging back in place (GM-only entries never
counted or shown for a player); turn suggestions as one-click actions for their requester only;
a draft that survives a reload; action mode without the Private audience; and the character
counter near the limit."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import CampaignMembership
from apps.rooms.selectors import ROOM_PAGE_WINDOW
from tests.browser.conftest import (
    fighters_table,
    gm_and_ilsa_in_the_room,
    in_the_room,
    table_for,
    wait_until_true,
)
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.rooms.factories import make_campaign
from tests.turns.rooms_support import eager  # noqa: F401

ENTRIES = "#timeline li[data-sequence]"
VIEWPORT = {"width": 1280, "height": 900}


def _sequences(page) -> list[int]:
    return page.locator(ENTRIES).evaluate_all("els => els.map(e => Number(e.dataset.sequence))")


TOP = (
    "s => document.querySelector(`#timeline li[data-sequence='${s}']`).getBoundingClientRect().top"
)
SCROLLER = "document.querySelector('.room__timeline')"


def _steady(page, expression: str, arg=None) -> float:
    """The value of `expression` once it reads the same four times running (nothing scrolls),
    each read two frames after the last: scrolling moves by frames, and a renderer starved on
    a loaded machine can draw none for longer than the pause between reads."""
    after_frames = (
        "async (arg) => { await new Promise((done) => requestAnimationFrame("
        f"() => requestAnimationFrame(done))); return ({expression})(arg); }}"
    )
    last, same = None, 0
    for _ in range(100):
        now = page.evaluate(after_frames, arg)
        same = same + 1 if now == last else 0
        if same == 3:
            return now
        last = now
        page.wait_for_timeout(60)
    raise AssertionError(f"{expression} kept changing (last {last})")


def _open(page, url):
    from playwright.sync_api import expect

    page.goto(url)
    # A long room must not be slow to open, yet a loaded 2-CPU machine may take a few seconds
    # to answer a module's first socket: 15 s, not the default 5, so only a real stall fails.
    expect(page.locator("#room")).to_have_attribute("data-state", "live", timeout=15_000)


def _gm_and_player(make_user):
    """A campaign of Gail GM (gm@example.test) and one player, Pat (player@example.test):
    (campaign, GM membership, player membership)."""
    gm_user = make_user("gm@example.test", display_name="Gail GM")
    player_user = make_user("player@example.test", display_name="Pat Player")
    campaign, (gm_m, player_m) = make_campaign(
        gm_user, (player_user, CampaignMembership.Role.PLAYER)
    )
    return campaign, gm_m, player_m


def _to_timeline_top(page):
    """The reader scrolls up to the oldest entry shown (once the page's own scrolling is over)."""
    _steady(page, f"() => {SCROLLER}.scrollTop")
    for _ in range(5):
        page.evaluate(f"{SCROLLER}.scrollTo({{top: 0, behavior: 'instant'}})")
        if _steady(page, f"() => {SCROLLER}.scrollTop") == 0:
            return
    raise AssertionError("the timeline did not stay scrolled to the top")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_long_room_opens_on_newest_200_and_loads_earlier_in_place_without_gm_only_entries(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, player_m = _gm_and_player(make_user)
    # 230 public chat messages, and 20 GM-only narrations among them (both in the part a
    # player's window skips and in the part it shows).
    secret = {5 + 12 * k for k in range(20)}
    for seq in range(1, 251):
        if seq in secret:
            room_message_post(
                membership=gm_m, body=f"Secret {seq}", mode="narration",
                audience="gm", client_message_id=f"seed-{seq}",
            )  # fmt: skip
        else:
            room_message_post(
                membership=(gm_m, player_m)[seq % 2], body=f"Message {seq}", mode="chat",
                client_message_id=f"seed-{seq}",
            )  # fmt: skip
    everything = list(range(1, 251))
    public = [s for s in everything if s not in secret]
    assert len(public) == 230 and ROOM_PAGE_WINDOW == 200
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"

    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        player = _sign_in(contexts[1], asgi_server, "player@example.test")
        moved = {}  # how far each entry on screen moved when the earlier ones came in
        for who, page, visible in (("player", player, public), ("gm", gm, everything)):
            _open(page, room_url)
            window, older = visible[-200:], visible[:-200]
            expect(page.locator(ENTRIES)).to_have_count(200)
            assert _sequences(page) == window
            earlier = page.locator("#timeline-earlier")
            expect(earlier).to_be_visible()
            expect(earlier).to_have_text("Load earlier messages")

            # The reader scrolls up to the oldest entry shown and asks for more.
            _to_timeline_top(page)
            anchors = window[:3]
            before = {s: _steady(page, TOP, s) for s in anchors}
            earlier.click()
            expect(page.locator(ENTRIES).first).to_have_attribute("data-sequence", "1")
            expect(page.locator(ENTRIES)).to_have_count(len(visible))
            expect(earlier).to_be_hidden()
            assert _sequences(page) == visible
            # The entries already on screen stay where they were.
            after = {s: _steady(page, TOP, s) for s in anchors}
            moved[who] = {s: round(after[s] - before[s], 1) for s in anchors}
            assert len(older) == (30 if page is player else 50)

        bodies = player.locator(f"{ENTRIES} .entry__body").all_inner_texts()
        assert not [b for b in bodies if b.startswith("Secret")]
        assert player.locator(f"{ENTRIES} .badge--gm").count() == 0
        assert gm.locator(f"{ENTRIES} .badge--gm").count() == 20
        # The reader's place is kept.
        assert all(abs(d) <= 2 for shifts in moved.values() for d in shifts.values()), moved
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_suggestions_are_the_requesters_one_click_actions_and_not_replayed(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Goblin Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        for page in (gm, ilsa):
            expect(page.locator("#composer-suggestions")).to_be_hidden()

        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)
        event = Message.objects.get(room__campaign=campaign, event_type="turn.suggestions")
        offered = event.data["suggestions"]
        assert "end turn" in offered and len(offered) >= 2, offered
        box = gm.locator("#composer-suggestions")
        expect(box).to_be_visible()
        expect(box.locator("button")).to_have_text(offered)
        expect(box).to_contain_text("Try:")

        # One click: the text in the composer, as an action.
        gm.check("input[name=mode][value=chat]")
        box.locator("button").first.click()
        expect(gm.locator("#composer-body")).to_have_value(offered[0])
        expect(gm.locator("#composer-body")).to_be_focused()
        expect(gm.locator("input[name=mode][value=action]")).to_be_checked()
        expect(gm.locator("input[name=audience][value=private]")).to_be_disabled()

        # Sending clears them (the worker is held back: this turn brings no new ones).
        with monkeypatch.context() as held:
            held.setattr("apps.turns.services.jobs.enqueue_run", lambda *a, **k: None)
            gm.press("#composer-body", "Enter")
            expect(box).to_be_hidden()
            expect(box.locator("button")).to_have_count(0)
            expect(gm.locator("#composer-body")).to_have_value("")
            # The action reached everyone; the player, past the suggestions event, saw none.
            for page in (gm, ilsa):
                expect(page.locator(f"{ENTRIES} .entry__body").last).to_have_text(offered[0])
            expect(ilsa.locator("#composer-suggestions")).to_be_hidden()
            expect(ilsa.locator("#composer-suggestions button")).to_have_count(0)

            # A reload replays the (now stale) suggestions event: it is not shown again.
            gm.reload()
            expect(gm.locator("#room")).to_have_attribute("data-state", "live")
            assert gm.evaluate("window.sagasmithRoom.lastSeq()") > event.sequence
            expect(gm.locator(ENTRIES).last.locator(".entry__body")).to_have_text(offered[0])
            expect(gm.locator("#composer-suggestions")).to_be_hidden()
            expect(gm.locator("#composer-suggestions button")).to_have_count(0)

        # Offered to a player alone: the GM, who reads every private entry, is not offered it
        # (a click would have had the GM end the player's turn).
        from apps.rooms.services import room_event_record

        offer = room_event_record(
            campaign=campaign, event_type="turn.suggestions",
            data={"job_id": "elsewhere", "suggestions": ["end turn"]},
            audience=Message.Audience.PRIVATE, recipient_ids=[str(_users["ilsa@example.test"].id)],
        )  # fmt: skip
        expect(ilsa.locator("#composer-suggestions button")).to_have_text(["end turn"])
        wait_until_true(gm, f"window.sagasmithRoom.lastSeq() >= {offer.sequence}")
        expect(gm.locator("#composer-suggestions")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_composer_draft_action_audience_and_character_counter(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, _player_m = _gm_and_player(make_user)
    for n in range(1, 4):
        room_message_post(
            membership=gm_m, body=f"Message {n}", mode="chat", client_message_id=f"seed-{n}"
        )
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    context = browser.new_context(viewport=VIEWPORT)
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        _open(gm, room_url)
        # A short room: everything shown, nothing earlier to load.
        expect(gm.locator(ENTRIES)).to_have_count(3)
        expect(gm.locator("#timeline-earlier")).to_be_hidden()

        # The draft survives a reload, and is gone once sent.
        body = gm.locator("#composer-body")
        body.fill("I open the door slowly")
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        expect(body).to_have_value("I open the door slowly")
        body.press("Enter")
        expect(gm.locator(f"{ENTRIES} .entry__body").last).to_have_text("I open the door slowly")
        expect(body).to_have_value("")
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        expect(gm.locator(ENTRIES)).to_have_count(4)
        expect(body).to_have_value("")

        # How the draft was to be sent survives with it: mode, audience and recipients.
        for mode, audience in (("action", "gm"), ("narration", "gm"), ("chat", "private")):
            gm.check(f"input[name=mode][value={mode}]")
            gm.check(f"input[name=audience][value={audience}]")
            if audience == "private":
                gm.check(f"input[name=recipients][value='{_player_m.user_id}']")
            body.fill(f"A {mode} draft")
            gm.reload()
            expect(gm.locator("#room")).to_have_attribute("data-state", "live")
            expect(body).to_have_value(f"A {mode} draft")
            expect(gm.locator("input[name=mode]:checked")).to_have_value(mode)
            expect(gm.locator("input[name=audience]:checked")).to_have_value(audience)
            recipients = gm.locator("input[name=recipients]:checked")
            if audience == "private":
                expect(gm.locator("#recipients")).to_be_visible()
                expect(recipients).to_have_value(str(_player_m.user_id))
            else:
                expect(recipients).to_have_count(0)
        # Mid-fight with nothing typed yet, a reload keeps Action: the next "attack goblin"
        # must not go out as chat.
        body.fill("")
        gm.check("input[name=mode][value=action]")
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        expect(gm.locator("input[name=mode]:checked")).to_have_value("action")
        expect(body).to_have_value("")
        # Sending nothing says why nothing was sent.
        body.fill("   ")
        body.press("Enter")
        expect(gm.locator("#composer-error")).to_have_text("Type something to send first.")
        expect(body).to_have_value("")
        expect(body).to_be_focused()
        expect(gm.locator(ENTRIES)).to_have_count(4)
        body.fill("")
        gm.check("input[name=mode][value=chat]")
        gm.check("input[name=audience][value=public]")
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        expect(body).to_have_value("")
        expect(gm.locator("input[name=mode]:checked")).to_have_value("chat")

        # Action mode: no Private audience; a chosen Private falls back to GM only, the
        # narrowest an action has (never to Everyone: private words must not go public).
        private = gm.locator("input[name=audience][value=private]")
        gm.check("input[name=audience][value=private]")
        expect(gm.locator("#recipients")).to_be_visible()
        gm.check("input[name=mode][value=action]")
        expect(private).to_be_disabled()
        expect(private).not_to_be_checked()
        expect(gm.locator("input[name=audience][value=gm]")).to_be_checked()
        expect(gm.locator("#recipients")).to_be_hidden()
        gm.check("input[name=mode][value=chat]")
        expect(private).to_be_enabled()
        gm.check("input[name=audience][value=gm]")
        gm.check("input[name=mode][value=action]")
        expect(private).to_be_disabled()
        expect(gm.locator("input[name=audience][value=gm]")).to_be_checked()  # GM only stays
        gm.check("input[name=mode][value=narration]")
        expect(private).to_be_enabled()
        gm.check("input[name=mode][value=chat]")
        gm.check("input[name=audience][value=public]")

        # The counter: hidden until fewer than 400 of the 4000 characters are left.
        counter = gm.locator("#composer-count")
        expect(counter).to_be_hidden()
        body.fill("x" * 3500)
        expect(counter).to_be_hidden()
        body.fill("x" * 3601)
        expect(counter).to_be_visible()
        expect(counter).to_have_text("399 characters left")
        body.fill("x" * 3990)
        expect(counter).to_have_text("10 characters left")
        body.fill("x" * 3700)
        expect(counter).to_have_text("300 characters left")
        body.press("Enter")  # sent: the composer and its counter start again
        expect(body).to_have_value("")
        expect(counter).to_be_hidden()
        expect(gm.locator(ENTRIES)).to_have_count(5)
        body.fill("x" * 3600)  # exactly 400 left: not yet "fewer than 400"
        expect(counter).to_be_hidden()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_with_two_characters_acts_as_whichever_has_the_turn(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from tests.browser.test_room_turns import _combat

    campaign, users, mine = fighters_table(make_user, name="Two Hands", fighters=("Thorin", "Pip"))
    gm_user = users["gm@example.test"]
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        acting_as = ilsa.locator("#composer-character")
        expect(acting_as.locator("option")).to_have_text(["Thorin", "Pip"])
        # A reload keeps an action draft an action, by the character chosen for it.
        pip = next(cid for cid, name in mine.items() if name == "Pip")
        card_name = ilsa.locator('#turn-character [data-field="name"]')
        expect(card_name).to_have_text("Thorin")
        acting_as.select_option(pip)
        expect(card_name).to_have_text("Pip")  # the card is the character one acts as
        ilsa.check("input[name=mode][value=action]")
        ilsa.fill("#composer-body", "I hide behind the barrel")
        ilsa.reload()
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        expect(ilsa.locator("#composer-body")).to_have_value("I hide behind the barrel")
        expect(ilsa.locator("input[name=mode]:checked")).to_have_value("action")
        expect(acting_as).to_have_value(pip)
        expect(card_name).to_have_text("Pip")
        ilsa.fill("#composer-body", "")
        expect(gm.locator("#composer-character")).to_have_count(0)  # the GM plays no one here

        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)
        ended = []
        for n in range(3):  # Thorin, Pip and the goblin each have one turn in the round
            current = _combat(campaign, gm_user)["current"]
            if current in mine:
                # The composer follows the turn: the character whose turn it is acts.
                expect(acting_as).to_have_value(current)
                expect(card_name).to_have_text(mine[current])
                _say(ilsa, "end turn", mode="action")
                ended.append(mine[current])
            else:
                _say(gm, "end turn", mode="action")
            _settle(campaign, 2 + n)
            assert _combat(campaign, gm_user)["current"] != current
        assert sorted(ended) == ["Pip", "Thorin"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_messages_held_back_by_the_rate_limit_still_arrive_in_the_order_written(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _gm_m, _player_m = _gm_and_player(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        throttled = []

        def first_post_throttled(route):
            if route.request.method == "POST" and not throttled:
                throttled.append(route.request.post_data_json["body"])
                route.fulfill(
                    status=429, headers={"Retry-After": "1"}, content_type="application/json",
                    body='{"error": {"code": "throttled", "message": "Too many requests.", '
                         '"retryable": true, "recovery": "", "details": {}}}',
                )  # fmt: skip
            else:
                route.continue_()

        gm.route("**/room/messages", first_post_throttled)
        for n in (1, 2, 3):
            _say(gm, f"Line {n}")
        # The first waits out Retry-After, saying so; the others wait behind it.
        expect(gm.locator(".entry--pending .entry__pending").first).to_have_text(
            "Sending too fast — retrying in 1 s"
        )
        # Under the sender's own name, as it will be once sent.
        expect(gm.locator(".entry--pending .entry__sender").first).to_have_text("Gail GM (you)")
        expect(gm.locator(ENTRIES)).to_have_count(3, timeout=10_000)
        assert gm.locator(f"{ENTRIES} .entry__body").all_inner_texts() == [
            "Line 1", "Line 2", "Line 3"
        ]  # fmt: skip
        assert throttled == ["Line 1"]


GAP = f"() => Math.round({SCROLLER}.scrollHeight - {SCROLLER}.scrollTop - {SCROLLER}.clientHeight)"
# Whether the newest entry's bottom edge is inside the timeline's visible box.
NEWEST_IN_VIEW = f"""() => {{
  const box = {SCROLLER}.getBoundingClientRect();
  const last = [...document.querySelectorAll("{ENTRIES}")].pop().getBoundingClientRect();
  return last.bottom <= box.bottom + 1 && last.bottom > box.top;
}}"""
# The GM posts `n` chat messages at once, as a busy table does, straight to the API.
BURST = """async ([url, n, tag]) => {
  const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
  const post = (i) => fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf,
              "Idempotency-Key": `burst-${tag}-${i}`},
    body: JSON.stringify({body: `${tag} ${i}\\nsecond line\\nthird line`, mode: "chat",
                          audience: "public", recipients: [],
                          client_message_id: `burst-${tag}-${i}`}),
  }).then((r) => r.status);
  return Promise.all([...Array(n).keys()].map(post));
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_timeline_opens_at_the_newest_entry_and_follows_bursts_unless_the_reader_scrolled_up(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, player_m = _gm_and_player(make_user)
    for seq in range(1, 201):
        room_message_post(
            membership=(gm_m, player_m)[seq % 2], body=f"Message {seq}\nwith a second line",
            mode="chat", client_message_id=f"seed-{seq}",
        )  # fmt: skip
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    messages_url = f"/api/campaigns/{campaign.id}/room/messages"
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        player = _sign_in(contexts[1], asgi_server, "player@example.test")
        _open(gm, room_url)
        # Opened, and opened again: the newest entry in view, the list at its very bottom.
        for _ in range(2):
            _open(player, room_url)
            expect(player.locator(ENTRIES)).to_have_count(200)
            assert _steady(player, GAP) == 0
            assert player.evaluate(NEWEST_IN_VIEW) is True
            player.reload()
        _open(player, room_url)
        assert _steady(player, GAP) == 0

        # A burst from the table: the watching player stays on the newest entry.
        for burst in range(3):
            statuses = gm.evaluate(BURST, [messages_url, 15, f"Burst{burst}"])
            assert statuses == [201] * 15
            expect(player.locator(ENTRIES)).to_have_count(200 + 15 * (burst + 1))
            assert _steady(player, GAP) == 0
            assert player.evaluate(NEWEST_IN_VIEW) is True

        # A reader who scrolled up to read history is left there while the table talks...
        player.mouse.move(400, 300)
        player.mouse.wheel(0, -1500)
        up = _steady(player, f"() => {SCROLLER}.scrollTop")
        assert _steady(player, GAP) >= 1400
        assert gm.evaluate(BURST, [messages_url, 5, "Later"]) == [201] * 5
        expect(player.locator(ENTRIES)).to_have_count(250)
        assert _steady(player, f"() => {SCROLLER}.scrollTop") == up
        assert player.evaluate(NEWEST_IN_VIEW) is False
        # ...and follows again once back at the bottom.
        player.mouse.wheel(0, 100_000)
        assert _steady(player, GAP) == 0
        assert gm.evaluate(BURST, [messages_url, 5, "Again"]) == [201] * 5
        expect(player.locator(ENTRIES)).to_have_count(255)
        assert _steady(player, GAP) == 0
        assert player.evaluate(NEWEST_IN_VIEW) is True
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_usage_ledger_link_opens_the_room_at_that_turn(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.quota import services as quota
    from apps.quota.models import QuotaGrant
    from apps.rooms.services import room_message_post
    from apps.turns.models import RoomTurnJob

    campaign, gm_m, player_m = _gm_and_player(make_user)
    # Pat's action is entry 20 of 250: older than the 200 the room opens on.
    for seq in range(1, 251):
        action = seq == 20
        room_message_post(
            membership=player_m if action else (gm_m, player_m)[seq % 2],
            body="I open the door" if action else f"Message {seq}",
            mode="action" if action else "chat", client_message_id=f"seed-{seq}",
        )  # fmt: skip
    door = campaign.room.messages.get(sequence=20)
    assert door.body == "I open the door"
    # The turn it started was charged to Pat, as turn_action_submit and the run settle it.
    account = quota.quota_account_for(user=player_m.user)
    quota.quota_grant(account=account, amount=10, source=QuotaGrant.Source.SYSTEM)
    job_id = uuid.uuid4()
    reservation = quota.quota_reserve(
        user=player_m.user, amount=3, key=f"room_turn:{job_id}",
        owner_type="room_turn", owner_id=str(job_id),
    )  # fmt: skip
    RoomTurnJob.objects.create(
        id=job_id, campaign=campaign, requester=player_m.user, trigger_message=door,
        idempotency_key=str(job_id), request_hash="0" * 64, text=door.body,
        available_at=timezone.now(), reservation=reservation,
    )  # fmt: skip
    quota.quota_settle(reservation=reservation, actual=2)

    # A window as short as a phone held sideways too, where the list fills it below the room's
    # head and centring the entry in the window would scroll the page.
    for viewport in (VIEWPORT, {"width": 390, "height": 844}, {"width": 844, "height": 390}):
        context = browser.new_context(viewport=viewport)
        try:
            page = _sign_in(context, asgi_server, "player@example.test")
            page.goto(f"{asgi_server}/usage/")
            link = page.locator("#usage-ledger a")
            expect(link).to_have_attribute("href", f"/campaigns/{campaign.id}/room/#entry-20")
            link.click()
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
            # The room opens a few entries before it, through to the newest, with it marked
            # and in view; "Load earlier" still pages back from there.
            assert _sequences(page) == list(range(15, 251))
            target = page.locator("#timeline li.entry--target")
            expect(target).to_have_count(1)
            expect(target).to_have_attribute("data-sequence", "20")
            expect(target.locator(".entry__body")).to_have_text("I open the door")
            expect(target).to_have_attribute("aria-current", "true")
            expect(target).to_be_focused()
            # Whole in view, the list alone scrolled to it: the page stays at its top, the
            # room's head in view.
            expect(target).to_be_in_viewport(ratio=1)
            assert page.evaluate("window.scrollY") == 0
            expect(page.locator("#timeline-earlier")).to_be_visible()
            # Scrolling of the page's own (the replay, new entries) does not carry it away.
            _steady(page, f"() => {SCROLLER}.scrollTop")
            expect(target).to_be_in_viewport(ratio=1)
            assert page.evaluate("window.scrollY") == 0

            # One among the newest, mid-list: the same.
            page.goto("about:blank")
            _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/#entry-150")
            target = page.locator("#timeline li.entry--target")
            expect(target).to_have_attribute("data-sequence", "150")
            expect(target).to_be_focused()
            _steady(page, f"() => {SCROLLER}.scrollTop")
            expect(target).to_be_in_viewport(ratio=1)
            assert page.evaluate("window.scrollY") == 0
        finally:
            context.close()
