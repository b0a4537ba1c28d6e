"""One user using two auto-join links at once: each answer says what the database holds."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.campaigns.models import CampaignMembership, JoinRequest
from apps.campaigns.services import invites
from apps.campaigns.services.invites import invite_accept, invite_create, invite_lookup
from apps.campaigns.services.membership import join_request_decide
from tests.campaigns.conftest import domain_members

pytestmark = pytest.mark.django_db


def _auto_join(campaign, gm) -> str:
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=5
    )
    return token


def test_an_auto_join_answered_after_the_other_link_admitted_the_user_says_member(
    domains, monkeypatch, campaign, gm, player
):
    first, second = _auto_join(campaign, gm), _auto_join(campaign, gm)
    real_consume = invites._consume_and_request

    def other_accept_interleaved(*, invite, user, message):
        # The accept of `first` files its request just before this one's insert, and admits
        # the user just after this one read that request back as pending.
        other = real_consume(invite=invite_lookup(token=first), user=user, message="")
        seen = real_consume(invite=invite, user=user, message=message)
        assert (seen.pk, seen.status) == (other.pk, "pending")
        join_request_decide(join_request=other, actor=gm, decision="approve", via_invite=True)
        return seen

    monkeypatch.setattr(invites, "_consume_and_request", other_accept_interleaved)
    outcome = invite_accept(token=second, user=player)
    assert outcome.join_request is None
    assert (outcome.membership.user, outcome.membership.role) == (player, "player")
    assert CampaignMembership.objects.get(campaign=campaign, user=player).status == "active"
    assert list(JoinRequest.objects.values_list("status", flat=True)) == ["approved"]
    assert domain_members(campaign, gm)[f"user:{player.pk}"] == "player"


def test_an_auto_join_whose_waiting_request_the_other_link_just_approved_says_member(
    domains, monkeypatch, campaign, gm, player
):
    first, second = _auto_join(campaign, gm), _auto_join(campaign, gm)
    # The accept of `first` has filed its request and is being granted on the domain server.
    other = invites._consume_and_request(invite=invite_lookup(token=first), user=player, message="")
    real_move = invites._move_request

    def approved_first(*, invite, join_request):
        join_request_decide(join_request=other, actor=gm, decision="approve", via_invite=True)
        return real_move(invite=invite, join_request=join_request)

    monkeypatch.setattr(invites, "_move_request", approved_first)
    outcome = invite_accept(token=second, user=player)
    assert outcome.join_request is None
    assert (outcome.membership.user, outcome.membership.role) == (player, "player")
    assert list(JoinRequest.objects.values_list("status", "invite__used_count")) == [
        ("approved", 1)
    ]
    assert list(
        invites.CampaignInvite.objects.order_by("used_count").values_list("used_count", flat=True)
    ) == [0, 1]


def test_an_auto_join_that_lost_the_insert_to_a_request_already_approved_says_member(
    domains, monkeypatch, campaign, gm, player
):
    first, second = _auto_join(campaign, gm), _auto_join(campaign, gm)
    real_consume = invites._consume_and_request
    manager = JoinRequest.objects
    hooked = ("get", "filter")

    def unhook():
        for name in hooked:
            vars(manager).pop(name, None)

    def approving_first(name):
        def query(*args, **kwargs):
            unhook()
            join_request_decide(join_request=other[0], actor=gm, decision="approve")
            return getattr(manager, name)(*args, **kwargs)

        return query

    other = []

    def other_accept_interleaved(*, invite, user, message):
        # The accept of `first` files its request just before this one's insert, and admits
        # the user before this one reads that request back (its next join request query).
        other.append(real_consume(invite=invite_lookup(token=first), user=user, message=""))
        for name in hooked:
            setattr(manager, name, approving_first(name))
        return real_consume(invite=invite, user=user, message=message)

    monkeypatch.setattr(invites, "_consume_and_request", other_accept_interleaved)
    try:
        outcome = invite_accept(token=second, user=player)
    finally:
        unhook()
    assert outcome.join_request is None
    assert (outcome.membership.user, outcome.membership.role) == (player, "player")
    assert list(JoinRequest.objects.values_list("status", flat=True)) == ["approved"]
