"""A room page whose socket missed a turn's last progress event (published while the socket's
subscription was down) stops showing the turn in progress at the next heartbeat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_turn_jobs_list import _nia_in_her_room
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_turn_whose_end_the_socket_missed_leaves_the_list_at_the_next_heartbeat(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
    monkeypatch,
    turns_stay_queued,
    settings,
):
    from django.db import transaction
    from django.utils import timezone
    from playwright.sync_api import expect

    from apps.projections import dispatch
    from apps.projections.models import OutboxEvent
    from apps.turns.models import RoomTurnJob
    from apps.turns.services.jobs import job_announce

    settings.ROOMS_HEARTBEAT_SECONDS = 0.5
    with _nia_in_her_room(browser, asgi_server, make_user) as (page, campaign, _nia):
        _say(page, "roll 1d20", mode="action")
        rows = page.locator("#turn-jobs li")
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-status", "queued")
        job = RoomTurnJob.objects.get(campaign=campaign)
        # The turn ends; its event goes out while Redis restarts: marked published, never
        # received by this page's socket.
        monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
        now = timezone.now()
        with transaction.atomic():
            RoomTurnJob.objects.filter(pk=job.pk).update(
                status=RoomTurnJob.Status.CANCELLED, finished_at=now, updated_at=now
            )
            job.refresh_from_db()
            job_announce(job)
            OutboxEvent.objects.filter(dispatched_at__isnull=True).update(
                dispatched_at=now, created_at=now - timedelta(seconds=5)
            )
        expect(rows).to_have_count(0, timeout=5000)
        expect(page.locator("#turn-jobs-empty")).to_be_visible()
