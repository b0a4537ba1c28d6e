"""Renaming a campaign from its settings page in a real browser, at a phone's width: a refused
name keeps the focus on the field, a good one is saved and said so, nothing is blocked."""

from __future__ import annotations

import os

import pytest

from tests.browser.test_campaign_settings_confirmations import _gm_campaign, _gm_page
from tests.browser.test_content_security_policy import RECORD_VIOLATIONS, _blocked
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
FOCUSED = "document.activeElement.id"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gm_renames_the_campaign_after_a_refused_blank_name(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import Campaign

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _gm, campaign = _gm_campaign(make_user)
    with _gm_page(browser, live_server.url) as page:
        page.add_init_script(RECORD_VIOLATIONS)
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        assert page.input_value("#id_name") == "Curse of Strahd"
        assert page.evaluate(NO_SIDEWAYS_SCROLL)

        page.fill("#id_name", "   ")
        page.click("button:has-text('Save name')")
        page.wait_for_selector("#id_name[aria-invalid=true]")
        assert page.evaluate(FOCUSED) == "id_name"
        assert page.inner_text("#id_name_error") == "This field is required."
        assert page.locator("h1").inner_text() == "Curse of Strahd"
        assert Campaign.objects.get(pk=campaign.pk).name == "Curse of Strahd"

        page.fill("#id_name", "  Curse of Strahd: Reloaded ")
        page.click("button:has-text('Save name')")
        page.wait_for_selector(".flash__item:has-text('Campaign renamed')")
        assert page.inner_text(".flash__item") == "Campaign renamed to “Curse of Strahd: Reloaded”."
        assert page.locator("h1").inner_text() == "Curse of Strahd: Reloaded"
        assert page.input_value("#id_name") == "Curse of Strahd: Reloaded"
        assert page.title().startswith("Curse of Strahd: Reloaded settings")
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        assert _blocked(page) == []
    assert Campaign.objects.get(pk=campaign.pk).name == "Curse of Strahd: Reloaded"
