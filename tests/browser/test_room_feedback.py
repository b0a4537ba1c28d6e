"""What the room page tells a player, end to end in a real browser against uvicorn: names in the
narrow initiative list wrap between words and "Act as" stays on one line; the out-of-credits
error links the usage page in place of its raw path; a paste cut by the length limit says so;
a cancel that came too late says so when the turn ends anyway; and a dying character's card
counts its death saves."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room, in_the_room, table_for
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

VIEWPORT = {"width": 1280, "height": 900}
LAPTOP = {"width": 1280, "height": 720}

# For each element: its words, each with the number of lines it is drawn on.
WORD_LINES = """els => els.map((el) => {
  const node = el.firstChild;
  const words = [];
  let at = 0;
  for (const word of node.textContent.split(" ")) {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    words.push([word, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]);
    at += word.length + 1;
  }
  return words;
})"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_initiative_names_wrap_between_words_and_act_as_stays_on_one_line(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(
        make_user, name="Narrow Column", fighters=("Ilsa Stormborn", "Brannoc Thundershield")
    )
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 1)
        names = ilsa.locator("#turn-order .turn-combatant__name")
        expect(names).to_have_count(3)
        for width, height in ((1280, 900), (1440, 900), (390, 844)):
            ilsa.set_viewport_size({"width": width, "height": height})
            # Measured once drawn: a panel refresh may be redrawing the list.
            for name in names.all():
                expect(name).to_be_visible()
            words = {tuple(w) for row in names.evaluate_all(WORD_LINES) for w in row}
            assert words == {
                ("Ilsa", 1), ("Stormborn", 1), ("Brannoc", 1), ("Thundershield", 1),
                ("Goblin", 1),
            }, width  # fmt: skip
            # The HP column takes what its bar and numbers need, not a share of the row.
            hp = ilsa.locator("#turn-order .turn-combatant .turn-hp").first.bounding_box()
            assert hp["width"] <= 100, (width, hp)
            label = ilsa.locator(".composer__character label")
            assert label.evaluate_all(WORD_LINES) == [[["Act", 1], ["as", 1]]], width
            tops = label.evaluate(
                "el => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size"
            )
            assert tops == 1, width
            assert ilsa.evaluate("document.documentElement.scrollWidth") <= width
            ilsa.locator("#turn-combat").screenshot(path=f"/tmp/fixA-initiative-{width}.png")


QUOTA_ERROR = {
    "error": {
        "code": "quota_exceeded",
        "message": "You have 0 credits available; this needs 5.",
        "retryable": False,
        "recovery": "Ask staff for a quota grant or wait for your plan's next grant; your usage "
        "is at /usage/.",
        "details": {},
    }
}


def _job(job_id, status, *, cancel_requested=False):
    return {
        "id": job_id, "status": status, "cancel_requested": cancel_requested,
        "created_at": "2026-01-01T10:00:00Z", "text": "I pick the lock", "requester_id": "",
        "attempt": 1, "max_attempts": 3, "error": None,
    }  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_credits_link_a_cut_paste_and_a_cancel_too_late_are_said(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Said Aloud",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    from apps.campaigns.models import CampaignMembership
    from apps.rooms.services import room_message_post

    pat = CampaignMembership.objects.get(campaign=campaign, user=_users["pat@example.test"])
    for n in range(30):  # a timeline at its tallest
        room_message_post(membership=pat, body=f"Line {n}", mode="chat", client_message_id=f"s{n}")
    context = browser.new_context(viewport=VIEWPORT)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = _sign_in(context, asgi_server, "pat@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")

        # Out of credits: the usage page is a link where the server's text names its path.
        page.route(
            "**/room/actions",
            lambda route: route.fulfill(
                status=402, content_type="application/json", body=json.dumps(QUOTA_ERROR)
            ),
        )
        page.set_viewport_size(LAPTOP)  # a short window: the composer ends below its fold
        _say(page, "roll 1d20", mode="action")
        error = page.locator("#composer-error")
        expect(error).to_have_text(
            "You have 0 credits available; this needs 5. Ask staff for a quota grant or wait "
            "for your plan's next grant; your usage is at the usage page."
        )
        expect(error.locator("a")).to_have_count(1)
        expect(error.locator("a")).to_have_text("the usage page")
        expect(error.locator("a")).to_have_attribute("href", "/usage/")
        # Under the composer, below the fold of this window: the page brings it into view.
        box = error.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= LAPTOP["height"] + 1, box
        page.set_viewport_size(VIEWPORT)
        page.unroute("**/room/actions")

        # A paste longer than the limit: what was cut is said next to the counter.
        body = page.locator("#composer-body")
        counter = page.locator("#composer-count")
        body.fill("ab")
        page.evaluate("text => navigator.clipboard.writeText(text)", "y" * 4100)
        body.press("End")
        body.press("Control+V")
        expect(body).to_have_value("ab" + "y" * 3998)
        expect(counter).to_be_visible()
        expect(counter).to_have_text(
            "0 characters left — Only the first 4000 characters fit: 102 pasted characters "
            "were left out."
        )
        expect(counter).to_have_class("muted small composer__count composer__count--cut")
        body.press("Backspace")  # edited: the counter alone again
        expect(counter).to_have_text("1 characters left")
        expect(counter).to_have_class("muted small composer__count")
        # A paste that fits says nothing more than the counter.
        body.fill("")
        page.evaluate("text => navigator.clipboard.writeText(text)", "z" * 3700)
        body.press("Control+V")
        expect(body).to_have_value("z" * 3700)
        expect(counter).to_have_text("300 characters left")
        body.fill("")

        # Cancels that come too late: the turn ends done anyway, and the page says so, whether
        # its last event arrives (job-a) or the panel no longer lists it (job-b).
        server = {"job-a": _job("job-a", "running", cancel_requested=True)}
        server["job-b"] = _job("job-b", "succeeded", cancel_requested=True)

        def answer(job_id, **override):
            # Playwright passes the request too to a handler that takes two arguments.
            return lambda route: route.fulfill(json={**server[job_id], **override})

        for job_id in ("job-a", "job-b"):
            still_running = answer(job_id, status="running", cancel_requested=True)
            page.route(f"**/room/jobs/{job_id}/cancel", still_running)
            page.route(f"**/room/jobs/{job_id}", answer(job_id))
        click = """job => {
            document.dispatchEvent(new CustomEvent("room:job", {detail: job}));
            document.querySelector(`#turn-jobs li[data-job="${job.id}"] button`).click();
        }"""
        note = page.locator("#turn-jobs-error")
        with page.expect_request("**/room/jobs/job-a"):
            page.evaluate(click, _job("job-a", "running"))
        expect(page.locator("#turn-jobs li")).to_have_count(0)
        expect(note).to_be_hidden()  # still running: nothing to say yet
        server["job-a"] = _job("job-a", "succeeded", cancel_requested=True)
        page.evaluate(
            """job => document.dispatchEvent(new CustomEvent("room:event", {detail: {
                type: "event", event_type: "turn.job", payload: job}}))""",
            server["job-a"],
        )
        expect(note).to_be_visible()
        expect(note).to_have_text("Too late to cancel: the turn finished first (Done).")

        page.evaluate("() => { document.getElementById('turn-jobs-error').hidden = true; }")
        page.evaluate(click, _job("job-b", "running"))
        expect(note).to_be_visible()
        expect(note).to_have_text("Too late to cancel: the turn finished first (Done).")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_turns_in_progress_are_listed_oldest_first_whatever_order_their_events_arrive(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="In Order",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        jobs = []
        for n in range(3):
            job = _job(f"job-{n}", "queued")
            job["created_at"] = f"2026-01-01T10:00:0{n}.000001+00:00"
            job["text"] = f"roll 1d{n + 4}"
            jobs.append(job)
        # Three queued turns whose updates come in as a busy room sends them: the newest
        # first, then the oldest becomes "running" and the middle one arrives last. Read at
        # once, before the page's own panel refresh answers.
        order = page.evaluate(
            """jobs => {
                const send = (job) => document.dispatchEvent(new CustomEvent("room:event", {
                    detail: {type: "event", event_type: "turn.job", payload: job}}));
                send(jobs[2]);
                send(jobs[0]);
                send({...jobs[0], status: "running"});
                send(jobs[1]);
                return [...document.querySelectorAll("#turn-jobs li")].map((li) => li.dataset.job);
            }""",
            jobs,
        )
        assert order == ["job-0", "job-1", "job-2"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_turn_queued_again_after_a_fault_says_why(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.turns.services import turn_action_submit, turn_claim
    from apps.turns.services.jobs import turn_requeue

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Try Again",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    membership = campaign.memberships.get(user=users["pat@example.test"])
    job, _created = turn_action_submit(
        membership=membership, text="look around", idempotency_key="again-1"
    )
    # A worker took it and the domain was down: back in the queue, as the worker leaves it.
    claimed, _busy = turn_claim(job_id=job.pk, worker="w1")
    turn_requeue(
        job=claimed, worker="w1", code="domain_unavailable",
        message="The dnd5e rules server is unavailable.", recovery="Try again shortly.",
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "pat@example.test") as (page,):
        row = page.locator(f'#turn-jobs li[data-job="{job.pk}"]')
        expect(row.locator(".turn-job__status")).to_have_text("Queued")
        expect(row.locator(".turn-job__detail")).to_have_text(
            "The dnd5e rules server is unavailable."
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_dying_characters_card_counts_its_death_saves(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.domains.client import domain_call

    campaign, users, mine = fighters_table(make_user, name="Last Breath", fighters=("Ilsa",))
    gm_user, (ilsa_id,) = users["gm@example.test"], mine

    def sheet():
        return domain_call(
            system_id="dnd5e", tool="character_get", arguments={"character_id": ilsa_id},
            requester=gm_user, campaign_id=str(campaign.id),
        ).structured["character"]  # fmt: skip

    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        ilsa = _sign_in(contexts[0], asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        row = ilsa.locator('#turn-character [data-row="death-saves"]')
        expect(row).to_be_hidden()  # not dying
        gm = _sign_in(contexts[1], asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        # Down to 0 HP (as a hit would put her), then the death save the GM calls for her (out
        # of combat only the GM does) refreshes her card.
        _drop_to_zero(campaign, gm_user, ilsa_id)
        _say(gm, "death save for Ilsa", mode="action")
        _settle(campaign, 2)
        now = sheet()
        saves = now["death_saves"]
        if now["hp"]["current"] == 0 and "stable" not in now["conditions"]:
            expect(row).to_be_visible()
            expect(row.locator("dd")).to_have_text(
                f"{saves['successes']} of 3 successes, {saves['failures']} of 3 failures"
            )
        else:  # a natural 20 brought her back to 1 HP
            assert now["hp"]["current"] == 1
            expect(row).to_be_hidden()
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_initiative_list_counts_a_dying_characters_death_saves(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, users, mine = fighters_table(make_user, name="On The Brink", fighters=("Ilsa",))
    gm_user, (ilsa_id,) = users["gm@example.test"], mine
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        # Down to 0 HP (as a hit would put her): dying, she still takes her place in the fight.
        _drop_to_zero(campaign, gm_user, ilsa_id)
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        for page in (gm, ilsa):
            entry = page.locator(f'#turn-order li[data-id="{ilsa_id}"]')
            expect(entry.locator(".turn-combatant__conditions")).to_have_text(
                "Prone, unconscious, Death saves: 0 of 3 successes, 0 of 3 failures"
            )
            goblin = page.locator('#turn-order li[data-kind="monster"]')
            expect(goblin.locator(".turn-combatant__conditions")).to_have_count(0)
        # Dead (a hit as big as her hit points while down): no death saves are owed any more,
        # on the GM's list (which has her numbers, not a status word) as on hers.
        from apps.campaigns.services.authority import campaign_refresh

        _drop_to_zero(campaign, gm_user, ilsa_id, key="dead")
        campaign_refresh(campaign=campaign, requester=gm_user)  # the pages read the panels
        for page in (gm, ilsa):
            entry = page.locator(f'#turn-order li[data-id="{ilsa_id}"]')
            expect(entry).to_contain_text("Dead")
            expect(entry).not_to_contain_text("Death saves")


def _drop_to_zero(campaign, gm_user, character_id, key="down") -> None:
    """A fighter's 12 HP of damage, applied by the GM straight on the domain."""
    from apps.domains.client import domain_call

    domain_call(
        system_id="dnd5e", tool="damage_apply", requester=gm_user, campaign_id=str(campaign.id),
        arguments={"target_id": character_id, "amount": 12,
                   "idempotency_key": f"{key}-{character_id}",
                   "expected_revision": _domain_revision(campaign, gm_user)},
    )  # fmt: skip


def _domain_revision(campaign, user) -> int:
    from apps.domains.client import domain_call

    return int(
        domain_call(
            system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
            campaign_id=str(campaign.id),
        ).authority_revision
    )  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_act_as_starts_on_the_players_character_in_the_fight_not_a_fallen_one(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.domains.client import domain_call

    campaign, users, mine = fighters_table(make_user, name="Second Life", fighters=("Ilsa", "Kara"))
    gm_user = users["gm@example.test"]
    ids = {name: char_id for char_id, name in mine.items()}
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
    try:
        gm = _sign_in(contexts[0], asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        # Ilsa (listed first) falls for good; the fight that follows is Kara's.
        domain_call(
            system_id="dnd5e", tool="damage_apply", requester=gm_user,
            campaign_id=str(campaign.id),
            arguments={"target_id": ids["Ilsa"], "amount": 100, "idempotency_key": "ilsa-falls",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
        _say(gm, "start combat with goblin", mode="action")
        _settle(campaign, 2)
        combat = domain_call(
            system_id="dnd5e", tool="combat_status", arguments={}, requester=gm_user,
            campaign_id=str(campaign.id),
        ).structured["combat"]  # fmt: skip
        assert ids["Ilsa"] not in [entry["id"] for entry in combat["order"]]
        if combat["current"] == ids["Kara"]:
            _say(gm, "end turn", mode="action")  # the goblin's turn: nothing picks Kara for it
            _settle(campaign, 3)
        player = _sign_in(contexts[1], asgi_server, "ilsa@example.test")
        _open(player, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(player.locator("#composer-character")).to_have_value(ids["Kara"])
        expect(player.locator('#turn-character [data-field="name"]')).to_have_text("Kara")
        # What the player picks stays picked.
        player.locator("#composer-character").select_option(ids["Ilsa"])
        player.wait_for_timeout(500)
        expect(player.locator('#turn-character [data-field="name"]')).to_have_text("Ilsa")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_act_as_moves_off_a_dead_character_outside_a_fight_too(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.domains.client import domain_call

    campaign, users, mine = fighters_table(
        make_user, name="After the Fall", fighters=("Ilsa", "Kara")
    )
    gm_user = users["gm@example.test"]
    ids = {name: char_id for char_id, name in mine.items()}
    for tool, arguments in (
        ("phase_set", {"phase": "play"}),
        ("damage_apply", {"target_id": ids["Ilsa"], "amount": 100}),
    ):
        domain_call(
            system_id="dnd5e", tool=tool, requester=gm_user, campaign_id=str(campaign.id),
            arguments={**arguments, "idempotency_key": f"fall-{tool}",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (player,):
        # Ilsa, listed first, is dead: the player acts as Kara, whose card shows, untold.
        expect(player.locator("#composer-character")).to_have_value(ids["Kara"])
        expect(player.locator('#turn-character [data-field="name"]')).to_have_text("Kara")
        expect(player.locator("#turn-character [data-fallen]")).to_be_hidden()
        # The room reads which of her characters acts.
        _say(player, "roll 1d20", mode="action")
        _settle(campaign, 1)
        action = player.locator("#timeline li.entry--action").last
        expect(action.locator(".badge--character")).to_have_text("As Kara")
        # Picked on purpose, the dead one stays (and says so).
        player.locator("#composer-character").select_option(ids["Ilsa"])
        expect(player.locator("#turn-character [data-fallen]")).to_have_text(
            "Ilsa is dead. You can play on with a new character."
        )
        player.wait_for_timeout(500)
        expect(player.locator("#composer-character")).to_have_value(ids["Ilsa"])


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_dying_characters_card_fits_its_column_with_the_death_saves_shown(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Narrow Escape", fighters=("Ilsa",))
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (page,):
        expect(page.locator("#turn-character [data-sheet]")).to_be_visible()
        # The card as a dying character's shows it (the values renderCharacter writes).
        sizes = page.evaluate(
            """() => {
                const card = document.getElementById("character-card");
                const set = (field, text) => {
                    card.querySelector(`[data-field="${field}"]`).textContent = text;
                };
                set("conditions", "prone, unconscious");
                set("death-saves", "0 of 3 successes, 0 of 3 failures");
                card.querySelector('[data-row="death-saves"]').hidden = false;
                const box = (node) => node.getBoundingClientRect();
                const conditions = card.querySelector('[data-field="conditions"]');
                return {
                    card: box(card).right,
                    facts: box(card.querySelector(".turn-character__facts")).right,
                    conditions: box(conditions).width,
                    overflow: document.documentElement.scrollWidth - innerWidth,
                };
            }"""
        )
        assert sizes["facts"] <= sizes["card"]
        assert sizes["conditions"] >= 60  # words on a line, not one letter per line
        assert sizes["overflow"] <= 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_turn_of_a_player_who_joined_after_the_room_was_opened_names_them(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.quota.services import quota_account_for, quota_grant
    from apps.turns.services import turn_action_submit

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Late Arrivals",
        players=[("pat@example.test", "Pat Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (page,):
        lou = make_user("lou@example.test", display_name="Lou Late")
        membership = CampaignMembership.objects.create(
            campaign=campaign, user=lou, role=CampaignMembership.Role.PLAYER
        )
        quota_grant(account=quota_account_for(user=lou), amount=10, source="system", note="t")
        job, _created = turn_action_submit(
            membership=membership, text="look around", idempotency_key="late-1"
        )
        row = page.locator(f'#turn-jobs li[data-job="{job.pk}"]')
        expect(row).to_contain_text("Lou Late")
