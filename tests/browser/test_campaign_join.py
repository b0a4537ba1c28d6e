"""A GM creates a dnd5e campaign and a request-mode invite; a player requests to join from a
second browser context; the GM approves; the player sees the campaign on the dashboard."""

from __future__ import annotations

import pytest

from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)


def _sign_in(context, live_server, email):
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", "s3cret-passw0rd!")
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_gm_invites_player_who_requests_and_is_approved(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from playwright.sync_api import expect

    make_user("gm@example.test", display_name="Gail GM")
    make_user("player@example.test", display_name="Pat Player")
    gm_context = browser.new_context(viewport={"width": 1440, "height": 900})
    gm = _sign_in(gm_context, live_server, "gm@example.test")
    gm.click("text=New campaign")
    gm.fill("#id_name", "Curse of Strahd")
    gm.check("#id_system_dnd5e")
    gm.click("button:has-text('Create campaign')")
    expect(gm.locator("h1")).to_contain_text("Curse of Strahd")

    gm.select_option("#id_mode", "request")
    gm.fill("#id_max_uses", "1")
    gm.click("button:has-text('Create invite link')")
    invite_url = gm.locator("#new-invite-url").inner_text().strip()
    assert "/invites/" in invite_url

    player_context = browser.new_context(viewport={"width": 390, "height": 844})
    player = _sign_in(player_context, live_server, "player@example.test")
    player.goto(invite_url)
    expect(player.locator("h1")).to_have_text("Curse of Strahd")
    player.fill("#id_message", "Can I join?")
    player.click("button:has-text('Request to join')")
    expect(player.locator("#my-requests")).to_contain_text("Curse of Strahd")

    gm.reload()
    expect(gm.locator("#join-requests")).to_contain_text("Pat Player")
    gm.click("button[aria-label='Approve Pat Player']")
    expect(gm.locator(".flash")).to_contain_text("Pat Player joined the campaign.")

    player.goto(f"{live_server.url}/")
    mine = player.locator("#my-campaigns")
    expect(mine).to_contain_text("Curse of Strahd")
    expect(mine).to_contain_text("Player")
    assert player.locator("#my-requests").count() == 0
    # Usable at 390 px: nothing overflows horizontally.
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= 390


# The form grid's cells holding the "Uses" label, its error list and its input.
GRID_CELLS_OF_USES = """() => {
  const cell = (n) => {
    while (!n.parentElement.matches(".form-grid")) n = n.parentElement;
    return n;
  };
  const [label, error, input] = ["label[for=id_max_uses]", "#id_max_uses_error", "#id_max_uses"]
    .map((s) => cell(document.querySelector(s)));
  return [label.tagName, error === label, input === label];
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_invite_form_keeps_the_uses_label_error_and_input_together(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    """The refused "Uses" field, as the browser builds it: its label, error list and input sit
    in one cell of the form's grid (an error list inside a <p> would end the paragraph early)."""
    from playwright.sync_api import expect

    make_user("gm@example.test", display_name="Gail GM")
    gm = _sign_in(browser.new_context(), live_server, "gm@example.test")
    gm.click("text=New campaign")
    gm.fill("#id_name", "Curse of Strahd")
    gm.check("#id_system_dnd5e")
    gm.click("button:has-text('Create campaign')")
    expect(gm.locator("h1")).to_contain_text("Curse of Strahd")
    gm.fill("#id_max_uses", "101")
    # Past the browser's own min/max check, as an older browser or a script sends it.
    gm.evaluate("document.getElementById('id_max_uses').form.noValidate = true")
    gm.click("button:has-text('Create invite link')")
    error = gm.locator("#id_max_uses_error")
    expect(error).to_have_text("Enter a number of uses from 1 to 100.")
    together = gm.evaluate(GRID_CELLS_OF_USES)
    # The error list and the input lie in the grid cell that holds the label.
    assert together[1:] == [True, True], together
