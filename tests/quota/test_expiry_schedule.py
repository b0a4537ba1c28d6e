"""An expired grant's unused credits are written off within a minute: reads leave them out at
once but write nothing, so the ledger's "balance after" waits for the beat's expiry run, which
comes every minute, not with the hourly grant run."""

import pytest
from django.conf import settings

from apps.quota import services
from apps.quota.tasks import quota_expire_grants_task

from .test_expired_part import held_six_of_an_expired_ten_and_five_lasting

pytestmark = pytest.mark.django_db


def test_the_beat_runs_the_expiry_every_minute():
    entries = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "quota.expire_grants"
    ]
    assert entries == [{"task": "quota.expire_grants", "schedule": 60.0}]


def test_the_expiry_task_writes_off_the_unheld_part_of_a_lapsed_grant(api_client, user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    assert quota_expire_grants_task.apply().get() == 4
    api_client.force_login(user)
    newest = api_client.get("/api/usage/ledger?limit=1").json()["results"]
    assert [(e["kind"], e["amount"], e["balance_after"], e["credits_after"]) for e in newest] == [
        ("expire", 4, 5, 11)
    ]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 6)
    assert quota_expire_grants_task.apply().get() == 0


def test_the_expiry_run_leaves_alone_an_account_whose_expired_credits_are_all_held(
    user, funded, monkeypatch
):
    """Held credits stay on their expired grant until the turn settles: the minute's run must
    not lock that account again every minute for nothing to forfeit."""
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    assert quota_expire_grants_task.apply().get() == 4  # the unheld 4; 6 stay held
    visited = []
    real = services._expire_account_grants

    def expire(*, account_id, now):
        visited.append(account_id)
        return real(account_id=account_id, now=now)

    monkeypatch.setattr(services, "_expire_account_grants", expire)
    assert quota_expire_grants_task.apply().get() == 0
    assert visited == []
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 6)
