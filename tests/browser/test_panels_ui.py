"""The room's side panels in a narrative campaign, in Chromium against live domain servers: the
character card shows the narrative system's fields (no armour class or hit points), dice lines
say each roll once, the dice list keeps the 20 newest rolls, and a long dice list does not stretch
the timeline or the composer."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_live import _say, _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_turns import LAYOUT, _settle
from tests.turns.rooms_support import eager  # noqa: F401

DND_WORDS = re.compile(r"armou?r class|hit points|monster|initiative", re.IGNORECASE)

FAKE_ROLLS = """n => {
  for (let i = 0; i < n; i++) {
    const dice = [{tool: "dice_roll", label: "", expression: "3d6", total: 10,
                   addends: [3, 3, 4], dropped: []}];
    document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
      entry: {event_type: "turn.narration", sequence: 100000 + i, data: {dice}}}}));
  }
}"""

ONE_ROLL = """roll => {
  const dice = [{tool: "dice_roll", label: "", ...roll}];
  document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
    entry: {event_type: "turn.narration", sequence: roll.sequence, data: {dice}}}}));
}"""


def _lines(page):
    return page.locator("#turn-dice li .turn-roll__line").all_inner_texts()


def _sequences(page):
    return [int(s) for s in page.locator("#turn-dice li").evaluate_all(
        "items => items.map((item) => item.dataset.sequence)")]  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_narrative_card_dice_lines_and_a_long_side_column(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="narrative", name="Fog Harbour",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    nia_user = users["nia@example.test"]
    character_create_for(
        campaign=campaign, user=nia_user, form_data={"name": "Nia", "tags": "brave, curious"}
    )
    room_url = f"{asgi_server}/campaigns/{campaign.id}/room/"

    contexts = {
        "gm": browser.new_context(viewport={"width": 1440, "height": 900}),
        "nia": browser.new_context(viewport={"width": 1440, "height": 900}),
    }
    emails = {"gm": "gm@example.test", "nia": "nia@example.test"}
    try:
        pages = {who: _sign_in(ctx, asgi_server, emails[who]) for who, ctx in contexts.items()}
        for page in pages.values():
            page.goto(room_url)
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
        gm, nia = pages["gm"], pages["nia"]

        # The card is the narrative system's: tags and conditions, no D&D fields.
        card = nia.locator("#turn-character")
        expect(card.locator('[data-field="name"]')).to_have_text("Nia")
        expect(card.locator('[data-field="tags"]')).to_have_text("brave, curious")
        expect(card.locator('[data-field="conditions"]')).to_have_text("None")
        expect(card.locator('[data-field="ac"], [data-field="hp-bar"]')).to_have_count(0)
        assert not DND_WORDS.search(card.inner_text()), card.inner_text()
        # The GM has no character: their note does not talk about monsters or hit points.
        expect(gm.locator("#turn-character [data-gm]")).to_be_visible()
        assert not DND_WORDS.search(gm.locator("#turn-character").inner_text())
        for page in pages.values():
            expect(page.locator("#turn-combat")).to_have_count(0)
            assert not DND_WORDS.search(page.locator(".room__side").inner_text())

        # Real rolls: each line says the expression and total once, plus the dice when there
        # are several (a single die adds nothing: no "(1d20 [3] = 3 => 3)").
        _say(nia, "roll 2d6 for courage", mode="action")
        _settle(campaign, 1)
        # Not a live region: the history would be read out on opening, each roll twice.
        assert nia.locator("#turn-dice").get_attribute("aria-live") is None
        first = nia.locator("#turn-dice li").first
        expect(first.locator(".turn-roll__title")).to_have_text("Courage · Nia Player (you)")
        # Everyone else reads whose roll it was.
        expect(gm.locator("#turn-dice li .turn-roll__title").first).to_have_text(
            "Courage · Nia Player"
        )
        expect(first.locator(".turn-roll__line")).to_have_text(
            re.compile(r"^2d6 = \d+ \(\d \+ \d\)$")
        )
        total, a, b = map(
            int, re.findall(r"\d+", first.locator(".turn-roll__line").inner_text())[2:]
        )
        assert total == a + b
        _say(nia, "roll 1d20", mode="action")
        _settle(campaign, 2)
        expect(nia.locator("#turn-dice li")).to_have_count(2)
        first = nia.locator("#turn-dice li").first
        expect(first.locator(".turn-roll__title")).to_have_text("Roll · Nia Player (you)")
        expect(first.locator(".turn-roll__line")).to_have_text(re.compile(r"^1d20 = \d+$"))
        expect(gm.locator("#turn-dice li")).to_have_count(2)
        # The GM's own secret roll says so in the GM's list (the timeline badges it too), so
        # it is not read out by mistake; players never get it.
        expect(gm.locator("#turn-dice li .turn-roll__audience")).to_have_count(0)
        _say(gm, "roll 1d6 for the ambush", mode="action", audience="gm")
        _settle(campaign, 3)
        expect(gm.locator("#turn-dice li")).to_have_count(3)
        expect(gm.locator("#turn-dice li .turn-roll__title").first).to_have_text(
            "The ambush · Gail GM (you)"
        )
        expect(gm.locator("#turn-dice li .turn-roll__audience")).to_have_text(["GM only"])
        expect(gm.locator("#turn-dice li").first.locator(".turn-roll__audience")).to_have_count(1)
        expect(nia.locator("#turn-dice li")).to_have_count(2)

        # A long dice list makes the side column the tallest; the timeline, the composer and
        # its controls stay exactly where and as big as they were.
        nia.wait_for_timeout(300)  # let the panel refreshes of the last turn settle
        before = nia.evaluate(LAYOUT)
        nia.evaluate(FAKE_ROLLS, 25)
        # The list keeps the 20 newest rolls, newest first; older ones leave the page.
        expect(nia.locator("#turn-dice li")).to_have_count(20)
        assert _sequences(nia) == list(range(100024, 100004, -1))
        assert _lines(nia)[0] == "3d6 = 10 (3 + 3 + 4)"
        # A late replay of an older roll does not push a newer one out.
        nia.evaluate(ONE_ROLL, {"expression": "1d4", "total": 2, "addends": [2], "sequence": 99})
        assert _sequences(nia) == list(range(100024, 100004, -1))
        # A keep names the dice it dropped; a roll stored without addends shows its detail.
        nia.evaluate(ONE_ROLL, {"expression": "2d20kh1+3", "total": 16, "addends": [13, 3],
                                "dropped": [9], "sequence": 200000})  # fmt: skip
        assert _lines(nia)[0] == "1d20+3 with advantage = 16 (13 + 3, dropped 9)"
        nia.evaluate(ONE_ROLL, {"expression": "2d6", "total": 7,
                                "detail": "2d6 [3, 4] = 7 => 7", "sequence": 200001})  # fmt: skip
        assert _lines(nia)[0] == "2d6 = 7 (2d6 [3, 4] = 7)"
        expect(nia.locator("#turn-dice li")).to_have_count(20)
        assert _sequences(nia)[:3] == [200001, 200000, 100024]
        after = nia.evaluate(LAYOUT)
        side_bottom = after["side"][1] + after["side"][3]
        composer_bottom = after["composer"][1] + after["composer"][3]
        for part in ("timeline", "composer", "textarea", "modes", "send"):
            assert after[part] == before[part], (part, before[part], after[part])
        assert side_bottom > composer_bottom + 200, after  # the case that used to stretch
        # The composer sits right under the timeline, one grid gap (16 px) below it.
        assert after["composer"][1] - (after["timeline"][1] + after["timeline"][3]) <= 17, after
        assert nia.evaluate("document.documentElement.scrollWidth") <= 1440
        nia.screenshot(path="/tmp/panels-narrative-1440.png", full_page=True)
        # The oracle's roll is in the list too, with its answer.
        nia.evaluate(ONE_ROLL, {"tool": "oracle_ask", "label": "Is the gate guarded?",
                                "expression": "d100", "total": 52, "result": "no, but",
                                "sequence": 200002})  # fmt: skip
        assert _lines(nia)[0] == "d100 = 52 NO, BUT"
        expect(nia.locator("#turn-dice li .turn-roll__title").first).to_have_text(
            "Is the gate guarded?"
        )

        # A monster's attack comes without its natural die (it would give away the attack
        # bonus): the die shows the total, as a check's does, and nothing reads "natural".
        attack = {"tool": "attack", "label": "Scimitar", "attacker_name": "Goblin",
                  "target_name": "Nia", "natural": None, "total": 16, "hit": True,
                  "critical": False, "damage": 5, "damage_type": "slashing",
                  "sequence": 200003}  # fmt: skip
        nia.evaluate(ONE_ROLL, attack)
        assert _lines(nia)[0] == "16 · hit, 5 slashing damage"
        die = nia.locator("#turn-dice li .turn-roll__die").first
        expect(die).to_have_text("16")
        assert die.get_attribute("data-natural") is None
        nia.evaluate(ONE_ROLL, {**attack, "natural": 12, "sequence": 200004})
        assert _lines(nia)[0] == "d20 12 + 4 = 16 · hit, 5 slashing damage"
        expect(die).to_have_text("12")
        # Two d20s, one kept (Pack Tactics, a prone target): the line says which way.
        nia.evaluate(ONE_ROLL, {**attack, "mode": "advantage", "sequence": 200005})
        assert _lines(nia)[0] == "16 · with advantage, hit, 5 slashing damage"
        nia.evaluate(ONE_ROLL, {**attack, "mode": "disadvantage", "hit": False, "damage": None,
                                "sequence": 200006})  # fmt: skip
        assert _lines(nia)[0] == "16 · with disadvantage, miss"
        nia.evaluate(ONE_ROLL, {**attack, "mode": "normal", "sequence": 200007})
        assert _lines(nia)[0] == "16 · hit, 5 slashing damage"

        more = nia.locator("#turn-dice-more")
        expect(more).to_be_hidden()  # beside the timeline, all 20 show
        nia.set_viewport_size({"width": 390, "height": 844})
        assert nia.evaluate("document.documentElement.scrollWidth") <= 390
        # Stacked under the composer on a phone, the 5 newest show until asked for the rest.
        expect(nia.locator("#turn-dice li:visible")).to_have_count(5)
        expect(more).to_have_text("Show all 20 rolls")
        more.click()
        expect(nia.locator("#turn-dice li:visible")).to_have_count(20)
        expect(more).to_have_text("Show fewer rolls")
        more.click()
        expect(nia.locator("#turn-dice li:visible")).to_have_count(5)
        small = nia.evaluate(LAYOUT)
        assert small["side"][1] > small["composer"][1] + small["composer"][3]  # stacked below
        assert small["textarea"][3] == before["textarea"][3]  # two rows, not stretched
        nia.screenshot(path="/tmp/panels-narrative-390.png", full_page=True)
    finally:
        for context in contexts.values():
            context.close()
