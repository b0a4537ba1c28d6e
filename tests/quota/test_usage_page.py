"""The usage page's ledger: readable details per charge and a running balance that adds up."""

import uuid
from html.parser import HTMLParser
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import formats, timezone

from apps.campaigns.models import CampaignMembership
from apps.quota import services
from apps.quota.models import LedgerEntry
from apps.rooms.models import Message
from apps.rooms.services import room_get_or_create
from apps.turns.models import RoomTurnJob
from tests.rooms.factories import make_campaign

pytestmark = pytest.mark.django_db


class _Table(HTMLParser):
    """The rows of the table with `table_id`: each cell as (text, href of its link or None)."""

    def __init__(self, table_id: str):
        super().__init__()
        self.table_id, self.inside, self.rows = table_id, False, []
        self._cell: list[str] | None = None
        self._href: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self._cell, self._href = [], None
        elif self._cell is not None and tag == "a":
            self._href = attrs.get("href")

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append((" ".join("".join(self._cell).split()), self._href))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table(html: str, table_id: str) -> list[list[tuple[str, str | None]]]:
    parser = _Table(table_id)
    parser.feed(html)
    return [row for row in parser.rows if row]  # the header row has no <td>


def ledger(html: str) -> list[tuple[str, str, str | None, str, str]]:
    """(entry, details, details link, credits, balance after) per ledger row, newest first."""
    return [
        (kind, details, href, credits, balance)
        for (_when, _), (kind, _), (details, href), (credits, _), (balance, _) in table(
            html, "usage-ledger"
        )
    ]


def room_turn(user, campaign, amount, *, sequence):
    """Reserve like turn_action_submit does, with the job that owns the reservation."""
    job_id = uuid.uuid4()
    reservation = services.quota_reserve(
        user=user,
        amount=amount,
        key=f"room_turn:{job_id}",
        owner_type="room_turn",
        owner_id=str(job_id),
    )
    message = Message.objects.create(
        room=room_get_or_create(campaign=campaign),
        sequence=sequence,
        mode=Message.Mode.ACTION,
        sender=user,
        body="I open the door",
        audience=Message.Audience.PUBLIC,
    )
    RoomTurnJob.objects.create(
        id=job_id,
        campaign=campaign,
        requester=user,
        trigger_message=message,
        idempotency_key=str(job_id),
        request_hash="0" * 64,
        text=message.body,
        available_at=timezone.now(),
        reservation=reservation,
    )
    return reservation


@pytest.fixture
def history(user, funded, make_user):
    """grant 20; a turn holds 5 (still running); a turn settles 2 of 3; grant 10; a turn in a
    campaign the user has since left settles 4; a reservation without an owner settles 1."""
    citadel, _ = make_campaign(make_user(), (user, CampaignMembership.Role.PLAYER))
    left, memberships = make_campaign(make_user(), (user, CampaignMembership.Role.PLAYER))
    left.name = "Tomb of Annihilation"
    left.save(update_fields=["name"])
    account = funded(user, 20)
    held = room_turn(user, citadel, 5, sequence=1)
    services.quota_settle(reservation=room_turn(user, citadel, 3, sequence=2), actual=2)
    services.quota_grant(account=account, amount=10, source="staff", note="Sorry for the outage")
    services.quota_settle(reservation=room_turn(user, left, 4, sequence=1), actual=4)
    CampaignMembership.objects.filter(pk=memberships[1].pk).update(
        status=CampaignMembership.Status.REMOVED
    )
    services.quota_settle(
        reservation=services.quota_reserve(user=user, amount=1, key="k"), actual=1
    )
    account.refresh_from_db()
    return {"account": account, "citadel": citadel, "held": held}


def test_ledger_shows_what_each_charge_was_for_and_a_running_balance(client, user, history):
    account, citadel = history["account"], history["citadel"]
    # Available 18, held by the running turn 5: the ledger's newest balance is all 23 credits.
    assert (account.balance, account.reserved) == (18, 5)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    room = f"/campaigns/{citadel.pk}/room/"
    assert ledger(html) == [
        ("Charge", "Other usage", None, "−1", "23"),
        ("Charge", "Room turn in Tomb of Annihilation: “I open the door”", None, "−4", "24"),
        ("Grant", "Sorry for the outage", None, "+10", "28"),
        # Each turn's link opens the room at its action (room.js honours #entry-<sequence>).
        (
            "Charge",
            "Room turn in The Sunless Citadel: “I open the door”",
            f"{room}#entry-2",
            "−2",
            "18",
        ),
        ("Grant", "System", None, "+20", "20"),
    ]
    # The stored balance_after is what was available, less whatever was held at the time.
    stored = LedgerEntry.objects.filter(account=account).order_by("-id")
    assert list(stored.values_list("balance_after", flat=True)) == [18, 19, 23, 13, 20]
    assert (
        '<p class="usage-held small" id="usage-held">'
        "Now: 18 available + 5 held by turns in progress = 23 credits.</p>"
    ) in html
    # The running turn's hold is described the same way.
    reservations = table(html, "usage-reservations")
    assert [row[0] for row in reservations] == [
        (
            f"Room turn in The Sunless Citadel: “I open the door” {history['held'].key[:23]}…",
            f"{room}#entry-1",
        )
    ]


def test_each_row_adds_up_across_pages(client, user, history):
    client.force_login(user)
    rows = ledger(client.get("/usage/").content.decode())
    for (_, _, _, credits, balance), (*_, older_balance) in zip(rows, rows[1:], strict=False):
        assert int(balance) == int(older_balance) + int(credits.replace("−", "-"))
    # An older page continues from the credits before its first row, not from zero.
    grant10 = LedgerEntry.objects.get(account=history["account"], amount=10)
    older = ledger(client.get(f"/usage/?before={grant10.pk}").content.decode())
    assert [(credits, balance) for *_, credits, balance in older] == [("−2", "18"), ("+20", "20")]


def test_no_hold_no_note_and_plain_labels_without_a_job(client, user, funded):
    funded(user, 9)
    services.quota_settle(
        reservation=services.quota_reserve(
            user=user, amount=3, key="room_turn:gone", owner_type="room_turn", owner_id="gone"
        ),
        actual=3,
    )
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert ledger(html) == [
        ("Charge", "Room turn", None, "−3", "6"),
        ("Grant", "System", None, "+9", "9"),
    ]
    assert 'id="usage-held"' not in html


def test_details_cost_one_query_per_page(client, user, history, make_user):
    client.force_login(user)

    def page_queries():
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/usage/").status_code == 200
        return [q["sql"] for q in queries.captured_queries]

    page_queries()  # the first request after sign-in also refreshes the session
    before = page_queries()
    citadel = history["citadel"]
    for n in range(3):
        services.quota_settle(reservation=room_turn(user, citadel, 1, sequence=10 + n), actual=1)
    after = page_queries()
    assert len(after) == len(before), after
    assert len([sql for sql in after if '"turns_roomturnjob"' in sql]) == 1


def test_a_staff_withdrawal_reads_as_a_withdrawal_not_an_expiry(client, user, funded, make_user):
    account = funded(user, 9, 4)
    staff = make_user("staff@example.test", is_staff=True)
    services.quota_grant_withdraw(grant=account.grants.get(amount=4), actor=staff)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert ledger(html) == [
        ("Withdrawal", "Withdrawn by staff", None, "−4", "9"),
        ("Grant", "System", None, "+4", "13"),
        ("Grant", "System", None, "+9", "9"),
    ]
    assert '<span class="badge badge--withdrawal">Withdrawal</span>' in html


def test_the_grants_that_still_hold_credits_are_listed_however_many_were_spent_since(
    client, user, funded
):
    """A lasting grant stays on the page, first as charges draw from it last, however many
    newer grants were spent since; spent ones follow, newest first."""
    from datetime import timedelta

    from django.template.defaultfilters import date as date_filter

    from apps.quota.selectors import quota_grants_for

    account = funded(user, 7)  # never expires: drawn from after those that do
    for n in range(30):
        services.quota_grant(account=account, amount=1, source="staff", note=f"spent {n}",
                             expires_at=timezone.now() + timedelta(hours=1))  # fmt: skip
        services.quota_settle(reservation=services.quota_reserve(user=user, amount=1, key=f"k{n}"),
                              actual=1)  # fmt: skip
    soon = services.quota_grant(
        account=account, amount=3, source="staff", expires_at=timezone.now() + timedelta(days=1)
    )
    grants = quota_grants_for(account=account, limit=25)
    assert len(grants) == 25
    assert [(g.pk, g.remaining) for g in grants[:2]] == [(soon.pk, 3), (grants[1].pk, 7)]
    assert grants[1].expires_at is None
    assert all(g.remaining == 0 for g in grants[2:])
    assert [g.created_at for g in grants[2:]] == sorted(
        (g.created_at for g in grants[2:]), reverse=True
    )
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    assert len(rows) == 25
    assert [(left, expires) for _source, _granted, (left, _), (expires, _) in rows][:3] == [
        ("3", f"{date_filter(soon.expires_at, 'M j, Y, g:i A')} UTC"), ("7", "Never expires"),
        ("0", mock.ANY),
    ]  # fmt: skip


def test_an_upgrade_grant_reads_in_full_on_the_usage_page(client, user, zero_plan):
    from apps.quota.models import Plan

    account = services.quota_account_for(
        user=user,
        plan=Plan.objects.create(slug="small", name="Small", periodic_grant=100),
    )
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=500)
    services.quota_account_plan_change(account=account, plan=pro, actor=None)
    start = services.plan_period_bounds(plan=pro, at=timezone.now())[0].date()
    # The stored note's date as the page writes dates.
    start = formats.date_format(start, "DATE_FORMAT")
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    sources = [source for (source, _), *_ in table(html, "usage-grants")]
    # Both end with the period; charges draw from the plan grant first, as it came first.
    assert sources == [
        "Plan period",
        f"Plan upgrade Upgrade to Pro plan, period from {start}",
    ]
    assert ledger(html)[0] == (
        "Grant",
        f"Upgrade to Pro plan, period from {start}",
        None,
        "+400",
        "500",
    )


def test_next_grant_is_the_current_period_until_its_grant_is_issued(user):
    from datetime import UTC, datetime

    from apps.quota.models import Plan, QuotaAccount
    from apps.quota.selectors import quota_next_grant_at

    small = Plan.objects.create(slug="small", name="Small", periodic_grant=100)
    account = QuotaAccount.objects.create(user=user, plan=small)
    services.quota_plan_grant_issue(account=account, now=datetime(2031, 12, 10, tzinfo=UTC))
    # The periodic run issues January's grant within the hour: that one is next, not February's.
    half_past = datetime(2032, 1, 1, 0, 30, tzinfo=UTC)
    assert quota_next_grant_at(account=account, now=half_past) == datetime(2032, 1, 1, tzinfo=UTC)
    services.quota_issue_periodic_grants(now=half_past)
    assert quota_next_grant_at(account=account, now=half_past) == datetime(2032, 2, 1, tzinfo=UTC)


def test_a_plan_grant_shows_it_expires_at_the_start_of_its_last_day_not_during_it(client, user):
    from datetime import UTC, datetime

    from apps.quota.models import Plan, QuotaAccount

    account = QuotaAccount.objects.create(
        user=user, plan=Plan.objects.create(slug="small", name="Small", periodic_grant=100)
    )
    services.quota_plan_grant_issue(account=account, now=datetime(2031, 12, 10, tzinfo=UTC))
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    # Credits of December are gone when January starts: "Jan 1, 2032" alone reads as usable
    # through January 1.
    assert [expires for *_, (expires, _) in rows] == ["Jan 1, 2032, 12:00 AM UTC"]
