"""The admin's audit log on a 1280 px laptop: its list fits the page. Its subject and request ids
(a UUID and 32 hex digits each) written whole pushed the table past the screen; a row shows the
first eight characters, the whole id in its title."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
SUBJECT = "3b70be11-12b7-5ef8-8b29-5d1378fc532a"
REQUEST = "9f2c4e1a7b3d4c5e8f9a0b1c2d3e4f5a"


def test_the_audit_list_fits_a_1280_px_page_with_each_id_whole_in_its_title(
    browser, live_server, make_user
):
    from playwright.sync_api import expect

    from apps.core.models import AuditEvent
    from apps.core.services import audit_record

    staff = make_user(
        "staff.member.with.a.long.address@example.test",
        display_name="Sam Staff",
        is_staff=True,
        is_superuser=True,
    )
    event = audit_record(
        actor=staff, action="admin.changed", subject_type="campaigns.campaigninvite",
        subject_id=SUBJECT,
    )  # fmt: skip
    AuditEvent.objects.filter(pk=event.pk).update(request_id=REQUEST)
    page = _sign_in(browser.new_context(viewport=LAPTOP), live_server.url, staff.email)
    page.goto(f"{live_server.url}/admin/core/auditevent/")
    # Signing in is audited too: the row of the change, whichever comes first.
    row = page.locator("#result_list tbody tr", has_text="admin.changed")
    expect(row).to_be_visible()
    widths = page.evaluate(
        """() => ({page: document.documentElement.scrollWidth,
                   table: document.querySelector("#result_list").getBoundingClientRect().right})"""
    )
    assert widths == {"page": 1280, "table": widths["table"]}
    assert widths["table"] <= 1280
    assert row.locator("td.field-subject").inner_text() == "campaigns.campaigninvite 3b70be11"
    assert row.locator("td.field-subject [title]").get_attribute("title") == SUBJECT
    assert row.locator("td.field-request_id_column").inner_text() == "9f2c4e1a"
    assert row.locator("td.field-request_id_column [title]").get_attribute("title") == REQUEST
