"""The pages work under their Content-Security-Policy in a real browser: nothing they need is
blocked (the room's socket, its panels, the forms' confirmations, the API docs), and an
injected inline script does not run."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import table_for
from tests.browser.test_campaign_settings_confirmations import _asked_when_cancelled
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

# Runs before any page script, outside the page's policy: records what the policy blocked.
RECORD_VIOLATIONS = """
window.__blocked = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__blocked.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def _blocked(page) -> list[str]:
    return page.evaluate("window.__blocked")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_a_gm_visits_works_with_nothing_blocked(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    domain_env,  # noqa: F811
):
    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Lost Mine", players=[("ilsa@example.test", "Ilsa")]
    )
    users["gm@example.test"].is_staff = True
    users["gm@example.test"].save(update_fields=["is_staff"])
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        visited = {}
        for path in (
            "/",
            "/campaigns/new",
            f"/campaigns/{campaign.id}/",
            f"/campaigns/{campaign.id}/settings",
            "/usage",
            "/account",
            "/admin/",
        ):
            page.goto(asgi_server + path)
            page.wait_for_load_state("load")
            visited[path] = _blocked(page)

        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        visited["room"] = _blocked(page)

        page.goto(asgi_server + "/api/docs/")
        expect(page.locator(".opblock").first).to_be_visible()
        visited["api docs"] = _blocked(page)
    finally:
        context.close()

    assert visited == {path: [] for path in visited}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_archiving_still_asks_first_and_cancelling_keeps_the_campaign_active(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    domain_env,  # noqa: F811
):
    campaign, _ = table_for(make_user, system_id="dnd5e", name="Lost Mine")
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        asked = _asked_when_cancelled(page, "form[action$='/settings/archive'] button")
        blocked = _blocked(page)
    finally:
        context.close()

    campaign.refresh_from_db()
    assert asked == [
        "Archive Lost Mine? It becomes read-only: no new invites, members or characters."
    ]
    assert campaign.status == "active"
    assert blocked == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_inline_script_slipped_into_a_page_does_not_run(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    make_user("gm@example.test", display_name="Gail GM")
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.evaluate(
            """() => {
              const host = document.createElement("div");
              host.innerHTML = '<img src="/static/img/favicon.svg" onload="window.__ran = 1">';
              document.body.appendChild(host);
            }"""
        )
        page.wait_for_timeout(300)
        ran = page.evaluate("window.__ran === 1")
        blocked = _blocked(page)
    finally:
        context.close()

    assert ran is False
    assert blocked == ["script-src-attr inline"]
