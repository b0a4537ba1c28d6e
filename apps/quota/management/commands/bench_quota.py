"""Benchmark quota_reserve under concurrency against a bare conditional UPDATE loop.

Both run in the same process against the same database and table, with the same number of
client threads, each thread on its own connection. Overspend is measured two ways: in the
timed run (credits held must equal the balance that left the account) and in a drain run
where clients race for a small balance until it is gone (successes must equal the balance).
"""

from __future__ import annotations

import threading
import time
import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connection, connections

from apps.core.errors import QuotaExceeded
from apps.quota.models import Plan, QuotaAccount, Reservation
from apps.quota.services import quota_account_for, quota_reserve

BIG = 10**12
DRAIN = 500
BARE_SQL = "UPDATE quota_quotaaccount SET balance = balance - %s WHERE id = %s AND balance >= %s"


class Command(BaseCommand):
    help = "Reservations per second and overspend, next to a bare conditional UPDATE loop."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--seconds", type=float, default=10.0)
        parser.add_argument(
            "--accounts",
            type=int,
            default=1,
            help="Accounts shared by the clients (1 = every client hits the same hot row).",
        )
        parser.add_argument("--rounds", type=int, default=5, help="Alternating slices.")

    def handle(self, *args, clients, seconds, accounts, rounds, **options):
        run = uuid.uuid4().hex[:8]
        self.stdout.write(
            f"database: {connection.vendor}; clients {clients}; {seconds:g} s per loop; "
            f"accounts {accounts}; {rounds} alternating rounds"
        )
        plan = Plan.objects.create(
            slug=f"bench-{run}",
            name="bench",
            periodic_grant=BIG,
            period="daily",
            grants_expire=False,
        )
        # Separate accounts for each loop, so neither disturbs the other's arithmetic.
        users = [
            get_user_model().objects.create_user(email=f"bench-quota-{run}-{i}@example.invalid")
            for i in range(accounts * 2)
        ]
        try:
            # Each account starts with BIG credits from its plan grant (no audit row needed).
            accts = [quota_account_for(user=u, plan=plan) for u in users]
            ours_users, ours_accts = users[:accounts], accts[:accounts]
            bare_ids = [a.pk for a in accts[accounts:]]
            # Alternate short slices of both loops so a noisy neighbour on a shared machine
            # slows both alike; each loop still runs `seconds` in total.
            ours = {"ok": 0, "denied": 0, "errors": 0, "elapsed": 0.0}
            bare = {"ok": 0, "denied": 0, "errors": 0, "elapsed": 0.0}
            for r in range(rounds):
                # Keys carry the round: a reused key would be an idempotent replay, not a hold.
                tag = f"{run}-r{r}"
                for total, op in (
                    (ours, lambda i, n, tag=tag: self._reserve(ours_users, tag, i, n)),
                    (bare, lambda i, n: self._bare(bare_ids, i)),
                ):
                    part = self._timed(clients, seconds / rounds, op)
                    for k in ("ok", "denied", "errors", "elapsed"):
                        total[k] += part[k]
            for total in (ours, bare):
                total["rate"] = total["ok"] / total["elapsed"]
            ours_overspend = self._overspend_timed(ours_accts, ours["ok"])
            bare_left = sum(
                QuotaAccount.objects.filter(pk__in=bare_ids).values_list("balance", flat=True)
            )
            bare_overspend = max(0, bare["ok"] - (BIG * len(bare_ids) - bare_left))
            drain_ours = self._drain_ours(clients, users[0], accts[0], run)
            drain_bare = self._drain_bare(clients, accts[-1])
        finally:
            connections.close_all()
            close_old_connections()
            Reservation.objects.filter(user__in=users).delete()
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
            plan.delete()

        ratio = ours["rate"] / bare["rate"] if bare["rate"] else 0.0
        self.stdout.write(
            f"quota_reserve: {ours['ok']} reservations in {ours['elapsed']:.2f} s = "
            f"{ours['rate']:.0f}/s ({ours['denied']} denied, {ours['errors']} errors); "
            f"overspend {ours_overspend}"
        )
        self.stdout.write(
            f"bare UPDATE ... WHERE balance >= n: {bare['ok']} in {bare['elapsed']:.2f} s = "
            f"{bare['rate']:.0f}/s; overspend {bare_overspend}"
        )
        self.stdout.write(
            f"drain {DRAIN} credits with {clients} clients: quota_reserve {drain_ours} succeeded "
            f"(overspend {max(0, drain_ours - DRAIN)}), bare {drain_bare} "
            f"(overspend {max(0, drain_bare - DRAIN)})"
        )
        verdict = "PASS" if ratio >= 0.5 else "BELOW TARGET"
        self.stdout.write(f"ratio quota_reserve / bare: {ratio:.2f}x (target >= 0.5x) {verdict}")
        total_overspend = ours_overspend + max(0, drain_ours - DRAIN)
        if total_overspend or drain_ours != DRAIN:
            self.stderr.write(f"OVERSPEND or short drain: {total_overspend}, {drain_ours}")

    # --- loops --------------------------------------------------------------------------------

    def _timed(self, clients, seconds, op):
        counts = {"ok": 0, "denied": 0, "errors": 0}
        lock = threading.Lock()
        start = threading.Barrier(clients + 1)
        stop_at = [0.0]

        def worker(i):
            ok = denied = errors = n = 0
            close_old_connections()
            try:
                connection.ensure_connection()
                start.wait()
                while time.perf_counter() < stop_at[0]:
                    n += 1
                    try:
                        if op(i, n):
                            ok += 1
                        else:
                            denied += 1
                    except Exception:  # noqa: BLE001 - counted and reported, the loop goes on
                        errors += 1
            finally:
                connections.close_all()
                with lock:
                    counts["ok"] += ok
                    counts["denied"] += denied
                    counts["errors"] += errors

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
        for t in threads:
            t.start()
        stop_at[0] = time.perf_counter() + 3600  # placeholder until everyone is connected
        start.wait()
        began = time.perf_counter()
        stop_at[0] = began + seconds
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - began
        return {**counts, "elapsed": elapsed, "rate": counts["ok"] / elapsed}

    @staticmethod
    def _reserve(users, run, i, n) -> bool:
        try:
            quota_reserve(user=users[i % len(users)], amount=1, key=f"bench-{run}-{i}-{n}")
        except QuotaExceeded:
            return False
        return True

    @staticmethod
    def _bare(ids, i) -> bool:
        with connection.cursor() as cursor:
            cursor.execute(BARE_SQL, [1, ids[i % len(ids)], 1])
            return cursor.rowcount == 1

    def _overspend_timed(self, accts, ok) -> int:
        rows = QuotaAccount.objects.filter(pk__in=[a.pk for a in accts])
        left = sum(r.balance for r in rows)
        held = sum(r.reserved for r in rows)
        spent = BIG * len(accts) - left
        negative = sum(1 for r in rows if r.balance < 0)
        # Credits that left the balance must be exactly those held by successful reservations.
        return max(0, held - spent) + max(0, ok - spent) + negative

    def _drain_ours(self, clients, user, account, run) -> int:
        QuotaAccount.objects.filter(pk=account.pk).update(balance=DRAIN, reserved=0)
        result = self._race_until_dry(
            clients, lambda i, n: self._reserve([user], f"{run}-drain", i, n)
        )
        return result

    def _drain_bare(self, clients, account) -> int:
        QuotaAccount.objects.filter(pk=account.pk).update(balance=DRAIN, reserved=0)
        return self._race_until_dry(clients, lambda i, n: self._bare([account.pk], i))

    def _race_until_dry(self, clients, op) -> int:
        total = [0]
        lock = threading.Lock()
        start = threading.Barrier(clients)

        def worker(i):
            ok, n = 0, 0
            close_old_connections()
            try:
                start.wait()
                while True:
                    n += 1
                    if not op(i, n):
                        break
                    ok += 1
            finally:
                connections.close_all()
                with lock:
                    total[0] += ok

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return total[0]
