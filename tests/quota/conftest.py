from types import SimpleNamespace

import pytest

from apps.quota.models import Plan, QuotaAccount, QuotaGrant
from apps.quota.services import quota_account_for, quota_grant


@pytest.fixture
def zero_plan(db):
    # A plan without periodic credits, so each test decides the balance exactly.
    return Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")


@pytest.fixture
def funded(zero_plan):
    """funded(user, 10, 5, ...) -> account with one staff grant per amount."""

    def make(user, *amounts, expires=None):
        account = quota_account_for(user=user, plan=zero_plan)
        for i, amount in enumerate(amounts):
            quota_grant(
                account=account,
                amount=amount,
                source=QuotaGrant.Source.SYSTEM,
                expires_at=expires[i] if expires else None,
            )
        account.refresh_from_db()
        return account

    return make


@pytest.fixture
def staff_client(client, make_user):
    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    client.force_login(staff)
    return client, staff


def assert_invariant(account: QuotaAccount) -> None:
    """sum(grant.remaining) == balance + reserved: no credit is created or lost."""
    account.refresh_from_db()
    remaining = sum(account.grants.values_list("remaining", flat=True))
    assert remaining == account.balance + account.reserved
    assert account.balance >= 0 and account.reserved >= 0


@pytest.fixture(params=["one_statement", "orm"])
def settle_path(request, monkeypatch):
    """Runs a settlement test on both paths: PostgreSQL's one-statement settlement (the ORM
    path elsewhere) and the ORM path it falls back to. Yields the fast path's hits."""
    from apps.quota import services

    path = SimpleNamespace(mode=request.param, hits=[])
    fast = services._settle_one_statement

    def spy(**kwargs):
        entry = None if request.param == "orm" else fast(**kwargs)
        path.hits.append(entry)
        return entry

    monkeypatch.setattr(services, "_settle_one_statement", spy)
    return path
