"""A newcomer's first page after signing up asks them to accept the terms: the box and the
sentence it agrees to sit on one line, at a phone's width and a laptop's, so the box does not
float alone above words that seem to belong to nothing."""

from __future__ import annotations

import pytest

# The box's and its label's boxes, and whether the label begins on the box's line.
BOX_AND_LABEL = """() => {
  const box = document.querySelector("#id_accept").getBoundingClientRect();
  const label = document.querySelector("label[for=id_accept]").getBoundingClientRect();
  return {sameLine: label.top < box.bottom, labelRightOfBox: label.left >= box.right};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_the_terms_box_and_its_sentence_share_a_line(browser, live_server, make_user, width):
    make_user("new@example.test", accepted=False)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "new@example.test")
    page.fill("input[name=password]", "s3cret-passw0rd!")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/legal/accept?next=%2F")
    assert page.evaluate(BOX_AND_LABEL) == {"sameLine": True, "labelRightOfBox": True}
    # Refused once (box not ticked), the page keeps the same layout around its error.
    page.click("button:has-text('Accept and continue')")
    assert page.inner_text("#id_accept_error") == "Tick the box to continue."
    assert page.evaluate(BOX_AND_LABEL) == {"sameLine": True, "labelRightOfBox": True}
