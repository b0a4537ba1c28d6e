"""Outbox sweep on Redis: a pass stops at its time budget, well inside the task's hard time
limit, leaving the rows it did not reach pending for the next sweep and the lock released."""

import socket
import threading
import time
from urllib.parse import urlparse

import pytest
from django.core.cache import cache

from apps.projections import tasks
from apps.projections.models import OutboxEvent
from apps.projections.services import BATCH_SIZE
from apps.projections.tasks import SWEEP_LOCK, outbox_sweep
from tests.conftest import hosted_channel_layers, redis_url_or_skip, reset_realtime_state
from tests.projections.test_outbox_sweep_layer_outage import pending_rows
from tests.rooms.factories import make_campaign

DELAY = 0.3  # how long the slow Redis takes to see each command, in seconds


class DelayingProxy:
    """A TCP relay to Redis that holds every chunk sent to Redis for `delay` seconds: a Redis
    that answers, slowly (an overloaded server, a congested link)."""

    def __init__(self, target: str, delay: float):
        parsed = urlparse(target)
        self.target = (parsed.hostname, parsed.port or 6379)
        self.delay = delay
        self.sockets: list[socket.socket] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.server.getsockname()[1]}{parsed.path or '/0'}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        for sock in [self.server, *self.sockets]:
            try:
                sock.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for src, dst, delay in ((client, upstream, self.delay), (upstream, client, 0)):
                threading.Thread(target=self._pump, args=(src, dst, delay), daemon=True).start()

    def _pump(self, src, dst, delay) -> None:
        try:
            while data := src.recv(65536):
                time.sleep(delay)
                dst.sendall(data)
        except OSError:
            pass


@pytest.fixture
def campaign(make_user):
    return make_campaign(make_user())[0]


@pytest.fixture
def slow_redis(settings):
    relay = DelayingProxy(redis_url_or_skip(), DELAY)
    settings.CHANNEL_LAYERS = hosted_channel_layers(relay.url)
    reset_realtime_state()
    yield relay
    reset_realtime_state()
    relay.close()


@pytest.fixture
def redis_layer(settings):
    settings.CHANNEL_LAYERS = hosted_channel_layers(redis_url_or_skip())
    reset_realtime_state()
    yield
    reset_realtime_state()


def pending_ids():
    return list(
        OutboxEvent.objects.filter(dispatched_at__isnull=True, attempts=0)
        .order_by("id")
        .values_list("id", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_sweep_on_a_slow_redis_stops_at_its_budget_and_leaves_the_rest_pending(
    campaign, slow_redis, monkeypatch
):
    monkeypatch.setattr(tasks, "SWEEP_BUDGET", DELAY * 2 / 3)  # spent by the first send
    ids = pending_rows(campaign, 3)  # one batch

    assert outbox_sweep() == 1
    assert pending_ids() == ids[1:]  # not reached: uncharged
    assert cache.get(SWEEP_LOCK) is None

    assert outbox_sweep() == 1
    assert pending_ids() == ids[2:]


@pytest.mark.django_db(transaction=True)
def test_a_sweep_past_its_budget_starts_no_further_batch(campaign, redis_layer, monkeypatch):
    monkeypatch.setattr(tasks, "SWEEP_BUDGET", 0.0)
    ids = pending_rows(campaign, BATCH_SIZE + 2)  # two batches

    # Each pass sends one row at least, so a sweep started late still makes progress.
    assert outbox_sweep() == 1
    assert pending_ids() == ids[1:]
    assert cache.get(SWEEP_LOCK) is None
