"""Hand-built SQL helpers: what they write and read is what the ORM would."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from apps.core.sql import insert_select_sql, model_from_row
from apps.projections.models import OutboxEvent

pytestmark = pytest.mark.django_db


def test_model_from_row_converts_as_the_orm_does():
    stored = OutboxEvent.objects.create(
        event_type="turn.job", campaign_id=uuid.uuid4(),
        payload={"status": "running", "tools": ["dice_roll"], "n": 2}, audience={"users": ["u"]},
    )  # fmt: skip
    fields = OutboxEvent._meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {OutboxEvent._meta.db_table} WHERE id = %s",  # noqa: S608
            [stored.pk],
        )
        row = cursor.fetchone()
    built = model_from_row(OutboxEvent, row)
    fetched = OutboxEvent.objects.get(pk=stored.pk)
    assert [getattr(built, f.attname) for f in fields] == [
        getattr(fetched, f.attname) for f in fields
    ]
    assert (built.payload["tools"], built.campaign_id, built._state.adding) == (
        ["dice_roll"], stored.campaign_id, False,
    )  # fmt: skip


def test_insert_select_sql_writes_one_row_per_source_row():
    event = OutboxEvent(event_type="room.entry", campaign_id=uuid.uuid4(), payload={"sequence": 0})
    sql, params = insert_select_sql(OutboxEvent, event, "src", {"event_type": "src.kind"})
    with connection.cursor() as cursor:
        cursor.execute(f"WITH src AS (SELECT 'chosen' AS kind) {sql}", params)  # noqa: S608
        cursor.execute(f"WITH src AS (SELECT 'none' AS kind WHERE 1 = 0) {sql}", params)  # noqa: S608
    (written,) = OutboxEvent.objects.all()
    assert (written.event_type, written.campaign_id, written.payload) == (
        "chosen", event.campaign_id, {"sequence": 0},
    )  # fmt: skip
