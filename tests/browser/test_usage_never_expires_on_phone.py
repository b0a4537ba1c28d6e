"""On a 375 px phone the usage page's grants are cards whose cells carry their column's name:
a grant without an expiry reads "Never expires" on one line, not "Expires Never"."""

from __future__ import annotations

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

PHONE = {"width": 375, "height": 812}
EXPIRY_CELL = """() => {
  const cell = document.querySelector("#usage-grants tbody tr td:nth-child(4)");
  const range = document.createRange();
  range.selectNodeContents(cell);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top)));
  return {text: cell.textContent, label: getComputedStyle(cell, "::before").content,
          lines: lines.size};
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_lasting_grant_reads_never_expires_on_one_line_on_a_phone(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from apps.quota.services import quota_grant

    user = make_user("player@example.test", display_name="Pat Player")
    account = account_on_a_zero_plan(user)
    quota_grant(account=account, amount=100, source="staff", note="Welcome to the table")
    context = browser.new_context(viewport=PHONE)
    try:
        page = _sign_in(context, asgi_server, "player@example.test")
        page.goto(f"{asgi_server}/usage/")
        assert page.evaluate(EXPIRY_CELL) == {"text": "Never expires", "label": "none", "lines": 1}
    finally:
        context.close()
