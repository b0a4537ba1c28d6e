"""The GM renames the campaign in its settings while its room is open: every open room page, the
GM's and a player's, shows the new name in its heading and the tab's title without a reload
(real browser, uvicorn, live rules server)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

NOT_RELOADED = "window.roomNotReloaded === true"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_rename_shows_on_every_open_room_page_without_a_reload(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import Campaign

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Old Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        for page in (gm, ilsa):
            assert page.title() == "Old Keep · room · SagaSmith"
            page.evaluate("window.roomNotReloaded = true")

        settings = gm.context.new_page()
        settings.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        settings.fill("#id_name", "  The <New> Keep & Co ")
        settings.click("button:has-text('Save name')")
        expect(settings.locator(".flash__item")).to_have_text(
            ["Campaign renamed to “The <New> Keep & Co”."]
        )

        for page in (gm, ilsa):
            expect(page.locator("h1.room__title")).to_have_text("The <New> Keep & Co")
            expect(page).to_have_title("The <New> Keep & Co · room · SagaSmith")
            assert page.evaluate(NOT_RELOADED)
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
    assert Campaign.objects.get(pk=campaign.pk).name == "The <New> Keep & Co"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_page_offline_during_a_rename_shows_the_new_name_once_reconnected(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.campaigns import campaign_rename

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Old Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate("window.roomNotReloaded = true")
        ilsa.context.set_offline(True)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "reconnecting")

        campaign_rename(campaign=campaign, actor=users["gm@example.test"], name="New Keep")
        ilsa.context.set_offline(False)

        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        expect(ilsa.locator("h1.room__title")).to_have_text("New Keep")
        expect(ilsa).to_have_title("New Keep · room · SagaSmith")
        assert ilsa.evaluate(NOT_RELOADED)
