"""Pages outside the room, in a real browser: the sign-in card sits inside a phone's screen
with a margin, and a rejected campaign name is tied to its field for screen readers."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_room_live import PASSWORD, _sign_in, asgi_server  # noqa: F401

PHONE = {"width": 390, "height": 844}


def _assert_field_refused(page, field_id: str, message: str) -> None:
    """The field is marked invalid and described by its error, which says `message`."""
    page.wait_for_selector(f"#{field_id}_error")
    field = page.locator(f"#{field_id}")
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == f"{field_id}_error"
    assert page.inner_text(f"#{field_id}_error") == message


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_in_card_keeps_a_margin_from_the_phone_screen_edges(
    browser,
    asgi_server,  # noqa: F811
):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        box = page.locator("main.auth-page").bounding_box()
        assert (box["x"], box["x"] + box["width"]) == (16, 374)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_missing_campaign_name_is_announced_with_its_field(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    settings,
):
    # A configured system, so the form shows; an empty name never reaches its server.
    settings.SAGASMITH_DOMAINS = {"narrative": {"url": "http://127.0.0.1:1/mcp"}}
    make_user("gm@example.test", display_name="Gail GM")
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/new/")
        page.click("main form button[type=submit]")
        _assert_field_refused(page, "id_name", "This field is required.")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_unknown_invite_link_is_titled_invite_not_found(
    browser,
    asgi_server,  # noqa: F811
):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/invites/no-such-token")
        assert page.title() == "Invite not found · SagaSmith"
        assert page.inner_text("main h1") == "Invite not found"
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_can_control_hint_sits_below_its_checkbox_label_on_a_phone(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    settings,
):
    from apps.campaigns.models import CampaignMembership
    from tests.rooms.factories import make_campaign

    # The rules server is down: the form asks for a character id instead of listing them.
    settings.SAGASMITH_DOMAINS = {"dnd5e": {"url": "http://127.0.0.1:1/mcp"}}
    gm = make_user("gm@example.test", display_name="Gail GM")
    player = make_user("pat@example.test", display_name="Pat")
    campaign, _ = make_campaign(gm, (player, CampaignMembership.Role.PLAYER))
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/{campaign.id}/settings")
        label = page.locator("label[for=id_bind_control]").bounding_box()
        hint = page.locator("#id_bind_control_help").bounding_box()
        # The label keeps to one line; the hint starts below it instead of squeezing beside it.
        assert label["height"] < 30, label
        assert hint["y"] >= label["y"] + label["height"], (label, hint)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sign_in_page_marks_sign_in_as_the_current_link_in_the_top_bar(
    browser,
    asgi_server,  # noqa: F811
):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        current = page.locator(".topbar [aria-current=page]")
        assert current.all_inner_texts() == ["Sign in"]
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_submitting_the_terms_unticked_ties_the_error_to_the_checkbox(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    make_user("new@example.test", accepted=False)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        page.fill("input[name=login]", "new@example.test")
        page.fill("input[name=password]", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{asgi_server}/legal/accept**")
        page.click("main form button[type=submit]")
        _assert_field_refused(page, "id_accept", "Tick the box to continue.")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_dashboard_room_and_settings_links_name_their_campaign_for_screen_readers(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from tests.rooms.factories import make_campaign

    make_campaign(make_user("gm@example.test", display_name="Gail GM"))
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        actions = page.locator("#my-campaigns .campaign-item__actions a")
        assert actions.all_text_contents() == [
            "Room, The Sunless Citadel",
            "Settings, The Sunless Citadel",
        ]
        # Chromium puts a space before the hidden part, which a screen reader does not voice.
        for word in ("Room", "Settings"):
            name = re.compile(rf"^{word} ?, The Sunless Citadel$")
            assert page.get_by_role("link", name=name).count() == 1
    finally:
        context.close()
