"""The room's "Here now" list in Chromium while the viewer's connection comes and goes."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401


@contextmanager
def ilsa_here_with_the_gm(browser, base_url: str, make_user, name: str):
    """Ilsa's page in the room of a new dnd5e campaign called `name`, once its "Here now" list
    shows her and the GM; yields her page and that list's items."""
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name=name, players=[("ilsa@example.test", "Ilsa Player")]
    )
    with gm_and_ilsa_in_the_room(browser, base_url, campaign) as (_gm, ilsa):
        here = ilsa.locator("#presence > li")
        expect(here).to_have_text(["Gail GM", "Ilsa Player (you)"])
        yield ilsa, here


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_here_now_lists_nobody_while_the_viewers_connection_is_lost(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with ilsa_here_with_the_gm(browser, asgi_server, make_user, "Draughty Keep") as (ilsa, here):
        ilsa.context.set_offline(True)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "reconnecting")
        # Who is here is not known while this page is cut off (nor is it itself "here").
        expect(here).to_have_text(["Connecting…"])
        expect(ilsa.locator("#presence-count")).to_be_hidden()
        expect(ilsa.locator("#presence-count-name")).to_have_text("")
        ilsa.context.set_offline(False)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        expect(here).to_have_text(["Gail GM", "Ilsa Player (you)"])
        expect(ilsa.locator("#presence-count")).to_have_text("2")
