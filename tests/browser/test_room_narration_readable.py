"""A GM's narration in the timeline, in Chromium: set apart by a rule down its left side and its
"Narration" label, in upright type a long passage is easy to read (not a whole body in
italics), and told apart at a glance from a player's words, an action and a private answer."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import _say, _wait_for_texts, asgi_server  # noqa: F401

NARRATION = "The rain thickens as the caravan winds up the pass; somewhere ahead, a horn."
# How an entry is drawn: its body's type, its left rule, its background. A private answer (the
# game master's turn narration) is drawn as the timeline draws one, for comparison.
LOOK = """(li) => {
  const look = (entry) => {
    const style = getComputedStyle(entry);
    return {fontStyle: getComputedStyle(entry.querySelector(".entry__body") || entry).fontStyle,
      rule: style.borderLeftWidth + " " + style.borderLeftColor,
      background: style.backgroundColor};
  };
  const answer = document.createElement("li");
  answer.className = "entry entry--event entry--game-master";
  answer.innerHTML = '<p class="entry__body">You find a key.</p>';
  li.parentElement.append(answer);
  const looks = {answer: look(answer)};
  answer.remove();
  for (const kind of ["narration", "chat", "action"]) {
    const entry = li.parentElement.querySelector(`li[data-sequence].entry--${kind}`);
    looks[kind] = entry ? look(entry) : null;
  }
  return looks;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_narration_reads_upright_under_a_narration_label_and_a_rule_of_its_own(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Mountain Pass",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(ilsa, "Hello all")
        _wait_for_texts(gm, ["Hello all"])
        # Narration to one player is words, not a turn: shown as it is sent.
        gm.check("input[name=mode][value=narration]")
        gm.check("input[name=audience][value=private]")
        gm.get_by_label("Ilsa Player").check()
        gm.fill("#composer-body", NARRATION)
        gm.press("#composer-body", "Enter")
        for page in (gm, ilsa):
            _wait_for_texts(page, ["Hello all", NARRATION])
            entry = page.locator("#timeline li.entry--narration")
            expect(entry.locator(".badge--mode")).to_have_text("Narration")
            looks = entry.evaluate(LOOK)
            narration = looks["narration"]
            assert narration["fontStyle"] == "normal", looks
            assert narration["rule"].startswith("4px "), looks
            # Not a player's words, nor a private answer: its rule and ground are its own.
            for other in ("chat", "answer"):
                assert narration["rule"] != looks[other]["rule"], (other, looks)
                assert narration["background"] != looks[other]["background"], (other, looks)
