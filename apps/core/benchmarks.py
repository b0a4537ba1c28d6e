"""Helpers the benchmark commands share: percentiles and CPU accounting per process."""

from __future__ import annotations

import os
import time

from django.db import close_old_connections, connection


def pct(values, p: float) -> float:
    """Nearest-rank percentile; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process from /proc (0 when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    # utime and stime are the 14th and 15th fields; the split starts at the 3rd.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_backend_pids() -> list[int]:
    """Server processes serving this database (every client's connections); [] elsewhere."""
    close_old_connections()
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND backend_type = 'client backend'"
        )
        return [row[0] for row in cursor.fetchall() if row[0]]


def cpu_snapshot(processes: dict[str, int], postgres_pids: list[int]) -> dict[str, float]:
    """CPU seconds so far of this process ("bench"), each named process and each backend."""
    return {
        "bench": time.process_time(),
        **{name: cpu_seconds(pid) for name, pid in processes.items()},
        **{f"postgres:{pid}": cpu_seconds(pid) for pid in postgres_pids},
    }


def cpu_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds between two snapshots by name, backends summed as "postgres". A backend that
    connected in between counts from zero; one that left is not seen."""
    delta = {key.partition(":")[0]: 0.0 for key in [*before, *after]}
    for key, value in after.items():
        delta[key.partition(":")[0]] += value - before.get(key, 0.0)
    return delta
