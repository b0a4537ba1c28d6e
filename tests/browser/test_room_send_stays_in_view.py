"""The message box and Send stay in the window while the composer grows (the GM's recipients,
the note on Private for actions), in Chromium at a laptop's and a phone's size: the timeline
gives up the height, and its newest entry stays in view."""

from __future__ import annotations

import pytest

from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

NEWEST_IN_VIEW = """() => {
  const box = document.querySelector('.room__timeline').getBoundingClientRect();
  const last = [...document.querySelectorAll('#timeline li[data-sequence]')].pop();
  const r = last.getBoundingClientRect();
  return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "viewport", [{"width": 1440, "height": 900}, {"width": 390, "height": 844}], ids=str
)
def test_the_message_box_and_send_stay_in_view_as_the_gm_composer_grows(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    viewport,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import CampaignMembership
    from apps.rooms.services import room_message_post

    campaign = _gm_and_pat(make_user)
    gm_membership = CampaignMembership.objects.get(campaign=campaign, user=campaign.owner)
    for n in range(30):  # enough to fill the timeline
        room_message_post(
            membership=gm_membership, body=f"Line {n} of the story so far", mode="chat",
            client_message_id=f"seed-{n}",
        )  # fmt: skip
    context = browser.new_context(viewport=viewport)
    try:
        gm = _sign_in(context, asgi_server, "gm@example.test")
        _open(gm, f"{asgi_server}/campaigns/{campaign.id}/room/")
        body = gm.locator("#composer-body")
        send = gm.get_by_role("button", name="Send", exact=True)
        expect(body).to_be_in_viewport(ratio=1)
        expect(send).to_be_in_viewport(ratio=1)

        gm.get_by_label("Private", exact=True).check()
        expect(gm.locator("#recipients")).to_be_visible()
        expect(body).to_be_in_viewport(ratio=1)
        expect(send).to_be_in_viewport(ratio=1)
        assert gm.evaluate(NEWEST_IN_VIEW) is True

        gm.get_by_label("Action", exact=True).check()
        expect(gm.locator("#audience-private-hint")).to_be_visible()
        expect(body).to_be_in_viewport(ratio=1)
        expect(send).to_be_in_viewport(ratio=1)
        assert gm.evaluate(NEWEST_IN_VIEW) is True
    finally:
        context.close()
