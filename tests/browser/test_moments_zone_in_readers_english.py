"""A moment names its zone as the reader's own English does: "BST" for a reader in London in
summer (en-GB), where the page's plain "en" said "GMT+1"; a New Yorker (en-US) still reads
"EDT", and a reader in another language keeps the page's English words ("GMT+9")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.conftest import campaign_with_invites
from tests.browser.test_room_live import _sign_in
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SUMMER = datetime(2099, 7, 14, 5, 26, tzinfo=UTC)


@pytest.mark.parametrize(
    "locale, zone, written",
    [
        ("en-GB", "Europe/London", "until Jul 14, 2099, 6:26 AM BST"),
        ("en-US", "America/New_York", "until Jul 14, 2099, 1:26 AM EDT"),
        ("ja-JP", "Asia/Tokyo", "until Jul 14, 2099, 2:26 PM GMT+9"),
    ],
)
def test_an_invites_moment_names_its_zone_in_the_readers_english(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
    locale,
    zone,
    written,
):
    from playwright.sync_api import expect

    campaign, _invites = campaign_with_invites(make_user, ("player", SUMMER))
    context = browser.new_context(locale=locale, timezone_id=zone)
    page = _sign_in(context, live_server.url, "gm@example.test", land=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
    status = page.locator("tr", has=page.locator("form.inline-form")).locator("td").nth(2)
    expect(status).to_have_text(written)
