"""What the room page names and says, in a real browser against uvicorn: who an entry is from
(the game master's narration, the room's own notices), how many are here, why Private is not
offered for an action, and a character counter that is read out at a few thresholds, not at
every key."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_history import VIEWPORT, _open
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

SENDERS = "#timeline li[data-sequence] .entry__sender"

# Every text the counter's live region is given, in order (what a screen reader would say).
RECORD_ANNOUNCEMENTS = """() => {
    window.said = [];
    const region = document.getElementById("composer-count-announcer");
    new MutationObserver(() => window.said.push(region.textContent))
        .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def _gm_and_ilsa(make_user):
    """A campaign of Gail GM (gm@example.test) and one player, Ilsa (ilsa@example.test), with no
    domain server behind it (nothing here plays a turn)."""
    from apps.campaigns.models import CampaignMembership
    from tests.rooms.factories import make_campaign

    gm = make_user("gm@example.test", display_name="Gail GM")
    ilsa = make_user("ilsa@example.test", display_name="Ilsa Player")
    campaign, _memberships = make_campaign(gm, (ilsa, CampaignMembership.Role.PLAYER))
    return campaign


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_game_masters_narration_is_labelled_game_master_and_room_notices_stay_room(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.models import Message
    from apps.rooms.services import room_event_record
    from apps.turns.services.jobs import OUTCOME_EVENT

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Who Speaks",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    # A notice of the room's own (a turn that ended unanswered), in the history the page opens on.
    room_event_record(
        campaign=campaign, event_type=OUTCOME_EVENT, body="“open the door” was cancelled.",
        data={"job_id": "job-x", "status": "cancelled"}, audience=Message.Audience.PUBLIC,
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        expect(ilsa.locator(SENDERS)).to_have_text(["Room"])
        _say(ilsa, "roll 1d20 for luck", mode="action")
        _settle(campaign, 1)
        narration = Message.objects.get(event_type="turn.narration")
        for page, actor in ((ilsa, "Ilsa Player (you)"), (gm, "Ilsa Player")):
            # The turn's narration is the game master's; the notice stays the room's.
            expect(page.locator(SENDERS)).to_have_text(["Room", actor, "Game master"])
            entry = page.locator(f'#timeline li[data-sequence="{narration.sequence}"]')
            expect(entry.locator(".entry__body")).to_have_text(narration.body)
            # Looked at as the words of the table, not as a notice in the margin: a solid
            # frame and the body's own text size and colour.
            notice = page.locator("#timeline li.entry--event").first
            look = """node => { const s = getComputedStyle(node);
                return [s.borderTopStyle, s.fontSize, s.color]; }"""
            body_look = page.evaluate("""() => { const s = getComputedStyle(document.body);
                return [s.fontSize, s.color]; }""")
            assert entry.evaluate(look) == ["solid", *body_look]
            assert notice.evaluate(look)[0] == "dashed"
        # Heard as it arrives, under the same name.
        expect(gm.locator("#timeline-announcer p").last).to_have_text(
            f"Game master: {narration.body}"
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_here_now_count_is_read_as_a_number_of_people(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_ilsa(make_user)
    gm_context = browser.new_context(viewport=VIEWPORT)
    ilsa_context = browser.new_context(viewport=VIEWPORT)
    try:
        gm = _sign_in(gm_context, asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        section = gm.locator("section[aria-labelledby=presence-title]")
        badge = gm.locator("#presence-count")
        expect(badge).to_have_text("1")
        expect(section.get_by_role("heading", level=2)).to_have_accessible_name("Here now 1 person")
        ilsa = _sign_in(ilsa_context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        # The badge still shows the bare number; what it counts is said with it.
        expect(badge).to_have_text("2")
        expect(badge).to_be_visible()
        expect(section.get_by_role("heading", level=2)).to_have_accessible_name("Here now 2 people")
        expect(section).to_match_aria_snapshot(
            '- heading "Here now 2 people" [level=2]\n'
            "- list:\n  - listitem: Gail GM (you)\n  - listitem: Ilsa Player"
        )
    finally:
        ilsa_context.close()
        gm_context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_private_says_why_it_is_not_offered_for_an_action(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_ilsa(make_user)
    context = browser.new_context(viewport=VIEWPORT, has_touch=True)
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        private = gm.locator("input[name=audience][value=private]")
        hint = gm.locator("#audience-private-hint")
        why = "Actions can’t be private: an action goes to Everyone or to GM only."
        expect(private).to_be_enabled()
        expect(hint).to_be_hidden()
        expect(private).to_have_accessible_description("")
        gm.locator("label:has(input[name=mode][value=action])").tap()
        expect(private).to_be_disabled()
        # Said on the page, where touch and keyboard users see it, and given as the
        # unavailable choice's description.
        expect(hint).to_be_visible()
        expect(hint).to_have_text(why)
        expect(private).to_have_accessible_description(why)
        gm.locator("label:has(input[name=mode][value=narration])").tap()
        expect(private).to_be_enabled()
        expect(hint).to_be_hidden()
        expect(private).to_have_accessible_description("")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_character_counter_is_announced_at_thresholds_not_at_every_key(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_ilsa(make_user)
    context = browser.new_context(viewport=VIEWPORT)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = _sign_in(context, asgi_server, "ilsa@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        body = page.locator("#composer-body")
        counter = page.locator("#composer-count")
        # The visible counter is not itself a live region: it changes with every key.
        assert counter.get_attribute("aria-live") is None
        assert counter.evaluate("el => el.closest('[aria-live]')") is None
        page.evaluate(RECORD_ANNOUNCEMENTS)

        def said():
            return page.evaluate("window.said")

        body.fill("x" * 3598)  # 402 left: no counter yet
        body.press_sequentially("xxxx")  # 401, 400, then the counter appears at 399, then 398
        expect(counter).to_have_text("398 characters left")
        assert said() == ["399 characters left"]
        body.fill("x" * 3898)  # 102 left
        body.press_sequentially("xxx")  # 101, 100, 99
        expect(counter).to_have_text("99 characters left")
        assert said() == ["399 characters left", "100 characters left"]
        # Back above 100 and down again: said once, not again at each crossing.
        body.press("Backspace")
        body.press("Backspace")
        body.press_sequentially("xx")
        expect(counter).to_have_text("99 characters left")
        assert said() == ["399 characters left", "100 characters left"]
        body.fill("x" * 3978)  # 22 left
        body.press_sequentially("xxx")  # 21, 20, 19
        expect(counter).to_have_text("19 characters left")
        assert said() == ["399 characters left", "100 characters left", "20 characters left"]
        body.fill("x" * 3998)  # 2 left
        body.press_sequentially("xxx")  # 1, 0, and the last key is refused by the limit
        expect(counter).to_have_text("0 characters left")
        limit = "Limit reached: a message holds at most 4000 characters."
        assert said() == ["399 characters left", "100 characters left", "20 characters left", limit]
        body.press("Backspace")
        body.press_sequentially("x")
        expect(counter).to_have_text("0 characters left")
        assert said()[-1] == limit and len(said()) == 4

        # Sent: the next long message is counted afresh.
        body.press("Enter")
        expect(counter).to_be_hidden()
        body.fill("x" * 3601)
        expect(counter).to_have_text("399 characters left")
        assert said()[4:] == ["399 characters left"]
        # A paste the limit cut is said in full, once.
        body.fill("ab")
        page.evaluate("text => navigator.clipboard.writeText(text)", "y" * 4100)
        body.press("End")
        body.press("Control+V")
        cut = (
            "0 characters left — Only the first 4000 characters fit: 102 pasted characters "
            "were left out."
        )
        expect(counter).to_have_text(cut)
        expect(page.locator("#composer-count-announcer")).to_have_text(cut)
        assert said()[5:] == [cut]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_words_of_a_deleted_account_are_a_former_members_not_the_rooms(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.rooms.models import Message
    from apps.rooms.services import room_message_post

    campaign = _gm_and_ilsa(make_user)
    gm = CampaignMembership.objects.get(campaign=campaign, user__email="gm@example.test")
    said, _created = room_message_post(
        membership=gm, body="Welcome, all.", mode="chat", client_message_id="hello"
    )
    Message.objects.filter(pk=said.pk).update(sender=None)  # as when the account is deleted
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        expect(ilsa.locator(SENDERS)).to_have_text(["A former member"])
