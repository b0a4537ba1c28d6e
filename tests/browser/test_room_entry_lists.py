"""An entry's lines starting with "- " read as a bulleted list in the room, in a real browser
against uvicorn: the game master's help list, captioned by the line before it, and a member's own
words alike; drawn as text, never as markup, and heard by a screen reader item by item."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

LAST_BODY = "#timeline li[data-sequence]:last-child .entry__body"

# The body as drawn: its element, and each block inside it (a list as its items' texts).
STRUCTURE = """body => ({
  tag: body.tagName,
  cls: body.className,
  blocks: [...body.children].map((c) => c.tagName === "UL"
    ? ["UL", c.className, [...c.children].map((li) => [li.tagName, li.textContent])]
    : [c.tagName, c.className, c.textContent]),
})"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_help_for_combat_reads_as_a_captioned_list_then_its_closing_line(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.turns.agents.scripted import help_with_text

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Keep", players=[("ilsa@example.test", "Ilsa")]
    )
    reply = help_with_text("dnd5e", "help combat", gm=False)
    caption, *rows, closing = reply.split("\n")
    assert (caption, closing) == ("Combat:", "Say “help” for every command.")
    items = [row.removeprefix("- ") for row in rows]
    assert len(items) == 6 and all(row.startswith("- ") for row in rows)
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (ilsa,):
        _say(ilsa, "help combat", mode="action")
        _settle(campaign, 1)
        expect(ilsa.locator("#timeline li[data-sequence]")).to_have_count(2)
        drawn = {
            "tag": "DIV",
            "cls": "entry__body entry__body--blocks",
            "blocks": [
                ["P", "entry__caption", "Combat:"],
                ["UL", "entry__list", [["LI", item] for item in items]],
                ["P", "entry__para", "Say “help” for every command."],
            ],
        }
        assert ilsa.locator(LAST_BODY).evaluate(STRUCTURE) == drawn
        # Heard as one passage: the caption, the items one after another (the last ends its
        # sentence already: "what can I do?"), then the closing line.
        assert items[-1].endswith("what can I do?")
        expect(ilsa.locator("#timeline-announcer p")).to_have_text(
            [f"Game master (Private: you): Combat: {'; '.join(items)} {closing}"]
        )
        # The same after a reload, from the history.
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(ilsa.locator("#timeline li[data-sequence]")).to_have_count(2)
        assert ilsa.locator(LAST_BODY).evaluate(STRUCTURE) == drawn
        # Fits a phone and a wide screen: the items wrap inside the entry, indented under
        # the caption, and nothing scrolls sideways.
        for width in (390, 1280):
            ilsa.set_viewport_size({"width": width, "height": 900})
            fit = ilsa.locator(LAST_BODY).evaluate(
                """body => {
                  const box = body.getBoundingClientRect();
                  const list = body.querySelector("ul").getBoundingClientRect();
                  const caption = body.querySelector(".entry__caption").getBoundingClientRect();
                  const item = body.querySelector("li").getBoundingClientRect();
                  return {
                    inside: list.right <= box.right && list.left >= box.left,
                    indented: item.left > caption.left,
                    sideways: document.documentElement.scrollWidth > innerWidth,
                  };
                }"""
            )
            assert fit == {"inside": True, "indented": True, "sideways": False}
            ilsa.locator(LAST_BODY).evaluate('body => body.scrollIntoView({block: "start"})')
            ilsa.screenshot(path=f"/tmp/room-entry-lists-{width}.png")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_members_lines_are_drawn_as_literal_text_and_their_dashes_as_a_list(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, _gm_m, pat_m = _gm_and_player(make_user)
    hostile = "- <img src=x onerror=\"document.title='pwned'\">"
    body = f"<b>x</b>\nWhat I carry:\n{hostile}\n- a rope & 2 torches\n\nThat is all."
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        room_message_post(membership=pat_m, body=body, mode="chat", client_message_id="m1")
        expect(gm.locator("#timeline li[data-sequence]")).to_have_count(1)
        drawn = {
            "tag": "DIV",
            "cls": "entry__body entry__body--blocks",
            "blocks": [
                ["P", "entry__para", "<b>x</b>"],
                ["P", "entry__caption", "What I carry:"],
                [
                    "UL",
                    "entry__list",
                    [["LI", hostile.removeprefix("- ")], ["LI", "a rope & 2 torches"]],
                ],
                ["P", "entry__para", "That is all."],
            ],
        }
        # Heard with the list's items one after another, ended as a sentence.
        expect(gm.locator("#timeline-announcer p")).to_have_text(
            [
                "Pat Player: <b>x</b> What I carry: "
                "<img src=x onerror=\"document.title='pwned'\">; a rope & 2 torches. That is all."
            ]
        )
        for opened in ("live", "reloaded"):
            if opened == "reloaded":
                _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
            assert gm.locator(LAST_BODY).evaluate(STRUCTURE) == drawn, opened
            # Neither tag became an element: they are the words the player wrote.
            assert gm.locator("#timeline b, #timeline img").count() == 0, opened
            assert gm.title() != "pwned", opened


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_words_without_a_dashed_line_stay_one_paragraph_as_written(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, _gm_m, pat_m = _gm_and_player(make_user)
    bodies = ["Ready:\nI take -5 hit points\n-that hurt", "<i>plain</i>"]
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        for n, body in enumerate(bodies):
            room_message_post(membership=pat_m, body=body, mode="chat", client_message_id=f"m{n}")
        expect(gm.locator("#timeline li[data-sequence]")).to_have_count(2)
        drawn = gm.locator("#timeline li[data-sequence] .entry__body").evaluate_all(
            "els => els.map((e) => [e.tagName, e.className, e.childElementCount, e.textContent])"
        )
        assert drawn == [["P", "entry__body", 0, body] for body in bodies]
        # Its line breaks are kept as written.
        assert gm.locator("#timeline li[data-sequence] .entry__body").first.inner_text() == (
            "Ready:\nI take -5 hit points\n-that hurt"
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_lines_starting_with_a_star_or_a_bullet_read_as_a_list_too(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.rooms.services import room_message_post

    campaign, gm_m, _pat_m = _gm_and_player(make_user)
    # A model's answer sets out its points with "* " or "• " as often as with "- ";
    # "*waves*" (no space after the star) is not an item, and a bullet with no words between
    # items is a blank line of the list, not words that split it.
    body = "You could:\n* search the altar\n- \n• light a torch\n*waves*"
    with in_the_room(browser, asgi_server, campaign, "player@example.test") as (pat_page,):
        room_message_post(membership=gm_m, body=body, mode="chat", client_message_id="m1")
        expect(pat_page.locator("#timeline li[data-sequence]")).to_have_count(1)
        assert pat_page.locator(LAST_BODY).evaluate(STRUCTURE) == {
            "tag": "DIV",
            "cls": "entry__body entry__body--blocks",
            "blocks": [
                ["P", "entry__caption", "You could:"],
                ["UL", "entry__list", [["LI", "search the altar"], ["LI", "light a torch"]]],
                ["P", "entry__para", "*waves*"],
            ],
        }
