"""The bench's transaction counter: the floor of bench_turns runs as many raw transactions as it
counts on a calibration turn, so a write it missed would lower the floor."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from apps.rooms.models import Room
from apps.turns.bench_support import TurnCounter

pytestmark = pytest.mark.django_db(transaction=True)


def test_write_transactions_include_statements_that_write_in_a_cte():
    table = connection.ops.quote_name(Room._meta.db_table)
    counter = TurnCounter()
    with counter.installed(), connection.cursor() as cursor:
        cursor.execute("WITH x AS (SELECT 1 AS n) SELECT n FROM x")  # reads only
        with transaction.atomic():
            cursor.execute(
                f"WITH x AS (SELECT 1 AS n) UPDATE {table} "  # noqa: S608
                "SET last_sequence = last_sequence WHERE 1 = 0"
            )
        if connection.vendor == "postgresql":  # data-modifying CTEs are PostgreSQL's
            with transaction.atomic():
                cursor.execute(
                    f"WITH w AS (UPDATE {table} SET last_sequence = last_sequence "  # noqa: S608
                    "WHERE 1 = 0 RETURNING id) SELECT COUNT(*) FROM w"
                )
        cursor.execute(f"UPDATE {table} SET last_sequence = last_sequence WHERE 1 = 0")  # noqa: S608
    expected = 3 if connection.vendor == "postgresql" else 2
    assert counter.write_transactions == expected
