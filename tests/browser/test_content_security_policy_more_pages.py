"""Staff and account pages beyond the ones a game uses work under the pages' policy: the
admin's change forms, date widgets, popups, action confirmations and filters, allauth's
password and email pages, and the error pages, with nothing blocked."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_content_security_policy import RECORD_VIOLATIONS, _blocked
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_admin_and_account_pages_work_with_nothing_blocked(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    gm = make_user("gm@example.test", display_name="Gail GM")
    gm.is_staff = True
    gm.is_superuser = True
    gm.save(update_fields=["is_staff", "is_superuser"])
    other = make_user("ilsa@example.test", display_name="Ilsa")
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        visited = {}
        for path in (
            f"/admin/accounts/user/{other.pk}/change/",
            "/admin/accounts/user/add/?_popup=1&_to_field=id",
            "/admin/accounts/user/",
            "/admin/quota/quotagrant/add/",
            "/admin/core/auditevent/",
            f"/admin/accounts/user/{other.pk}/delete/",
            "/accounts/password/change/",
            "/accounts/email/",
            "/accounts/reauthenticate/",
            "/no-such-page/",
        ):
            status = page.goto(asgi_server + path).status
            page.wait_for_load_state("load")
            visited[path] = (status, _blocked(page))

        page.goto(asgi_server + "/admin/quota/quotagrant/add/")
        page.click("#calendarlink0")
        page.click("#calendarbox0 .calendar-shortcuts a")  # Today
        picked = page.input_value("input.vDateField")
        visited["date widget"] = (bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", picked)), _blocked(page))

        page.goto(asgi_server + "/admin/accounts/user/")
        page.check(f"input[name=_selected_action][value='{other.pk}']")
        page.select_option("select[name=action]", "delete_selected")
        page.click("button[name=index]")
        page.wait_for_load_state("load")
        visited["delete selected"] = (page.locator("h1").inner_text(), _blocked(page))

        page.goto(asgi_server + "/accounts/logout/")
        page.click("main form button[type=submit]")
        page.goto(asgi_server + "/accounts/password/reset/")
        page.wait_for_load_state("load")
        visited["password reset"] = (page.url, _blocked(page))
    finally:
        context.close()

    assert visited == {
        **{
            path: (200, []) for path in visited if path.startswith("/") and path != "/no-such-page/"
        },
        "/no-such-page/": (404, []),
        "date widget": (True, []),
        "delete selected": ("Delete multiple objects", []),
        "password reset": (f"{asgi_server}/accounts/password/reset/", []),
    }
