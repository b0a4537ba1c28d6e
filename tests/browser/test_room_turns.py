"""Three browser contexts in a dnd5e room with real turns: a live dnd5e server process, uvicorn
serving the ASGI app against the test database, and the turn worker in Celery's eager mode (the
job runs on commit, in the request's thread). The GM starts combat with a goblin by typing an
action; the players attack until one hits; everyone sees the dice and the goblin's HP change
live, and only the GM ever sees the goblin's exact hit points."""

from __future__ import annotations

import re
import time

import pytest

from apps.domains.client import domain_call
from tests.browser.conftest import table_for
from tests.browser.test_room_live import PASSWORD, _say, _sign_in, asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401

ACTIVE = ("queued", "running", "waiting")

# Where the main column's parts are, in page coordinates (scrolling does not move them).
LAYOUT = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.width, r.height].map(Math.round);
  };
  const one = (selector) => box(document.querySelector(selector));
  return {
    timeline: one(".room__timeline"),
    composer: one("#composer"),
    textarea: one("#composer-body"),
    modes: [...document.querySelectorAll(".composer__modes label")].map(box),
    send: one("#composer button[type=submit]"),
    side: one(".room__side"),
  };
}"""


def _combat(campaign, gm):
    return domain_call(
        system_id="dnd5e", tool="combat_status", arguments={}, requester=gm,
        campaign_id=str(campaign.id),
    ).structured["combat"]  # fmt: skip


def _settle(campaign, jobs, timeout=20):
    """Wait until `jobs` turn jobs exist and none is still in progress."""
    from apps.turns.models import RoomTurnJob

    deadline = time.monotonic() + timeout
    while True:
        rows = list(RoomTurnJob.objects.filter(campaign=campaign).values_list("status", flat=True))
        if len(rows) >= jobs and not any(s in ACTIVE for s in rows):
            return
        assert time.monotonic() < deadline, f"turn jobs did not settle: {rows}"
        time.sleep(0.05)


def _monster_hp(data):
    """Every monster hit-point figure anywhere in a panel JSON document."""
    if isinstance(data, dict):
        found = [data["hp"]] if data.get("kind") == "monster" and "hp" in data else []
        return found + [hp for value in data.values() for hp in _monster_hp(value)]
    if isinstance(data, list):
        return [hp for value in data for hp in _monster_hp(value)]
    return []


def _goblin_row(page):
    return page.locator('#turn-order li[data-kind="monster"]').first


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_combat_dice_and_hp_live_with_monster_hp_for_the_gm_only(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for
    from apps.turns.models import RoomTurnJob

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Goblin Keep",
        players=[("ilsa@example.test", "Ilsa Player"), ("rook@example.test", "Rook Player")],
    )  # fmt: skip
    gm_user, ilsa_user = users["gm@example.test"], users["ilsa@example.test"]
    rook_user = users["rook@example.test"]
    controllers = {}
    for user, name, template in ((ilsa_user, "Ilsa", "fighter"), (rook_user, "Rook", "rogue")):
        binding = character_create_for(
            campaign=campaign, user=user, form_data={"name": name, "template": template, "level": 1}
        )
        controllers[binding.character_id] = user
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"

    contexts = {
        "gm": browser.new_context(viewport={"width": 1440, "height": 900}),
        "ilsa": browser.new_context(viewport={"width": 390, "height": 844}),
        "rook": browser.new_context(viewport={"width": 1024, "height": 800}),
    }
    emails = {"gm": "gm@example.test", "ilsa": "ilsa@example.test", "rook": "rook@example.test"}
    try:
        pages = {who: _sign_in(ctx, asgi_server, emails[who]) for who, ctx in contexts.items()}
        for page in pages.values():
            page.goto(room_url)
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
        gm, ilsa, rook = pages["gm"], pages["ilsa"], pages["rook"]
        players = (ilsa, rook)
        user_page = {gm_user.pk: gm, ilsa_user.pk: ilsa, rook_user.pk: rook}
        # Each player's character card, straight from the domain through the panel API.
        expect(ilsa.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
        expect(rook.locator('#turn-character [data-field="name"]')).to_have_text("Rook")
        expect(ilsa.locator('#turn-character [data-field="ac"]')).to_have_text(re.compile(r"^\d+$"))
        expect(ilsa.locator("#turn-character")).to_contain_text("Armour class")
        expect(gm.locator("#turn-character [data-gm]")).to_contain_text("hit points")
        gm_layout = gm.evaluate(LAYOUT)

        # Job progress: with the worker held back, a turn stays queued; its requester (and the
        # GM) see it with a Cancel button that works from the keyboard.
        with monkeypatch.context() as held:
            held.setattr("apps.turns.services.jobs.enqueue_run", lambda *a, **k: None)
            _say(ilsa, "roll 1d20 for luck", mode="action")
            for page in (ilsa, gm):
                expect(page.locator("#turn-jobs li[data-status=queued]")).to_contain_text("Queued")
            expect(rook.locator("#turn-jobs li")).to_have_count(0)
            ilsa.screenshot(path="/tmp/turns-player-390-queued.png", full_page=True)
            ilsa.locator("#turn-jobs li button").focus()
            ilsa.keyboard.press("Enter")
            for page in (ilsa, gm):
                expect(page.locator("#turn-jobs li")).to_have_count(0)
                expect(page.locator("#turn-jobs-empty")).to_be_visible()
        assert RoomTurnJob.objects.get(campaign=campaign).status == "cancelled"

        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        for page in pages.values():
            expect(page.locator("#turn-combat")).to_be_visible()
            expect(page.locator("#turn-order > li")).to_have_count(3)
            expect(page.locator("#turn-grid")).to_be_visible()
            expect(page.locator("#phase-panel .badge--phase")).to_have_text("Combat")
        goblin = _combat(campaign, gm_user)
        goblin_id = next(e["id"] for e in goblin["order"] if e["character"]["kind"] == "monster")
        # A screen reader hears when the go is the player's own character's, and only then.
        names = {e["id"]: e["character"]["name"] for e in goblin["order"]}
        for character_id, user in controllers.items():
            announcer = user_page[user.pk].locator("#turn-announce")
            if character_id == goblin["current"]:
                expect(announcer).to_have_text(f"Your turn: {names[character_id]}")
            else:
                expect(announcer).not_to_have_text(re.compile("^Your turn"))
        expect(_goblin_row(gm).locator("[data-hp]")).to_have_text("7/7")
        for page in players:
            expect(_goblin_row(page)).to_contain_text("Unhurt")
            expect(_goblin_row(page).locator("[data-hp], meter")).to_have_count(0)
        # The grid is served through the authenticated artifact view, per audience.
        for page in pages.values():
            src = page.locator("#turn-grid").get_attribute("src")
            assert f"/campaigns/{campaign.id}/room/artifacts/" in src
            assert page.evaluate("document.getElementById('turn-grid').naturalWidth") > 0

        # Whoever is up acts: a player attacks the goblin (and ends the turn on a miss), the
        # GM ends the goblin's turn, until a hit lands. The campaign's dice seed is random, and
        # about half of the attacks miss: 30 turns (some 20 attacks) all but rule out a run
        # with no hit (12 turns, some 8 attacks, left it at a few runs in a thousand).
        jobs, attacks, hp = 2, 0, 7
        for _ in range(30):
            combat = _combat(campaign, gm_user)
            current = combat["current"]
            if current in controllers:
                page = user_page[controllers[current].pk]
                expect(page.locator("#turn-announce")).to_have_text(f"Your turn: {names[current]}")
                _say(page, "attack goblin", mode="action")
                jobs += 1
                attacks += 1
                _settle(campaign, jobs)
                # Everyone sees the roll live (the narration is public).
                for viewer in pages.values():
                    expect(viewer.locator('#turn-dice li[data-dice="attack"]')).to_have_count(
                        attacks
                    )
                view = _combat(campaign, gm_user)
                hp = next(e for e in view["order"] if e["id"] == goblin_id)["character"]["hp"]
                if hp["current"] < 7:
                    break
                _say(page, "end turn", mode="action")
            else:
                _say(gm, "end turn", mode="action")
            jobs += 1
            _settle(campaign, jobs)
        else:
            pytest.fail("nobody hit the goblin in 30 turns")

        exact = f"{hp['current']}/7"
        hp_shown = re.compile(r"(?<![\d/])\d+\s*/\s*7(?!\d)")  # "5/7", "5 / 7"
        expect(_goblin_row(gm).locator("[data-hp]")).to_have_text(exact)
        expect(gm.locator('#turn-dice li[data-dice="attack"]').first).to_contain_text("hit")
        word = {0: "(Down|Dead)"}.get(hp["current"], "(Wounded|Bloodied)")
        for page in players:
            expect(_goblin_row(page).locator("[data-status]")).to_have_text(re.compile(word))
            # The status badge says it once: not again among the conditions.
            conditions = _goblin_row(page).locator(".turn-combatant__conditions")
            if conditions.count():
                assert re.search(word, conditions.inner_text()) is None
            expect(page.locator('#turn-dice li[data-dice="attack"]').first).to_contain_text("hit")
            expect(_goblin_row(page).locator("[data-hp], meter")).to_have_count(0)
            panel_text = page.locator("#phase-panel").inner_text()
            assert exact not in panel_text and "/7" not in panel_text
            # Nowhere on the page either: not in the timeline, the dice or any other panel.
            assert hp_shown.search(page.locator("body").inner_text()) is None
        assert hp_shown.search(gm.locator("body").inner_text()) is not None  # the GM's does
        # The per-viewer panel API itself: monster numbers for the GM only.
        panel_url = f"{asgi_server}/api/campaigns/{campaign.id}/room/panel"
        assert _monster_hp(gm.request.get(panel_url).json()) == [hp]
        for page in players:
            document = page.request.get(panel_url).json()
            assert document["audience"] == "players" and _monster_hp(document) == []
        statuses = set(
            RoomTurnJob.objects.filter(campaign=campaign).values_list("status", flat=True)
        )
        assert statuses == {"succeeded", "cancelled"}

        # A cancel that reaches a turn after it ended says so, instead of the row just going.
        done = RoomTurnJob.objects.filter(campaign=campaign, status="succeeded").latest(
            "created_at"
        )
        jobs_url = f"{asgi_server}/api/campaigns/{campaign.id}/room/jobs"
        stale = {**gm.request.get(f"{jobs_url}/{done.pk}").json(), "status": "running"}
        # A page that has not heard the turn end yet (one opened since: this one saw it end,
        # and keeps that) shows it still running, as a socket update not yet in would, and the
        # GM clicks Cancel in the same moment, before the page's own refresh comes back.
        late = gm.context.new_page()
        late.goto(room_url)
        expect(late.locator("#room")).to_have_attribute("data-state", "live")
        expect(late.locator("#turn-jobs-empty")).to_be_visible()
        late.evaluate(
            """job => {
                document.dispatchEvent(new CustomEvent("room:job", {detail: job}));
                document.querySelector(`#turn-jobs li[data-job="${job.id}"] button`).click();
            }""",
            stale,
        )
        expect(late.locator("#turn-jobs-error")).to_have_text(
            "Too late to cancel: the turn finished first (Done)."
        )
        expect(late.locator("#turn-jobs li")).to_have_count(0)
        late.close()

        # Suggestions under the composer (the GM's own turns may have left some the fight has
        # not yet moved past) are the one row that may add to its height: the sizes below are
        # compared without it.
        gm.evaluate("document.getElementById('composer-suggestions').hidden = true")
        # "New messages", shown when entries came while the list was not at its newest, takes
        # a strip under the list: the sizes below are compared with the list at its newest.
        if gm.locator("#timeline-jump").is_visible():
            gm.click("#timeline-jump")
        expect(gm.locator("#timeline-jump")).to_be_hidden()
        # Layout: the GM's side column (initiative, map, dice) is now far taller than the main
        # column, and the composer kept its size and controls, right under the timeline.
        layout = gm.evaluate(LAYOUT)
        bottom = {k: layout[k][1] + layout[k][3] for k in ("side", "composer", "timeline")}
        for part in ("composer", "textarea", "send"):
            assert layout[part][2:] == gm_layout[part][2:], (part, gm_layout, layout)
        assert layout["composer"][1] - bottom["timeline"] <= 17, layout
        assert bottom["side"] > bottom["composer"] + 200, layout

        def modes(boxes, composer):  # height and offset in the composer (width: which is bold)
            return [(box[1] - composer[1], box[3]) for box in boxes]

        assert modes(layout["modes"], layout["composer"]) == modes(
            gm_layout["modes"], gm_layout["composer"]
        )
        # Layout: no horizontal overflow across the supported range.
        for who, page in pages.items():
            width = page.viewport_size["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, who
        gm.screenshot(path="/tmp/turns-gm-1440.png", full_page=True)
        ilsa.screenshot(path="/tmp/turns-player-390.png", full_page=True)
        gm.set_viewport_size({"width": 390, "height": 844})
        ilsa.set_viewport_size({"width": 1440, "height": 900})
        for page in (gm, ilsa):
            assert (
                page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
            )
        gm.screenshot(path="/tmp/turns-gm-390.png", full_page=True)
        ilsa.screenshot(path="/tmp/turns-player-1440.png", full_page=True)
    finally:
        for context in contexts.values():
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_role_change_reloads_the_room_keeping_the_draft_and_credits_say_what_next(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.membership import membership_change_role
    from apps.projections.services import outbox_dispatch_pending
    from apps.quota.models import QuotaAccount
    from apps.quota.services import quota_account_for

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Goblin Keep",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    gm, pat = users["gm@example.test"], users["pat@example.test"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "pat@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        page.fill("#composer-body", "half a thought")

        # Demoted: the page reloads as an observer's, with no composer, and keeps the draft.
        membership_change_role(campaign=campaign, actor=gm, user=pat, role="observer")
        outbox_dispatch_pending()
        expect(page.locator("#composer-body")).to_have_count(0)
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        # Back to playing: the draft is in the composer again.
        membership_change_role(campaign=campaign, actor=gm, user=pat, role="player")
        outbox_dispatch_pending()
        expect(page.locator("#composer-body")).to_have_value("half a thought")

        # Out of credits: why, what to do, and a link to the usage page.
        account = quota_account_for(user=pat)
        QuotaAccount.objects.filter(pk=account.pk).update(balance=0)
        page.fill("#composer-body", "")
        _say(page, "roll 1d20", mode="action")
        error = page.locator("#composer-error")
        expect(error).to_contain_text("You are out of credits: an action needs at least one.")
        expect(error).to_contain_text("Ask staff for a quota grant")
        expect(error.locator("a")).to_have_attribute("href", "/usage/")
        expect(page.locator("#composer-body")).to_have_value("roll 1d20")  # refused, not lost
        # Nothing was said in the room: its empty note is back once the refused line goes.
        expect(page.locator("#timeline li")).to_have_count(0)
        expect(page.locator("#timeline-empty")).to_be_visible()
    finally:
        context.close()
