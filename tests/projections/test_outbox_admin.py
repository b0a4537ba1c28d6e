"""Outbox in the admin: an operator lists the rows pending, published or given up, and reads why
a row was given up in the list itself."""

import pytest
from django.utils import timezone

from apps.projections.models import OutboxEvent

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/projections/outboxevent/"
CAMPAIGN = "6c12532c-5db2-443a-bbc3-a8f8f3559778"
WHY = "OverflowError: Integer value out of range"


@pytest.fixture
def staff_client(client, make_user):
    client.force_login(make_user("staff@example.test", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def rows():
    def row(**fields):
        return OutboxEvent.objects.create(
            event_type="state.changed", campaign_id=CAMPAIGN, payload={}, **fields
        ).id

    now = timezone.now()
    return {
        "pending": row(attempts=3),
        "published": row(dispatched_at=now),
        "given_up": row(dispatched_at=now, attempts=10, error=WHY),
    }


@pytest.mark.parametrize("state", ["pending", "published", "given_up"])
def test_the_outbox_list_filters_rows_by_state(staff_client, rows, state):
    response = staff_client.get(CHANGELIST, {"state": state})
    assert response.status_code == 200
    assert [row.id for row in response.context["cl"].result_list] == [rows[state]]


def test_the_outbox_list_shows_why_a_row_was_given_up(staff_client, rows):
    response = staff_client.get(CHANGELIST, {"state": "given_up"})
    # Datetime fields are listed as columns of their own name, which say the zone.
    assert [getattr(c, "__name__", c) for c in response.context["cl"].list_display] == [
        "action_checkbox", "id", "event_type", "campaign_id", "created_at", "dispatched_at",
        "attempts", "error",
    ]  # fmt: skip
    assert [callable(c) for c in response.context["cl"].list_display[4:6]] == [True, True]
    assert WHY in response.content.decode()
    filters = {spec.title: [c["display"] for c in spec.choices(response.context["cl"])]
               for spec in response.context["cl"].filter_specs}  # fmt: skip
    assert filters["state"] == ["All", "Pending", "Published", "Given up"]


def test_send_again_puts_only_given_up_rows_back_to_pending_and_audits_it(staff_client, rows):
    from apps.core.models import AuditEvent

    before = {
        row["id"]: row
        for row in OutboxEvent.objects.values("id", "dispatched_at", "attempts", "error")
    }
    response = staff_client.post(
        CHANGELIST,
        {"action": "send_again", "_selected_action": [str(i) for i in rows.values()]},
        follow=True,
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "1 given-up row put back to pending; it is published again within seconds."
    ]
    after = {
        row["id"]: row
        for row in OutboxEvent.objects.values("id", "dispatched_at", "attempts", "error")
    }
    assert after[rows["given_up"]] == {
        "id": rows["given_up"], "dispatched_at": None, "attempts": 0, "error": "",
    }  # fmt: skip
    # Rows that were not given up are left as they were.
    assert {k: v for k, v in after.items() if k != rows["given_up"]} == {
        k: v for k, v in before.items() if k != rows["given_up"]
    }
    audit = AuditEvent.objects.get(action="outbox.send_again")
    assert (audit.actor.email, audit.subject_type, audit.details) == (
        "staff@example.test",
        "projections.outboxevent",
        {"ids": [rows["given_up"]], "errors": {str(rows["given_up"]): WHY}},
    )


def test_send_again_without_a_given_up_row_says_so_and_changes_nothing(staff_client, rows):
    from apps.core.models import AuditEvent

    before = list(OutboxEvent.objects.order_by("id").values())
    response = staff_client.post(
        CHANGELIST,
        {"action": "send_again", "_selected_action": [str(rows["pending"])]},
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == [
        "None of the selected rows was given up; nothing changed."
    ]
    assert list(OutboxEvent.objects.order_by("id").values()) == before
    assert AuditEvent.objects.filter(action="outbox.send_again").count() == 0
