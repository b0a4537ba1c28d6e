"""The email page with two addresses on a phone: a long address wraps inside the card beside
its radio button, and an unconfirmed address is marked as a warning, not like a confirmed one."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LONG = "pat.second.address.for.the.book.club@example.test"
MEASURED = """() => {
  const card = document.querySelector("main").getBoundingClientRect();
  const padding = parseFloat(getComputedStyle(document.querySelector("main")).paddingRight);
  const labels = [...document.querySelectorAll("main form label[for^=email_radio]")];
  return {
    inside: labels.every((l) => l.getBoundingClientRect().right <= card.right - padding + 0.5),
    besideRadio: labels.every((l) => {
      const radio = document.getElementById(l.htmlFor).getBoundingClientRect();
      return Math.abs(l.getBoundingClientRect().top - radio.top) < radio.height;
    }),
  };
}"""


def test_two_addresses_fit_the_card_and_an_unconfirmed_one_reads_as_a_warning(
    browser, live_server, make_user
):
    from allauth.account.models import EmailAddress

    user = make_user("pat@example.test", display_name="Pat")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    EmailAddress.objects.create(user=user, email=LONG, verified=False)
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/accounts/email/")
    assert page.evaluate(MEASURED) == {"inside": True, "besideRadio": True}
    verified = page.get_by_text("Verified", exact=True)
    unverified = page.get_by_text("Unverified", exact=True)
    background = "(el) => getComputedStyle(el).backgroundColor"
    assert verified.evaluate(background) != unverified.evaluate(background)
    assert page.evaluate("document.documentElement.scrollWidth") == 390
