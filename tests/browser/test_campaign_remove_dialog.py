"""The settings page asks before removing a member or archiving, naming whom or what as it is
written (an apostrophe, an ampersand), in a real browser."""

from __future__ import annotations

import pytest

from tests.browser.conftest import dialogs_answered
from tests.browser.test_room_live import PASSWORD, _sign_in, asgi_server  # noqa: F401
from tests.campaigns.conftest import domain_env, domains, gm, make_campaign, player  # noqa: F401

NAME = "Pat O'Brien & <Co>"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_remove_asks_naming_the_member_as_written_and_cancelling_keeps_them(
    browser,
    asgi_server,  # noqa: F811
    make_campaign,  # noqa: F811
    make_user,
    gm,  # noqa: F811
):
    from apps.campaigns.models import CampaignMembership
    from tests.campaigns.conftest import join

    member = make_user("obrien@example.test", display_name=NAME, password=PASSWORD)
    campaign = make_campaign(gm, name="Kaer Morhen's Keep")
    join(campaign, gm, member)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        with dialogs_answered(page, accept=False) as asked:
            page.get_by_role("button", name=f"Remove {NAME}").click()
            page.get_by_role("button", name="Archive").click()
            page.wait_for_timeout(200)  # a dismissed confirm sends nothing; let a submit show
        assert asked == [
            f"Remove {NAME} from this campaign?",
            "Archive Kaer Morhen's Keep? It becomes read-only: no new invites, members or "
            "characters.",
        ]
        assert page.url == f"{asgi_server}/campaigns/{campaign.id}/settings"
    finally:
        context.close()
    membership = CampaignMembership.objects.get(campaign=campaign, user=member)
    assert (membership.status, campaign.status) == ("active", "active")
