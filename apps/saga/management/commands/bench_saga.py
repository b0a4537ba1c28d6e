"""Benchmark: advance() calls through a 20-stage auto plan, and replay of 10,000 events."""

import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from apps.saga import services
from apps.saga.models import Saga, SagaEvent
from apps.saga.replay import state_rebuild
from apps.saga.selectors import saga_events
from apps.saga.state import now


def _plan(stages: int) -> str:
    return "\n".join(
        f"## Stage {i}: S{i}\nGoal: g{i}\n```yaml\ndone:\n"
        f"  - kind: file-exists\n    path: f{i}.md\n"
        "evaluator: auto\n```\n"
        for i in range(1, stages + 1)
    )


class Command(BaseCommand):
    help = "Measure advance() latency and replay time against a baseline row-lock transaction."

    def add_arguments(self, parser):
        parser.add_argument("--stages", type=int, default=20)
        parser.add_argument("--events", type=int, default=10_000)
        parser.add_argument("--keep", action="store_true", help="Keep the benchmark rows.")

    def handle(self, *args, **options):
        user, _ = get_user_model().objects.get_or_create(email="bench-saga@example.invalid")
        self.stdout.write(f"database: {connection.vendor}")
        sagas = []
        try:
            sagas.append(self._advance_bench(user, options["stages"]))
            sagas.append(self._replay_bench(user, options["events"]))
        finally:
            if not options["keep"]:
                Saga.objects.filter(pk__in=[s.pk for s in sagas if s]).delete()

    def _advance_bench(self, user, stages):
        start = services.saga_start(user=user, goal="bench", profile="generic")
        sid = start["sagaId"]
        services.saga_advance(user=user, saga_id=sid, plan_yaml=_plan(stages))
        samples = []
        for i in range(1, stages + 1):
            t0 = time.perf_counter()
            out = services.saga_advance(
                user=user,
                saga_id=sid,
                worker_finished=True,
                artifacts=[{"path": f"f{i}.md", "content": "x"}],
            )
            samples.append(time.perf_counter() - t0)
        assert out["reason"] == "completed", out
        saga = Saga.objects.get(key=sid)
        baseline = []
        for _ in range(stages):
            t0 = time.perf_counter()
            with transaction.atomic():
                locked = Saga.objects.select_for_update().get(pk=saga.pk)
                Saga.objects.filter(pk=locked.pk).update(version=locked.version + 1)
            baseline.append(time.perf_counter() - t0)
        p50, base = statistics.median(samples) * 1000, statistics.median(baseline) * 1000
        self.stdout.write(
            f"advance(): {stages} calls, p50 {p50:.2f} ms, {1000 / p50:.0f} calls/s "
            f"(target p50 <= 10 ms) | baseline row-lock tx p50 {base:.2f} ms "
            f"| ratio {p50 / base:.1f}x"
        )
        return saga

    def _replay_bench(self, user, count):
        start = services.saga_start(user=user, goal="bench replay", profile="generic")
        saga = Saga.objects.get(key=start["sagaId"])
        services.saga_advance(user=user, saga_id=saga.key, plan_yaml=_plan(1))
        saga.refresh_from_db()
        ts = now()
        extra = count - saga.last_sequence
        rows = [
            SagaEvent(
                saga=saga,
                sequence=saga.last_sequence + i,
                type="worker_mode_queued",
                ts=ts,
                payload={"stageId": "stage-01", "modeRevision": 1 + i},
            )
            for i in range(1, extra + 1)
        ]
        SagaEvent.objects.bulk_create(rows, batch_size=2000)
        saga.last_sequence += extra
        saga.state["modeRevision"] = 1 + extra
        saga.save(update_fields=["last_sequence", "state"])
        t0 = time.perf_counter()
        list(SagaEvent.objects.filter(saga=saga).values_list("id", flat=True))
        base = time.perf_counter() - t0
        t0 = time.perf_counter()
        rebuilt = state_rebuild(saga_events(saga=saga), saga_id=saga.key)
        elapsed = time.perf_counter() - t0
        assert rebuilt == saga.state
        self.stdout.write(
            f"replay: {saga.last_sequence} events in {elapsed * 1000:.0f} ms (target <= 1000 ms) | "
            f"baseline id scan {base * 1000:.0f} ms | ratio {elapsed / base:.1f}x"
        )
        return saga
