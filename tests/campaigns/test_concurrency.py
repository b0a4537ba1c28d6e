"""Races on PostgreSQL with real threads: invite uses and join decisions."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from apps.campaigns.models import CampaignInvite, CampaignMembership, JoinRequest
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import join_request_decide
from apps.core.errors import ApplicationError
from tests.campaigns.conftest import domain_view
from tests.conftest import require_postgres

pytestmark = pytest.mark.django_db(transaction=True)


def _run_threads(count, target):
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def worker(i):
        try:
            barrier.wait()
            results[i] = target(i)
        except ApplicationError as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_invite_max_uses_under_race(domains, campaign, gm, make_user):
    require_postgres()
    invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=3
    )
    users = [make_user(f"racer{i}@example.test") for i in range(8)]
    results = _run_threads(8, lambda i: invite_accept(token=token, user=users[i]))
    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["invite_exhausted"] * 5 + ["ok"] * 3
    invite.refresh_from_db()
    assert invite.used_count == 3
    assert JoinRequest.objects.filter(invite=invite, status="pending").count() == 3


def test_concurrent_identical_approvals_grant_once(domains, campaign, gm, player):
    require_postgres()
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr_id = invite_accept(token=token, user=player).join_request.id

    def approve(_i):
        jr = JoinRequest.objects.select_related("campaign", "user").get(pk=jr_id)
        return join_request_decide(join_request=jr, actor=gm, decision="approve").status

    results = _run_threads(4, approve)
    assert results == ["approved"] * 4
    assert CampaignMembership.objects.filter(user=player, status="active").count() == 1
    # Same row, same revision, same deterministic key: the domain replayed, one grant only.
    assert domain_view(campaign, gm).structured["authority_revision"] == 2


def test_an_approval_landing_between_a_repeats_reads_is_replayed_not_granted_again(
    domains, campaign, gm, player, monkeypatch
):
    """The same approval twice, the first one landing whole (grant, then the request and the
    campaign's revision committed) just after the second read the request as pending: the
    second grant names the revision from before the first, so the domain replays the first
    grant instead of granting again at the next revision."""
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr_id = invite_accept(token=token, user=player).join_request.id
    repeat = JoinRequest.objects.select_related("campaign", "user").get(pk=jr_id)
    read = JoinRequest.refresh_from_db
    landed = []

    def read_then_the_first_lands(self, *args, **kwargs):
        read(self, *args, **kwargs)
        if self is repeat and not landed:
            landed.append(
                join_request_decide(
                    join_request=JoinRequest.objects.get(pk=jr_id), actor=gm, decision="approve"
                ).status
            )

    monkeypatch.setattr(JoinRequest, "refresh_from_db", read_then_the_first_lands)
    decided = join_request_decide(join_request=repeat, actor=gm, decision="approve")

    assert (landed, decided.status) == (["approved"], "approved")
    assert CampaignMembership.objects.filter(user=player, status="active").count() == 1
    assert domain_view(campaign, gm).structured["authority_revision"] == 2
    campaign.refresh_from_db()
    assert campaign.authority_revision == 2


def test_concurrent_conflicting_decisions(domains, campaign, gm, player):
    require_postgres()
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr_id = invite_accept(token=token, user=player).join_request.id
    decisions = ["approve", "reject", "approve", "reject"]

    def decide(i):
        jr = JoinRequest.objects.select_related("campaign", "user").get(pk=jr_id)
        return join_request_decide(join_request=jr, actor=gm, decision=decisions[i]).status

    results = _run_threads(4, decide)
    final = JoinRequest.objects.get(pk=jr_id).status
    winners = [r for r in results if r == final]
    losers = [r for r in results if isinstance(r, ApplicationError)]
    assert len(winners) == 2
    assert [e.status for e in losers] == [409, 409]
    members = {m["principal"] for m in domain_view(campaign, gm).structured["campaign"]["members"]}
    is_member = CampaignMembership.objects.filter(user=player, status="active").exists()
    # Projection and authority agree whichever decision won.
    assert is_member == (final == "approved") == (f"user:{player.pk}" in members)
    assert CampaignInvite.objects.get().used_count == 1


def test_approving_a_rejoin_takes_the_membership_before_the_campaign(domains, campaign, gm, player):
    """A role change or removal locks the membership, then the campaign. An approval that took
    them the other way round deadlocked with one on the same former member's row."""
    require_postgres()
    from apps.campaigns.models import Campaign
    from apps.campaigns.services.membership import membership_remove
    from tests.campaigns.conftest import join

    join(campaign, gm, player)
    membership_remove(campaign=campaign, actor=gm, user=player)
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr_id = invite_accept(token=token, user=player).join_request.id
    row = CampaignMembership.objects.get(campaign=campaign, user=player)
    holding, outcomes = threading.Event(), {}

    def other_change():
        from django.db import transaction

        try:
            with transaction.atomic():
                CampaignMembership.objects.select_for_update().get(pk=row.pk)
                holding.set()
                threading.Event().wait(0.8)  # the approval reaches its locks meanwhile
                Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
            outcomes["other"] = "ok"
        except Exception as exc:  # noqa: BLE001 - the deadlock victim's error is the finding
            outcomes["other"] = type(exc).__name__
        finally:
            connection.close()

    def approve():
        holding.wait(10)
        try:
            jr = JoinRequest.objects.select_related("campaign", "user").get(pk=jr_id)
            outcomes["approve"] = join_request_decide(
                join_request=jr, actor=gm, decision="approve"
            ).status
        except Exception as exc:  # noqa: BLE001
            outcomes["approve"] = type(exc).__name__
        finally:
            connection.close()

    threads = [threading.Thread(target=other_change), threading.Thread(target=approve)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert outcomes == {"other": "ok", "approve": "approved"}
    row.refresh_from_db()
    assert row.status == CampaignMembership.Status.ACTIVE
