"""On a phone, the campaign settings' invite list breaks an invite's moment between its date and
its time alone: it read "until Jan / 6, 2027, / 7:49 AM / EST" over four lines. Once the page's
script writes the moment in the reader's zone, the date and the time are each in a span.nowrap,
and the moment's words are the same as before. The room's timeline writes its times the same
way."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.conftest import account_on_a_zero_plan, campaign_with_invites
from tests.browser.test_room_history import _gm_and_player, _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
EXPIRES = datetime(2027, 1, 6, 12, 49, tzinfo=UTC)
# Per <time> in the row's status cell: its text, the lines it is laid out on, and each
# span.nowrap's words, the boxes (lines) it is laid out in and its white-space.
STATUS = """() => [...document.querySelector('form.inline-form').closest('tr').children[2]
  .querySelectorAll('time')].map((time) => ({
    text: time.textContent,
    lines: new Set([...time.getClientRects()].map((box) => Math.round(box.top))).size,
    spans: [...time.querySelectorAll('span.nowrap')].map((span) => [
      span.textContent, span.getClientRects().length, getComputedStyle(span).whiteSpace]),
  }))"""
# Per entry of the room's timeline: its time's text, and each span.nowrap's words and boxes.
TIMELINE = """() => [...document.querySelectorAll('#timeline li[data-sequence] .entry__time')]
  .map((time) => [time.textContent, [...time.querySelectorAll('span.nowrap')]
    .map((span) => [span.textContent, span.getClientRects().length])])"""
EVERY_PART = """() => [...document.querySelectorAll('time span.nowrap')]
  .filter((span) => !span.closest('.sr-only')).map((span) => span.getClientRects().length)"""


def test_a_phone_breaks_an_invites_moment_between_its_date_and_its_time_alone(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from playwright.sync_api import expect

    campaign, _invites = campaign_with_invites(make_user, ("player", EXPIRES))
    context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="America/New_York")
    page = _sign_in(context, live_server.url, "gm@example.test", land=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
    expect(page.get_by_role("button", name="Revoke", exact=False)).to_have_count(1)
    assert page.evaluate(STATUS) == [
        {
            "text": "Jan 6, 2027, 7:49 AM EST",
            "lines": 2,
            "spans": [["Jan 6, 2027,", 1, "nowrap"], ["7:49 AM EST", 1, "nowrap"]],
        }
    ]
    # The revoke button's words for screen readers are the same moment, written the same way.
    assert page.evaluate(
        "() => [...document.querySelectorAll('.sr-only time')].map((t) => t.textContent)"
    ) == ["Jan 6, 2027, 7:49 AM EST"]
    assert page.evaluate(EVERY_PART) == [1, 1]


def test_the_rooms_timeline_keeps_an_older_entrys_date_and_time_each_on_one_line(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from apps.rooms.models import Message
    from apps.rooms.services import room_message_post

    campaign, gm_m, _player_m = _gm_and_player(make_user)
    older, _ = room_message_post(
        membership=gm_m, body="At the gate.", mode="chat", client_message_id="gate"
    )
    Message.objects.filter(pk=older.pk).update(created_at=EXPIRES)
    today, _ = room_message_post(
        membership=gm_m, body="Inside.", mode="chat", client_message_id="inside"
    )
    Message.objects.filter(pk=today.pk).update(created_at=datetime.now(UTC))
    context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="America/New_York")
    page = _sign_in(context, asgi_server, "gm@example.test", land=False)
    _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
    entries = page.evaluate(TIMELINE)
    # An older entry says its day too, kept apart from its time as the pages do.
    assert entries[0] == [
        "Jan 6, 2027, 7:49 AM EST",
        [["Jan 6, 2027,", 1], ["7:49 AM EST", 1]],
    ]
    # Today's entry says its time alone, kept on one line whole.
    assert len(entries) == 2, entries
    alone = entries[1][0]
    assert re.fullmatch(r"\d{1,2}:\d{2} [AP]M EST", alone), entries
    assert entries[1][1] == [[alone, 1]]


def test_the_usage_pages_held_until_never_leaves_the_zone_alone_on_a_phone(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from django.utils import timezone

    from apps.quota.models import Reservation
    from apps.quota.services import quota_grant, quota_reserve

    user = make_user("player@example.test", display_name="Pat Player")
    quota_grant(account=account_on_a_zero_plan(user), amount=1200, source="staff", note="Hi")
    now = timezone.now()
    # One hold ends in two days (its date and time), one in a minute (its time alone).
    for n, ends in enumerate([now + timedelta(days=2), now + timedelta(minutes=1)]):
        reservation = quota_reserve(user=user, amount=5, key=f"room_turn:{n}-{uuid.uuid4()}")
        Reservation.objects.filter(pk=reservation.pk).update(expires_at=ends)
    context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="America/New_York")
    page = _sign_in(context, asgi_server, "player@example.test", land=False)
    page.goto(f"{asgi_server}/usage/")
    held = page.evaluate(
        """() => [...document.querySelectorAll('#usage-reservations time')].map((time) => {
          const spans = [...time.querySelectorAll('span.nowrap')];
          return {
            parts: spans.map((span) => span.textContent).join(' ') === time.textContent,
            whole: spans.every((span) => span.getClientRects().length === 1),
            lines: new Set([...time.getClientRects()].map((b) => Math.round(b.top))).size,
            spans: spans.length,
          }; })"""
    )
    # However the reader's day falls, each part is on one line and no line holds less than one.
    assert [
        [h["parts"], h["whole"], 1 <= h["spans"] <= 2, h["lines"] <= h["spans"]] for h in held
    ] == [[True, True, True, True]] * 2, held
