"""The campaign page's Leave button asks before leaving, naming the campaign as it is written,
in a real browser."""

from __future__ import annotations

import pytest

from tests.browser.conftest import dialogs_answered
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.campaigns.conftest import domain_env, domains, gm, make_campaign, player  # noqa: F401

NAME = "Dragon's Lair & <Co>"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_leave_asks_with_the_campaign_name_as_written_and_cancelling_stays(
    browser,
    asgi_server,  # noqa: F811
    make_campaign,  # noqa: F811
    gm,  # noqa: F811
    player,  # noqa: F811
):
    from apps.campaigns.models import CampaignMembership
    from tests.campaigns.conftest import join

    campaign = make_campaign(gm, name=NAME)
    join(campaign, gm, player)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/")
        with dialogs_answered(page, accept=False) as asked:
            page.get_by_role("button", name="Leave").click()
            page.wait_for_timeout(200)  # a dismissed confirm sends nothing; let a submit show
        assert asked == [f"Leave {NAME}?"]
        assert page.url == f"{asgi_server}/campaigns/{campaign.id}/"
    finally:
        context.close()
    membership = CampaignMembership.objects.get(campaign=campaign, user=player)
    assert membership.status == "active"
