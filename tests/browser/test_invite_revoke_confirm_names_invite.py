"""With several invites listed, the question before a revoke names the invite as its row does:
the role it grants and the moment it works until, in the reader's own zone like the row's
<time>, not the page's UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.conftest import campaign_with_invites, dialogs_answered
from tests.browser.test_room_live import _sign_in
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS_UNTIL = datetime(2099, 12, 14, 5, 26, tzinfo=UTC)
OBSERVERS_UNTIL = datetime(2099, 12, 20, 17, 3, tzinfo=UTC)


def _gm_in_new_york(browser, live_server, make_user):
    """gm@example.test's campaign with two live invites, for players until PLAYERS_UNTIL and
    for observers until OBSERVERS_UNTIL, and the GM's page (en-US, New York), signed in and
    not yet on the settings page: (campaign, [invites], page)."""
    campaign, invites = campaign_with_invites(
        make_user, ("player", PLAYERS_UNTIL), ("observer", OBSERVERS_UNTIL)
    )
    context = browser.new_context(locale="en-US", timezone_id="America/New_York")
    return campaign, invites, _sign_in(context, live_server.url, "gm@example.test", land=False)


def test_a_reader_in_new_york_is_asked_about_the_invite_by_its_role_and_local_moment_and_cancelling_sends_nothing(  # noqa: E501
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import CampaignInvite

    campaign, invites, page = _gm_in_new_york(browser, live_server, make_user)
    page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
    sent: list[str] = []
    # The form's POST; not the favicon, which Chromium may fetch whenever it likes.
    page.on(
        "request",
        lambda request: request.method == "POST" and sent.append(request.url),
    )
    with dialogs_answered(page, accept=False) as asked:
        page.get_by_role(
            "button", name="Revoke the player invite that works until Dec 14, 2099, 12:26 AM EST"
        ).click()
        page.get_by_role(
            "button",
            name="Revoke the observer invite that works until Dec 20, 2099, 12:03 PM EST",
        ).click()
        page.wait_for_timeout(300)  # a dismissed confirm sends nothing; let a submit show
    assert asked == [
        "Revoke the player invite that works until Dec 14, 2099, 12:26 AM EST? Its link stops "
        "working for everyone who has it; this cannot be undone.",
        "Revoke the observer invite that works until Dec 20, 2099, 12:03 PM EST? Its link stops "
        "working for everyone who has it; this cannot be undone.",
    ]
    assert sent == []
    assert page.url == f"{live_server.url}/campaigns/{campaign.id}/settings"
    assert [CampaignInvite.objects.get(pk=invite.pk).revoked_at for invite in invites] == [
        None,
        None,
    ]


def test_a_revoke_clicked_before_the_page_can_write_moments_is_asked_once_it_can_and_then_sent(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import CampaignInvite

    campaign, invites, page = _gm_in_new_york(browser, live_server, make_user)
    held = []
    page.route("**/static/js/moments.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings", wait_until="commit")
    with dialogs_answered(page, accept=True) as asked:
        # The row's <time> is not rewritten yet either: the button still says the page's UTC.
        page.get_by_role(
            "button", name="Revoke the player invite that works until Dec 14, 2099, 5:26 AM UTC"
        ).click()
        page.wait_for_timeout(300)
        assert (asked, len(held)) == ([], 1)
        held[0].continue_()
        page.wait_for_selector(".flash__item:has-text('Invite revoked.')")
    assert asked == [
        "Revoke the player invite that works until Dec 14, 2099, 12:26 AM EST? Its link stops "
        "working for everyone who has it; this cannot be undone."
    ]
    assert [CampaignInvite.objects.get(pk=invite.pk).revoked_at is None for invite in invites] == [
        False,
        True,
    ]
