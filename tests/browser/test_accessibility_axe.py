"""An automated accessibility check of the pages in a real browser: axe-core runs its WCAG 2.1
A and AA rules on each page as its users see it (signed out, as the GM, as a player, in a
live room during a fight and in a narrative room) and finds nothing to report."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat, in_the_room, table_for
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.browser.test_room_options_on_opening import _until_the_goblins_turn
from tests.turns.rooms_support import eager  # noqa: F401

DESKTOP = {"width": 1280, "height": 900}
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}

# Records what the page's policy blocks from now on (run outside that policy).
RECORD_BLOCKED = """() => {
  window.__blocked = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__blocked.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
  });
}"""


def _violations(page) -> list[str]:
    """What axe finds on the page as it is now: one "rule-id: target" line per offending
    element, in axe's order. The page's policy must not block anything axe does."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(RECORD_BLOCKED)
    results = Axe().run(page, options=AXE_OPTIONS).response
    assert page.evaluate("window.__blocked") == []
    return [
        f"{rule['id']}: {' '.join(map(str, node['target']))}"
        for rule in results["violations"]
        for node in rule["nodes"]
    ]


def _assert_no_violations(page) -> None:
    found = _violations(page)
    assert found == [], f"axe found on {page.url}:\n" + "\n".join(found)


def _context(browser):
    return browser.new_context(viewport=DESKTOP)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_axe_runs_under_the_pages_policy_and_reports_what_it_finds(
    browser,
    asgi_server,  # noqa: F811
):
    context = _context(browser)
    try:
        page = context.new_page()
        response = page.goto(f"{asgi_server}/accounts/login/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        # An image without a text alternative, added through the DOM rather than a script.
        page.evaluate(
            """() => {
              const img = document.createElement("img");
              img.id = "no-alt";
              img.src = "/static/img/favicon.svg";
              document.querySelector("main").append(img);
            }"""
        )
        assert _violations(page) == ["image-alt: #no-alt"]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/"])
def test_the_sign_in_and_sign_up_pages_have_no_accessibility_violations(
    browser,
    asgi_server,  # noqa: F811
    settings,
    path,
):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}{path}")
        assert page.url == f"{asgi_server}{path}"
        _assert_no_violations(page)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_sign_in_has_no_accessibility_violations(
    browser,
    asgi_server,  # noqa: F811
):
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        page.fill("input[name=login]", "nobody@example.test")
        page.fill("input[name=password]", "not-the-password")
        page.click("form button[type=submit]")
        page.wait_for_selector("main .errorlist")
        _assert_no_violations(page)
    finally:
        context.close()


def _campaign_with_a_player(make_user):
    """A dnd5e campaign run by gm@example.test, with ilsa@example.test playing the bound
    fighter Ilsa and an open invite, so every section of its pages has something in it."""
    from apps.campaigns.services.characters import character_create_for
    from apps.campaigns.services.invites import invite_create

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Lost Mine",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    character_create_for(
        campaign=campaign, user=users["ilsa@example.test"],
        form_data={"name": "Ilsa", "template": "fighter", "level": 1},
    )  # fmt: skip
    invite_create(
        campaign=campaign, actor=users["gm@example.test"], mode="request",
        expires_in=timedelta(hours=5), max_uses=1,
    )  # fmt: skip
    return campaign


# (who is signed in, the page's path with {campaign} for the campaign's id)
SIGNED_IN_PAGES = [
    pytest.param("gm@example.test", "/", id="dashboard"),
    pytest.param("gm@example.test", "/campaigns/new", id="new-campaign"),
    pytest.param("gm@example.test", "/campaigns/{campaign}/", id="campaign-detail"),
    pytest.param("gm@example.test", "/campaigns/{campaign}/settings", id="campaign-settings"),
    pytest.param("ilsa@example.test", "/campaigns/{campaign}/", id="campaign-detail-player"),
    pytest.param("ilsa@example.test", "/campaigns/{campaign}/characters/new", id="new-character"),
    pytest.param("gm@example.test", "/usage/", id="usage"),
    pytest.param("gm@example.test", "/account/", id="account"),
]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("email", "path"), SIGNED_IN_PAGES)
def test_the_signed_in_pages_have_no_accessibility_violations(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    email,
    path,
):
    campaign = _campaign_with_a_player(make_user)
    url = asgi_server + path.format(campaign=campaign.id)
    context = _context(browser)
    try:
        page = _sign_in(context, asgi_server, email)
        page.goto(url)
        assert page.url == url
        _assert_no_violations(page)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_page_showing_a_message_after_an_action_has_no_accessibility_violations(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    make_user("gm@example.test", display_name="Gail GM")
    context = _context(browser)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/account/")
        page.fill("input[name=display_name]", "Gail the GM")
        page.click("main form button:has-text('Save display name')")
        page.wait_for_selector(".flash__item")
        assert page.inner_text(".flash__item") == "Display name saved."
        _assert_no_violations(page)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_new_campaign_form_has_no_accessibility_violations(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    make_user("gm@example.test", display_name="Gail GM")
    context = _context(browser)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/new")
        page.fill("#id_name", "   ")
        page.click("main form button[type=submit]")
        page.wait_for_selector("#id_name[aria-invalid=true]")
        _assert_no_violations(page)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_live_room_in_combat_has_no_accessibility_violations_for_the_gm_or_a_player(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Goblin Pass") as (
        campaign,
        gm,
        ilsa,
    ):
        for page in (gm, ilsa):
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
            expect(page.locator("#turn-order > li")).to_have_count(2)
            page.wait_for_timeout(300)  # let the panel refreshes of the turn settle
        _assert_no_violations(gm)
        _assert_no_violations(ilsa)
        # On the goblin's turn the GM is offered its options as buttons the page builds.
        _until_the_goblins_turn(campaign, gm, ilsa)
        expect(gm.locator("#composer-suggestions button")).to_have_count(2)
        _assert_no_violations(gm)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_narrative_room_has_no_accessibility_violations_for_the_gm_or_a_player(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for

    campaign, users = table_for(
        make_user, system_id="narrative", name="Fog Harbour",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    character_create_for(
        campaign=campaign, user=users["nia@example.test"],
        form_data={"name": "Nia", "tags": "brave, curious"},
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "gm@example.test", "nia@example.test") as (
        gm,
        nia,
    ):
        for page in (gm, nia):
            expect(page.locator("#room")).to_have_attribute("data-state", "live")
        expect(nia.locator('#turn-character [data-field="name"]')).to_have_text("Nia")
        expect(gm.locator("#turn-character [data-gm]")).to_be_visible()
        _assert_no_violations(gm)
        _assert_no_violations(nia)
