"""The campaign settings page's revoke button names its invite by the moment its row shows
("until Dec 14, 2099, 12:26 AM EST"): once the page's script writes that moment in the reader's
zone, a screen reader hears the button say the same, not the moment in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.conftest import campaign_with_invites
from tests.browser.test_room_live import _sign_in
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXPIRES = datetime(2099, 12, 14, 5, 26, tzinfo=UTC)
STATUS = "document.querySelector('form.inline-form').closest('tr').children[2].textContent"


def _settings(browser, live_server, make_user, **context_options):
    """The accessible name of the live invite's revoke button and its row's status, as
    gm@example.test reads the settings page with `context_options`."""
    from playwright.sync_api import expect

    campaign, _invites = campaign_with_invites(make_user, ("player", EXPIRES))
    context = browser.new_context(locale="en-US", **context_options)
    page = _sign_in(context, live_server.url, "gm@example.test", land=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
    button = page.get_by_role("button", name="Revoke", exact=False)
    expect(button).to_have_count(1)
    return button, page.evaluate(STATUS)


def test_a_reader_in_new_york_hears_the_revoke_button_name_the_moment_the_row_shows(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from playwright.sync_api import expect

    button, status = _settings(browser, live_server, make_user, timezone_id="America/New_York")
    assert status == "until Dec 14, 2099, 12:26 AM EST"
    expect(button).to_have_accessible_name(
        "Revoke the player invite that works until Dec 14, 2099, 12:26 AM EST"
    )
    # As Chromium itself names it to screen readers, not only as Playwright computes it.
    tree = button.page.context.new_cdp_session(button.page).send("Accessibility.getFullAXTree")
    names = [
        node.get("name", {}).get("value", "")
        for node in tree["nodes"]
        if node.get("role", {}).get("value") == "button"
    ]
    assert [name for name in names if name.startswith("Revoke")] == [
        "Revoke the player invite that works until Dec 14, 2099, 12:26 AM EST"
    ]
    # Sighted readers see "Revoke" alone: the sentence is clipped to a pixel.
    assert button.locator('[aria-hidden="true"]').inner_text() == "Revoke"
    box = button.locator(".sr-only").bounding_box()
    assert (box["width"], box["height"]) == (1, 1)


def test_without_scripts_the_button_and_the_row_both_say_the_moment_in_utc(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from playwright.sync_api import expect

    button, status = _settings(
        browser,
        live_server,
        make_user,
        timezone_id="America/New_York",
        java_script_enabled=False,
    )
    assert status == "until Dec 14, 2099, 5:26 AM UTC"
    expect(button).to_have_accessible_name(
        "Revoke the player invite that works until Dec 14, 2099, 5:26 AM UTC"
    )
