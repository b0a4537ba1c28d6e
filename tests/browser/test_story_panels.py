"""The narrative room's story in the side column, in Chromium against live domain servers: the GM
opens a scene, creates and advances a clock and records a public and a GM-only fact by typing
actions; the GM and a player see the scene, clocks and facts change live, the GM-only fact on the
GM's page only. Turns in progress say what was asked and by whom; a player without a character
gets a link to create one (the GM and observers do not); a dnd5e room has no story sections."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_panels_ui import DND_WORDS
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

STORY = "#turn-scene, #turn-clocks, #turn-facts, #turn-threads"
LONG_ACTION = (
    "describe the harbour at dusk while the fog rolls in over the black water and every bell "
    "in the old town starts to ring"
)
PUBLIC_FACT = "The ferryman smuggles salt past the harbour watch every new moon"
SECRET_FACT = "The lantern keeper is the ferryman's sister"

# A panel response with threads added (the scripted agent has no words for threads), and a
# clock and a fact with long unbroken names, to see the story wrap in a narrow column.
EXTRA_STORY = {
    "threads": [
        {"id": "thread-1", "title": "Who drowned the lantern?", "status": "resolved",
         "description": "", "resolution": "The keeper, to hide the salt."},
        {"id": "thread-2", "title": "Find the Saltwives' hidden cove before the tide turns",
         "status": "open", "description": "Somewhere past the breakwater.", "resolution": None},
    ],
    "clock": {"id": "clock-99", "name": "Harbourmaster-Vandersloot-Hendrikszoon grows suspicious",
              "segments": 12, "filled": 12},
}  # fmt: skip

REFRESH = """() => document.dispatchEvent(new CustomEvent("room:event",
  {detail: {type: "event", event_type: "state.changed", payload: {}}}))"""


SHORT_ACTION = "describe the harbour at dusk while the fog rolls in over…"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_narrative_story_live_per_viewer_job_rows_and_create_character_link(
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
        make_user, system_id="narrative", name="Fog Harbour",
        players=[("nia@example.test", "Nia Player"), ("olu@example.test", "Olu Player")],
        observers=[("obs@example.test", "Oona Observer")],
    )  # fmt: skip
    gm_user, nia_user = users["gm@example.test"], users["nia@example.test"]
    character_create_for(campaign=campaign, user=nia_user, form_data={"name": "Nia", "tags": ""})
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"
    new_character = f"/campaigns/{campaign.id}/characters/new"

    emails = {
        "gm": "gm@example.test",
        "nia": "nia@example.test",
        "olu": "olu@example.test",
        "obs": "obs@example.test",
    }
    contexts = {who: browser.new_context(viewport={"width": 1440, "height": 900}) for who in emails}
    try:
        pages = {who: _sign_in(ctx, asgi_server, emails[who]) for who, ctx in contexts.items()}
        for page in pages.values():
            page.goto(room_url)
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
        gm, nia, olu, obs = pages["gm"], pages["nia"], pages["olu"], pages["obs"]
        viewers = (gm, nia)

        # A player without a character gets the way forward; the GM and an observer do not.
        link = olu.locator("#turn-character [data-create-character]")
        expect(link).to_be_visible()
        expect(link).to_have_text("Create a character")
        expect(link).to_have_attribute("href", new_character)
        expect(obs.locator("#turn-character [data-empty]")).to_be_visible()
        for page in (gm, obs):
            expect(page.locator("#turn-character a")).to_have_count(0)
        expect(nia.locator('#turn-character [data-field="name"]')).to_have_text("Nia")
        expect(nia.locator("#turn-character a")).to_be_hidden()  # she has one

        # Before anything happens, every story section says so.
        for page in (*viewers, obs):
            expect(page.locator("#turn-scene [data-empty]")).to_have_text("No scene is open.")
            expect(page.locator("#turn-scene [data-scene]")).to_be_hidden()
            expect(page.locator("#turn-clocks [data-empty]")).to_have_text("No clocks yet.")
            expect(page.locator("#turn-facts [data-empty]")).to_have_text("No facts yet.")
            expect(page.locator("#turn-threads [data-empty]")).to_have_text("No threads yet.")
            expect(page.locator("#turn-scene [data-error]")).to_be_hidden()

        # Two turns in progress are told apart by what was asked and who asked it.
        with monkeypatch.context() as held:
            held.setattr("apps.turns.services.jobs.enqueue_run", lambda *a, **k: None)
            _say(nia, "roll 1d20 for luck", mode="action")
            expect(gm.locator("#turn-jobs li")).to_have_count(1)
            # Screen readers hear whose action it is: the GM's is not "Your action" (and an
            # action is not called a "turn", which in combat is whose go it is).
            expect(gm.locator("#turn-announce")).to_have_text("Action by Nia Player: Queued")
            expect(nia.locator("#turn-announce")).to_have_text("Your action: Queued")
            _say(gm, LONG_ACTION, mode="action")
            expect(gm.locator("#turn-jobs li")).to_have_count(2)
            nia_job = RoomTurnJob.objects.get(campaign=campaign, requester=nia_user)
            gm_job = RoomTurnJob.objects.get(campaign=campaign, requester=gm_user)
            row = gm.locator(f'#turn-jobs li[data-job="{nia_job.id}"]')
            expect(row.locator(".turn-job__action")).to_have_text("Nia Player: roll 1d20 for luck")
            expect(row.locator(".turn-job__text")).to_have_attribute("title", "roll 1d20 for luck")
            expect(row.locator("button")).to_have_attribute(
                "aria-label", "Cancel the turn of Nia Player: roll 1d20 for luck (Queued)"
            )
            row = gm.locator(f'#turn-jobs li[data-job="{gm_job.id}"]')
            expect(row.locator(".turn-job__who")).to_have_text("You:")
            expect(row.locator(".turn-job__text")).to_have_text(SHORT_ACTION)
            expect(row.locator(".turn-job__text")).to_have_attribute("title", LONG_ACTION)
            expect(row.locator("button")).to_have_attribute(
                "aria-label", f"Cancel your turn: {SHORT_ACTION} (Queued)"
            )
            # The player sees only their own turn, as theirs.
            expect(nia.locator("#turn-jobs li")).to_have_count(1)
            expect(nia.locator("#turn-jobs li .turn-job__action")).to_have_text(
                "You: roll 1d20 for luck"
            )
            expect(nia.locator("#turn-jobs li button")).to_have_attribute(
                "aria-label", "Cancel your turn: roll 1d20 for luck (Queued)"
            )
            gm.screenshot(path="/tmp/story-gm-1440-jobs.png", full_page=True)
            for job in (nia_job, gm_job):
                gm.locator(f'#turn-jobs li[data-job="{job.id}"] button').click()
                expect(gm.locator(f'#turn-jobs li[data-job="{job.id}"]')).to_have_count(0)
        jobs = 2

        def act(text):
            nonlocal jobs
            _say(gm, text, mode="action")
            jobs += 1
            _settle(campaign, jobs)

        # The GM tells the story by typing actions; both pages follow without a reload.
        act("set phase play")
        act("open scene The Drowned Lantern")
        for page in viewers:
            expect(page.locator('#turn-scene [data-field="title"]')).to_have_text(
                "The Drowned Lantern"
            )
            expect(page.locator("#turn-scene [data-empty]")).to_be_hidden()
            expect(page.locator('#turn-scene [data-field="description"]')).to_be_hidden()
            expect(page.locator("#turn-clocks [data-empty]")).to_be_visible()

        act("create clock Tide rising with 6 segments")
        act("advance clock tide by 2")
        for page in viewers:
            clock = page.locator("#turn-clocks li")
            expect(clock).to_have_count(1)
            expect(clock.locator(".turn-clock__name")).to_have_text("Tide rising")
            expect(clock.locator(".turn-clock__count")).to_have_text("2/6")
            meter = clock.locator('[role="meter"]')
            expect(meter).to_have_attribute("aria-label", "Clock: Tide rising")
            expect(meter).to_have_attribute("aria-valuenow", "2")
            expect(meter).to_have_attribute("aria-valuemax", "6")
            expect(meter).to_have_attribute("aria-valuetext", "2 of 6 segments filled")
            expect(clock.locator(".turn-clock__segment")).to_have_count(6)
            expect(clock.locator(".turn-clock__segment[data-filled]")).to_have_count(2)
            expect(page.locator("#turn-clocks [data-empty]")).to_be_hidden()

        act(f"record fact {PUBLIC_FACT}")
        act(f"record fact {SECRET_FACT} gm only")
        expect(gm.locator("#turn-facts li .turn-fact__text")).to_have_text(
            [PUBLIC_FACT, SECRET_FACT]
        )
        expect(gm.locator('#turn-facts li[data-audience="gm"] .turn-fact__tag')).to_have_text(
            "GM only"
        )
        expect(gm.locator('#turn-facts li[data-audience="public"] .turn-fact__tag')).to_have_count(
            0
        )
        expect(nia.locator("#turn-facts li .turn-fact__text")).to_have_text([PUBLIC_FACT])
        expect(nia.locator("#turn-facts .turn-fact__tag")).to_have_count(0)
        expect(nia.locator("#turn-facts [data-empty]")).to_be_hidden()
        for page in (nia, obs, olu):
            expect(page.locator("#turn-facts li")).to_have_count(1)
            assert "lantern keeper" not in page.locator(".room__side").inner_text().lower()
        for page in viewers:
            expect(page.locator("#turn-threads [data-empty]")).to_be_visible()
            assert not DND_WORDS.search(page.locator(".room__side").inner_text())

        # Threads (and long names): the panel answer gets threads and a full clock added.
        def with_threads(route):
            response = route.fetch()
            data = response.json()
            data["panels"]["threads"]["data"]["threads"] = EXTRA_STORY["threads"]
            data["panels"]["clocks"]["data"]["clocks"].append(EXTRA_STORY["clock"])
            route.fulfill(response=response, json=data)

        for page in viewers:
            page.route(re.compile(r".*/room/panel$"), with_threads)
            page.evaluate(REFRESH)
            threads = page.locator("#turn-threads li")
            expect(threads).to_have_count(2)
            # Open threads first; a resolved one says so and how.
            expect(threads.nth(0)).to_have_attribute("data-status", "open")
            expect(threads.nth(0).locator(".turn-thread__title")).to_have_text(
                "Find the Saltwives' hidden cove before the tide turns"
            )
            expect(threads.nth(1).locator(".turn-thread__status")).to_have_text("Resolved")
            expect(threads.nth(1)).to_contain_text("The keeper, to hide the salt.")
            expect(page.locator("#turn-threads [data-empty]")).to_be_hidden()
            full = page.locator('#turn-clocks li[data-clock="clock-99"]')
            expect(full.locator(".turn-clock__done")).to_have_text("Complete")
            expect(full.locator(".turn-clock__count")).to_have_text("12/12")

        for width, height in ((1440, 900), (390, 844)):
            for who, page in (("gm", gm), ("nia", nia), ("olu", olu)):
                page.set_viewport_size({"width": width, "height": height})
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                # Nothing in the side column pokes out of it.
                assert page.evaluate(
                    """() => {
                      const side = document.querySelector(".room__side").getBoundingClientRect();
                      return [...document.querySelectorAll(".room__side *")].every((n) => {
                        const r = n.getBoundingClientRect();
                        return r.width === 0 || r.right <= side.right + 0.5;
                      });
                    }"""
                )
                page.screenshot(path=f"/tmp/story-{who}-{width}.png", full_page=True)
                page.locator("#phase-panel").screenshot(path=f"/tmp/story-{who}-{width}-side.png")
    finally:
        for context in contexts.values():
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_dnd5e_room_has_no_story_sections(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Goblin Keep",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "pat@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(page.locator("#room")).to_have_attribute("data-state", "live")
        expect(page.locator("#turn-character [data-create-character]")).to_have_attribute(
            "href", f"/campaigns/{campaign.id}/characters/new"
        )
        expect(page.locator(STORY)).to_have_count(0)
        page.locator("#turn-character [data-create-character]").click()
        expect(page).to_have_url(re.compile(r"/characters/new$"))
    finally:
        context.close()
