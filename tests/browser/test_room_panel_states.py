"""The room's side panels and composer as a player's situation changes, in Chromium against
uvicorn: a removed player's panels stop refreshing and are cleared; leaving the page with a
message still unsent asks first; a dying character is not shown as dead in the initiative list;
and the character card offers "Create a character" only while the campaign's phase allows it."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room, in_the_room, table_for
from tests.browser.test_room_feedback import _domain_revision, _drop_to_zero
from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _combat, _settle
from tests.turns.rooms_support import eager  # noqa: F401

VIEWPORT = {"width": 1280, "height": 900}
# A state.changed frame as the socket delivers it: the panels refresh on it.
STATE_CHANGED = """() => document.dispatchEvent(new CustomEvent("room:event",
  {detail: {type: "event", event_type: "state.changed", payload: {}}}))"""
# The same frame every few milliseconds; returns the interval's id.
KEEP_REFRESHING = """() => setInterval(() => document.dispatchEvent(new CustomEvent("room:event",
  {detail: {type: "event", event_type: "state.changed", payload: {}}})), 5)"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("socket_told", [True, False], ids=["socket-told", "panel-answer-only"])
def test_a_removed_players_panels_stop_refreshing_and_are_cleared(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    socket_told,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.projections.services import outbox_dispatch_pending
    from tests.rooms.factories import remove_member

    campaign, users, _mine = fighters_table(make_user, name="Shown The Door", fighters=("Ilsa",))
    ilsa_m = CampaignMembership.objects.get(campaign=campaign, user=users["ilsa@example.test"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        in_flight: set = set()
        ilsa.on("request", lambda r: in_flight.add(r) if "/room/panel" in r.url else None)
        ilsa.on("requestfinished", lambda r: in_flight.discard(r))
        ilsa.on("requestfailed", lambda r: in_flight.discard(r))
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)
        sheet = ilsa.locator("#turn-character [data-sheet]")
        expect(sheet.locator('[data-field="name"]')).to_have_text("Ilsa")
        expect(ilsa.locator("#turn-order li")).to_have_count(2)
        # The turn's own refreshes are over: one still on its way when access ends would end
        # the panels itself (404), before the state change below asks again.
        quiet_since = deadline = time.monotonic()
        while time.monotonic() - quiet_since < 0.5:
            assert time.monotonic() - deadline < 15, "the panel kept asking"
            ilsa.wait_for_timeout(50)
            if in_flight:
                quiet_since = time.monotonic()

        panel_requests: list[float] = []
        ilsa.on(
            "request",
            lambda r: panel_requests.append(time.monotonic()) if "/room/panel" in r.url else None,
        )
        if socket_told:
            # Removed as the service does it: the room's socket is told and closes.
            remove_member(ilsa_m)
            outbox_dispatch_pending()
            expect(ilsa.locator("#room")).to_have_attribute("data-state", "closed")
            expect(ilsa.locator("#room-status")).to_have_text(
                "You no longer have access to this room."
            )
        else:
            # The socket has not heard yet: the panel's own answer (404) says access ended.
            CampaignMembership.objects.filter(pk=ilsa_m.pk).update(
                status=CampaignMembership.Status.REMOVED
            )
        # A state change that was already on its way asks the panels to refresh.
        ilsa.evaluate(STATE_CHANGED)
        ilsa.wait_for_timeout(6500)  # longer than the 5 s retry
        assert len(panel_requests) == (0 if socket_told else 1), panel_requests

        # Nothing of what this viewer may no longer see stays on the page, and no "retrying".
        expect(sheet).to_be_hidden()
        expect(ilsa.locator("#turn-character [data-create-character]")).to_be_hidden()
        expect(ilsa.locator("#turn-combat")).to_be_hidden()
        expect(ilsa.locator("#turn-order li")).to_have_count(0)
        expect(ilsa.locator("#turn-jobs-error")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_leaving_with_a_message_still_unsent_asks_first(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    campaign, _gm_m, _player_m = _gm_and_player(make_user)
    context = browser.new_context(viewport=VIEWPORT)
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
        _open(gm, room_url)
        dialogs: list[str] = []

        def stay(dialog):
            dialogs.append(dialog.type)
            dialog.dismiss()  # "Stay on page"

        gm.on("dialog", stay)

        # Sent and shown: nothing to lose, the reload just happens.
        _say(gm, "Line 1")
        expect(gm.locator("#timeline li[data-sequence] .entry__body")).to_have_text(["Line 1"])
        gm.reload()
        expect(gm.locator("#room")).to_have_attribute("data-state", "live")
        assert dialogs == []

        throttled = []

        def first_post_throttled(route):
            if route.request.method == "POST" and not throttled:
                throttled.append(route.request.post_data_json["body"])
                route.fulfill(
                    status=429, headers={"Retry-After": "3"}, content_type="application/json",
                    body='{"error": {"code": "throttled", "message": "Too many requests.", '
                         '"retryable": true, "recovery": "", "details": {}}}',
                )  # fmt: skip
            else:
                route.continue_()

        gm.route("**/room/messages", first_post_throttled)
        _say(gm, "Line 2")
        expect(gm.locator(".entry--pending .entry__pending")).to_have_text(
            "Sending too fast — retrying in 3 s"
        )
        # Held back: leaving asks first, and staying keeps it on its way.
        gm.close(run_before_unload=True)
        try:
            gm.wait_for_event("dialog", timeout=5000)
        except PlaywrightError:  # closed (or timed out) without asking
            pass
        assert dialogs == ["beforeunload"], "the page closed without asking"
        assert not gm.is_closed()
        expect(gm.locator("#timeline li[data-sequence] .entry__body")).to_have_text(
            ["Line 1", "Line 2"], timeout=10_000
        )
        assert throttled == ["Line 2"]

        # Sent: closing asks nothing.
        with gm.expect_event("close"):
            gm.close(run_before_unload=True)
        assert dialogs == ["beforeunload"]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_dying_character_is_not_shown_as_dead_in_the_initiative_list(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.authority import campaign_refresh
    from apps.domains.client import domain_call

    campaign, users, mine = fighters_table(make_user, name="Still Breathing", fighters=("Ilsa",))
    gm_user, (ilsa_id,) = users["gm@example.test"], mine
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        # Ilsa at 0 HP, dying; then the goblin she fights is killed outright.
        _drop_to_zero(campaign, gm_user, ilsa_id)
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        (goblin_id,) = [e["id"] for e in _combat(campaign, gm_user)["order"] if e["id"] != ilsa_id]
        domain_call(
            system_id="dnd5e", tool="damage_apply", requester=gm_user,
            campaign_id=str(campaign.id),
            arguments={"target_id": goblin_id, "amount": 100, "idempotency_key": "goblin-falls",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
        assert goblin_id in [e["id"] for e in _combat(campaign, gm_user)["order"]]
        campaign_refresh(campaign=campaign, requester=gm_user)  # the panels learn of it
        ilsa = _sign_in(contexts[1], asgi_server, "ilsa@example.test")
        gm.reload()
        for page in (gm, ilsa):
            _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
            dying = page.locator(f'#turn-order li[data-id="{ilsa_id}"]')
            dead = page.locator(f'#turn-order li[data-id="{goblin_id}"]')
            expect(dying).to_have_class(re.compile(r"(^| )is-dying( |$)"))
            expect(dying).not_to_have_class(re.compile(r"(^| )is-out( |$)"))
            expect(dead).to_have_class(re.compile(r"(^| )is-out( |$)"))
            expect(dead).not_to_have_class(re.compile(r"(^| )is-dying( |$)"))
            # Said in words (screen readers too), and not struck through like the dead.
            expect(dying.locator(".turn-combatant__dying")).to_have_text("Dying")
            expect(dead.locator(".turn-combatant__dying")).to_have_count(0)
            # Every panel refresh redraws the list, and a row read just as it is replaced has
            # no style at all: the checks hold while refreshes keep coming.
            redrawing = page.evaluate(KEEP_REFRESHING)
            name = ".turn-combatant__name"
            expect(dying.locator(name)).to_have_css("text-decoration-line", "none")
            expect(dead.locator(name)).to_have_css("text-decoration-line", "line-through")
            page.evaluate("id => clearInterval(id)", redrawing)
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_create_a_character_is_offered_only_outside_combat(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="No Time To Roll",
        players=[("ilsa@example.test", "Ilsa Player"), ("pat@example.test", "Pat Player")],
    )  # fmt: skip
    character_create_for(
        campaign=campaign, user=users["ilsa@example.test"],
        form_data={"name": "Ilsa", "template": "fighter", "level": 1},
    )  # fmt: skip
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)

        # Pat, with no character, opens the room during the fight.
        pat = _sign_in(contexts[1], asgi_server, "pat@example.test")
        _open(pat, f"{asgi_server}/campaigns/{campaign.id}/room/")
        create = pat.locator("#turn-character [data-create-character]")
        closed = pat.locator("#turn-character [data-create-closed]")
        expect(pat.locator("#turn-order li")).to_have_count(2)
        expect(create).to_be_hidden()
        expect(closed).to_be_visible()
        expect(closed).to_have_text(
            "New characters can't be created during combat: you can create one once it ends."
        )

        # The fight ends: the link is back, without a reload.
        _say(gm, "end combat", mode="action")
        _settle(campaign, 2)
        expect(create).to_be_visible()
        expect(closed).to_be_hidden()
        expect(create).to_have_attribute("href", f"/campaigns/{campaign.id}/characters/new")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_whose_character_died_is_shown_the_way_to_a_new_one(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.authority import campaign_refresh

    campaign, users, mine = fighters_table(make_user, name="Last Stand", fighters=["Ilsa"])
    gm_user, (ilsa_id,) = users["gm@example.test"], mine
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        card = ilsa.locator("#turn-character")
        fallen = card.locator("[data-fallen]")
        create = card.locator("[data-create-character]")
        expect(card.locator('[data-field="name"]')).to_have_text("Ilsa")
        expect(fallen).to_be_hidden()
        expect(create).to_be_hidden()  # alive: her card, no "Create a character"

        for key in ("down", "dead"):
            _drop_to_zero(campaign, gm_user, ilsa_id, key=key)
        campaign_refresh(campaign=campaign, requester=gm_user)
        expect(card.locator('[data-field="status"]')).to_have_text("Dead")
        # Said once, by the status badge: not again among the conditions.
        conditions = card.locator('[data-field="conditions"]').inner_text().split(", ")
        assert "dead" not in conditions, conditions
        expect(fallen).to_have_text("Ilsa is dead. You can play on with a new character.")
        expect(create).to_be_visible()
        expect(create).to_have_attribute("href", f"/campaigns/{campaign.id}/characters/new")
        # During a fight the way is named, not offered.
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        expect(create).to_be_hidden()
        expect(card.locator("[data-create-closed]")).to_be_visible()
        expect(gm.locator("#turn-character [data-fallen]")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_character_bound_without_its_private_sheet_shows_who_not_the_sheet(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import binding_set, character_create_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Borrowed Blade",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    gm_user = users["gm@example.test"]
    brann = character_create_for(
        campaign=campaign, user=gm_user,
        form_data={"name": "Brann", "template": "fighter", "level": 1},
    )  # fmt: skip
    binding_set(campaign=campaign, actor=gm_user, user=users["ilsa@example.test"],
                character_id=brann.character_id, can_view_private=False)  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (ilsa,):
        card = ilsa.locator("#turn-character")
        expect(card.locator('[data-field="name"]')).to_have_text("Brann")
        expect(card.locator("[data-sheet-private]")).to_have_text(
            "The GM keeps this character’s sheet private."
        )
        expect(card.locator(".turn-character__facts")).to_be_hidden()
        expect(card.locator(".turn-character__hp")).to_be_hidden()
        expect(card.locator("[data-empty]")).to_be_hidden()
        expect(card.locator("[data-create-character]")).to_be_hidden()
