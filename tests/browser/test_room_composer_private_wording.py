"""What the composer says about private messages, read in every mode in Chromium: a GM choosing
Action is told plainly that an action cannot be private (Private is for chat and narration,
not chat alone); a GM narrating privately is told that it goes as words to the people chosen,
while narration to Everyone or GM only becomes a game master's turn; chat says nothing; a
player, who has no audience to choose, reads no such hint."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

ACTION = "Actions can’t be private: an action goes to Everyone or to GM only."
NARRATION = (
    "Private narration is sent only as words to the people you choose: it changes nothing in "
    "the game. Narration to Everyone or GM only becomes a game master’s turn."
)
# The composer hints shown, in page order.
SHOWN = """() => [...document.querySelectorAll("#composer .composer__hint")]
  .filter((hint) => !hint.hidden).map((hint) => hint.textContent)"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_each_mode_says_plainly_what_a_private_message_does(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Whisper Hall",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        private = gm.locator("input[name=audience][value=private]")
        expected = {
            ("chat", "public"): [], ("chat", "gm"): [], ("chat", "private"): [],
            ("narration", "public"): [], ("narration", "gm"): [],
            ("narration", "private"): [NARRATION],
            ("action", "public"): [ACTION], ("action", "gm"): [ACTION],
        }  # fmt: skip
        for (mode, audience), hints in expected.items():
            gm.check(f"input[name=mode][value={mode}]")
            gm.check(f"input[name=audience][value={audience}]")
            assert gm.evaluate(SHOWN) == hints, (mode, audience)
            # The choice it is about is described by it, and only while it shows.
            expect(private).to_have_accessible_description(hints[0] if hints else "")
        # A player addresses everyone: no audience, and nothing said about one.
        for mode in ("chat", "action"):
            ilsa.check(f"input[name=mode][value={mode}]")
            assert ilsa.evaluate(SHOWN) == [], mode
