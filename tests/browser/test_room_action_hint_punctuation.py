"""A game command sent as chat with punctuation after its opening words ("ask the oracle: …",
"End scene.") is still recognised, and its sender offered to send it as an action; a word that
only begins like an opener ("rolling") is not (real browser, uvicorn, a narrative table)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_action_hint import HINT
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_command_followed_by_punctuation_offers_the_action(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Salt Road",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (ilsa,):
        body = ilsa.locator("#composer-body")
        hint = ilsa.locator("#composer-action-hint")
        said = []
        for text, offered in (
            ("ask the oracle: is the keeper asleep?", True),
            ("rolling my eyes at that", False),
            ("End scene.", True),
            # The GM's story commands too, as the help lists them.
            ("create clock Alarm 6", True),
            ("note that the mayor lied", True),
        ):
            body.fill(text)
            body.press("Enter")
            said.append(text)
            _wait_for_texts(ilsa, said)
            if offered:
                expect(hint.locator(".composer__action-hint-text")).to_have_text(HINT)
            else:
                expect(hint).to_be_empty()
