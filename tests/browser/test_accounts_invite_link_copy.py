"""On a phone, staff create an invite and land on its page with the link in a field and a copy
button that puts it on the clipboard; the invite list names it on one line."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_new_invites_link_is_copied_from_its_page_and_the_list_names_it_on_one_line(
    browser, live_server, make_user
):
    from apps.accounts.models import RegistrationInvite

    make_user(
        "staff.member@example.test", display_name="Sam Staff", is_staff=True, is_superuser=True
    )
    context = browser.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    page = _sign_in(context, live_server.url, "staff.member@example.test")
    page.goto(f"{live_server.url}/admin/accounts/registrationinvite/add/")
    page.fill("#id_note", "book club")
    page.click("input[name=_save]")
    invite = RegistrationInvite.objects.get()
    page.wait_for_url(f"**/admin/accounts/registrationinvite/{invite.pk}/change/")
    field = page.locator("#invite-link")
    link = field.input_value()
    assert link.startswith(f"{live_server.url}/accounts/signup/?invite=")
    # Field and button within the phone's width.
    for box in (field.bounding_box(), page.get_by_role("button", name="Copy link").bounding_box()):
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # Its help starts under the field, not indented as if beside a side label.
    help_box = page.locator("#invite-link-help").bounding_box()
    assert help_box["x"] == field.bounding_box()["x"]
    page.get_by_role("button", name="Copy link").click()
    status = page.locator("[data-copy-status=invite-link]")
    status.filter(has_text="Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == link

    page.goto(f"{live_server.url}/admin/accounts/registrationinvite/")
    cell = page.locator("#result_list th.field-short_id a")
    assert cell.inner_text() == str(invite.pk)[:8]
    # An inline box has one rectangle per line it takes.
    lines = "document.querySelector('#result_list th.field-short_id span').getClientRects().length"
    assert page.evaluate(lines) == 1
