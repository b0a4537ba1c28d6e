"""Invites, join decisions, roles and removal: authority first, checked on the live server."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from apps.campaigns.models import (
    ActorBinding,
    Campaign,
    CampaignInvite,
    CampaignMembership,
    JoinRequest,
)
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import join_request_decide, membership_change_role
from apps.core.errors import Conflict
from apps.domains.errors import DomainError
from apps.projections.models import OutboxEvent
from tests.campaigns.conftest import domain_members, domain_view, join
from tests.domains.conftest import domains_setting

pytestmark = pytest.mark.django_db


def _invite(api_client, campaign, **body):
    payload = {"mode": "request", "expires_in_hours": 24, "max_uses": 5, **body}
    return api_client.post(f"/api/campaigns/{campaign.id}/invites", payload, format="json")


def test_invite_token_shown_once_and_hashed(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)
    created = _invite(api_client, campaign)
    assert created.status_code == 201
    body = created.json()
    token = body["token"]
    assert len(token) == 43  # 32 random bytes, urlsafe base64
    assert body["url"] == f"http://testserver/invites/{token}"
    invite = CampaignInvite.objects.get()
    assert invite.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert (invite.mode, invite.role, invite.max_uses, invite.used_count) == (
        "request", "player", 5, 0,
    )  # fmt: skip
    listed = api_client.get(f"/api/campaigns/{campaign.id}/invites").json()
    assert [i["id"] for i in listed] == [str(invite.id)]
    assert "token" not in listed[0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"expires_in_hours": 0}, "expires_in_hours"),
        ({"expires_in_hours": 30 * 24 + 1}, "expires_in_hours"),
        ({"max_uses": 0}, "max_uses"),
        ({"max_uses": 101}, "max_uses"),
        ({"mode": "open"}, "mode"),
        ({"role": "gm"}, "role"),
    ],
)
def test_invite_bounds(domains, api_client, campaign, gm, body, field):
    api_client.force_authenticate(gm)
    response = _invite(api_client, campaign, **body)
    assert response.status_code == 400
    assert list(response.json()["error"]["details"]["fields"]) == [field]
    assert CampaignInvite.objects.count() == 0


def test_players_cannot_invite_or_decide(domains, api_client, campaign, gm, player, make_user):
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    assert _invite(api_client, campaign).status_code == 403
    assert CampaignInvite.objects.count() == 1  # only the one join() used
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    other = make_user("other@example.test")
    jr = invite_accept(token=token, user=other).join_request
    url = f"/api/campaigns/{campaign.id}/join-requests/{jr.id}/decision"
    response = api_client.post(url, {"decision": "approve"}, format="json")
    assert response.status_code == 403
    jr.refresh_from_db()
    assert jr.status == "pending"
    assert f"user:{other.pk}" not in domain_members(campaign, gm)


def test_request_flow_approve_is_idempotent_and_conflict_is_409(
    domains, api_client, campaign, gm, player
):
    api_client.force_authenticate(gm)
    token = _invite(api_client, campaign).json()["token"]
    api_client.force_authenticate(player)
    accepted = api_client.post("/api/invites/accept", {"token": token}, format="json")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "pending"
    jr = JoinRequest.objects.get()
    assert accepted.json()["join_request_id"] == str(jr.id)
    # Accepting again does not use the invite twice.
    api_client.post("/api/invites/accept", {"token": token}, format="json")
    assert CampaignInvite.objects.get().used_count == 1
    assert api_client.get(f"/api/campaigns/{campaign.id}").status_code == 404

    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/join-requests/{jr.id}/decision"
    approved = api_client.post(url, {"decision": "approve"}, format="json")
    assert approved.status_code == 200
    assert approved.json()["status"] == "approved"
    campaign.refresh_from_db()
    assert campaign.authority_revision == 2
    assert campaign.authority_receipt["changed_scopes"] == ["campaign", "membership"]
    assert campaign.authority_receipt["entity_ids"] == [f"user:{player.pk}"]
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "player"
    # The live server checks the new member's own delegation: they can read the campaign now.
    assert domain_view(campaign, player).structured["campaign"]["name"] == campaign.name

    again = api_client.post(url, {"decision": "approve"}, format="json")
    assert again.status_code == 200
    assert again.json()["status"] == "approved"
    conflict = api_client.post(url, {"decision": "reject"}, format="json")
    assert conflict.status_code == 409
    assert conflict.json()["error"]["code"] == "join_request_decided"
    jr.refresh_from_db()
    assert jr.status == "approved"
    campaign.refresh_from_db()
    assert campaign.authority_revision == 2
    assert domain_view(campaign, gm).structured["authority_revision"] == 2


def test_reject_then_approve_is_409_and_domain_untouched(domains, campaign, gm, player):
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr = invite_accept(token=token, user=player).join_request
    assert join_request_decide(join_request=jr, actor=gm, decision="reject").status == "rejected"
    assert join_request_decide(join_request=jr, actor=gm, decision="reject").status == "rejected"
    with pytest.raises(Conflict) as exc:
        join_request_decide(join_request=jr, actor=gm, decision="approve")
    assert exc.value.status == 409
    assert not CampaignMembership.objects.filter(user=player).exists()
    assert domain_members(campaign, gm) == {f"user:{gm.pk}": "owner"}


def test_auto_join_makes_member_at_once(domains, api_client, campaign, gm, player):
    api_client.force_authenticate(gm)
    token = _invite(api_client, campaign, mode="auto_join", role="observer").json()["token"]
    api_client.force_authenticate(player)
    response = api_client.post("/api/invites/accept", {"token": token}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "member"
    assert response.json()["role"] == "observer"
    assert domain_members(campaign, gm)[f"user:{player.pk}"] == "observer"
    assert JoinRequest.objects.get().decided_by == gm


def test_an_auto_join_link_admits_someone_already_waiting_on_a_request(
    domains, api_client, campaign, gm, player
):
    api_client.force_authenticate(gm)
    asked = _invite(api_client, campaign, mode="request").json()["token"]
    auto = _invite(api_client, campaign, mode="auto_join", role="observer").json()["token"]
    api_client.force_authenticate(player)
    waiting = api_client.post("/api/invites/accept", {"token": asked}, format="json")
    assert waiting.json()["status"] == "pending"
    joined = api_client.post("/api/invites/accept", {"token": auto}, format="json")
    assert joined.status_code == 200
    assert (joined.json()["status"], joined.json()["role"]) == ("member", "observer")
    assert domain_members(campaign, gm)[f"user:{player.pk}"] == "observer"
    request = JoinRequest.objects.get()
    assert (request.status, request.invite.mode, request.decided_by) == (
        "approved",
        "auto_join",
        gm,
    )
    assert sorted(CampaignInvite.objects.values_list("mode", "used_count")) == [
        ("auto_join", 1),
        ("request", 1),
    ]


def test_an_auto_join_that_fails_on_the_domain_leaves_the_request_waiting(
    domains, api_client, campaign, gm, player, settings
):
    api_client.force_authenticate(gm)
    asked = _invite(api_client, campaign, mode="request").json()["token"]
    auto = _invite(api_client, campaign, mode="auto_join").json()["token"]
    api_client.force_authenticate(player)
    api_client.post("/api/invites/accept", {"token": asked}, format="json")
    settings.SAGASMITH_DOMAINS = domains_setting("http://127.0.0.1:9/mcp", timeout=2)
    failed = api_client.post("/api/invites/accept", {"token": auto}, format="json")
    assert failed.status_code == 503
    request = JoinRequest.objects.get()
    assert (request.status, request.invite.mode, request.role) == ("pending", "request", "player")
    assert sorted(CampaignInvite.objects.values_list("mode", "used_count")) == [
        ("auto_join", 0),
        ("request", 1),
    ]


def test_auto_join_invite_of_a_gm_who_left_files_a_request(
    domains, campaign, gm, player, make_user
):
    from apps.campaigns.services.membership import membership_remove

    co_gm = make_user("co-gm@example.test")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    _invite_row, token = invite_create(
        campaign=campaign, actor=co_gm, mode="auto_join", expires_in=timedelta(hours=1),
        max_uses=5,
    )  # fmt: skip
    campaign.refresh_from_db()
    membership_remove(campaign=campaign, actor=gm, user=co_gm)
    outcome = invite_accept(token=token, user=player)
    assert outcome.membership is None
    assert (outcome.join_request.status, outcome.join_request.user) == ("pending", player)
    assert f"user:{player.pk}" not in domain_members(campaign, gm)


def test_expired_revoked_and_exhausted_invites(domains, campaign, gm, player, make_user):
    invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    CampaignInvite.objects.filter(pk=invite.pk).update(expires_at=invite.created_at)
    with pytest.raises(Conflict) as exc:
        invite_accept(token=token, user=player)
    assert exc.value.code == "invite_expired"
    invite2, token2 = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    invite_accept(token=token2, user=player)
    with pytest.raises(Conflict) as exc:
        invite_accept(token=token2, user=make_user("late@example.test"))
    assert exc.value.code == "invite_exhausted"
    assert JoinRequest.objects.count() == 1


def test_authority_first_domain_down_leaves_projection(domains, campaign, gm, player, settings):
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr = invite_accept(token=token, user=player).join_request
    settings.SAGASMITH_DOMAINS = domains_setting("http://127.0.0.1:9/mcp", timeout=2)
    from apps.domains.errors import DomainUnavailable

    with pytest.raises(DomainUnavailable) as exc:
        join_request_decide(join_request=jr, actor=gm, decision="approve")
    assert exc.value.status == 503
    assert "unavailable" in exc.value.message
    jr.refresh_from_db()
    assert jr.status == "pending"
    assert jr.decided_by is None
    assert not CampaignMembership.objects.filter(user=player).exists()
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == 1


def test_auto_join_domain_down_gives_the_use_back(domains, campaign, gm, player, settings):
    invite, token = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=1
    )
    settings.SAGASMITH_DOMAINS = domains_setting("http://127.0.0.1:9/mcp", timeout=2)
    from apps.domains.errors import DomainUnavailable

    with pytest.raises(DomainUnavailable):
        invite_accept(token=token, user=player)
    invite.refresh_from_db()
    assert invite.used_count == 0
    assert JoinRequest.objects.count() == 0
    assert not CampaignMembership.objects.filter(user=player).exists()


def test_removing_a_member_the_authority_does_not_list_finishes_here(
    domains, api_client, campaign, gm, make_user
):
    # A projection row the authority does not list (never granted, or revoked by an attempt
    # whose local transaction failed): the server refuses the revoke as "not a member", the
    # campaign's member list confirms it, and the removal is finished here without a write.
    ghost = make_user("ghost@example.test")
    CampaignMembership.objects.create(campaign=campaign, user=ghost, role="player")
    api_client.force_authenticate(gm)
    response = api_client.delete(f"/api/campaigns/{campaign.id}/members/{ghost.id}")
    assert response.status_code == 200
    assert CampaignMembership.objects.get(user=ghost).status == "removed"
    assert list(OutboxEvent.objects.values_list("event_type", "audience")) == [
        ("access.revoked", {"users": [str(ghost.id)]})
    ]
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == 1


def test_role_change_owner_only(domains, api_client, campaign, gm, player, make_user):
    co = make_user("co@example.test")
    join(campaign, gm, player)
    join(campaign, gm, co)
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/members/{co.id}/role"
    made_gm = api_client.patch(url, {"role": "gm"}, format="json")
    assert made_gm.status_code == 200
    assert made_gm.json()["role"] == "gm"
    assert domain_members(campaign, gm)[f"user:{co.pk}"] == "gm"

    # A GM may not change roles; nothing changes on either side.
    api_client.force_authenticate(co)
    before = Campaign.objects.get(pk=campaign.pk).authority_revision
    denied = api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{player.id}/role", {"role": "observer"},
        format="json",
    )  # fmt: skip
    assert denied.status_code == 403
    assert CampaignMembership.objects.get(user=player).role == "player"
    assert domain_members(campaign, gm)[f"user:{player.pk}"] == "player"
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == before
    # Only co's promotion told sockets anything.
    events = OutboxEvent.objects.filter(event_type="access.revoked")
    assert [e.payload["user_id"] for e in events] == [str(co.id)]

    api_client.force_authenticate(gm)
    owner_role = api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{gm.id}/role", {"role": "player"}, format="json"
    )
    assert owner_role.status_code == 409
    assert owner_role.json()["error"]["code"] == "owner_role_fixed"


def test_removal_rules_and_access_revoked(domains, api_client, campaign, gm, player, make_user):
    co = make_user("co@example.test")
    join(campaign, gm, player)
    join(campaign, gm, co)
    api_client.force_authenticate(gm)
    api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{co.id}/role", {"role": "gm"}, format="json"
    )
    ActorBinding.objects.create(campaign=campaign, user=player, character_id="pc-9")

    api_client.force_authenticate(co)
    owner = api_client.delete(f"/api/campaigns/{campaign.id}/members/{gm.id}")
    assert owner.status_code == 409
    assert owner.json()["error"]["code"] == "owner_not_removable"
    other_gm = make_user("gm2@example.test")
    join(campaign, gm, other_gm)
    api_client.force_authenticate(gm)
    api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{other_gm.id}/role", {"role": "gm"}, format="json"
    )
    api_client.force_authenticate(co)
    gm_removal = api_client.delete(f"/api/campaigns/{campaign.id}/members/{other_gm.id}")
    assert gm_removal.status_code == 403
    assert CampaignMembership.objects.get(user=other_gm).status == "active"
    assert domain_members(campaign, gm)[f"user:{other_gm.pk}"] == "gm"

    removed = api_client.delete(f"/api/campaigns/{campaign.id}/members/{player.id}")
    assert removed.status_code == 200
    assert removed.json()["status"] == "removed"
    assert f"user:{player.pk}" not in domain_members(campaign, gm)
    assert ActorBinding.objects.get(user=player).status == "removed"
    (event,) = [
        e
        for e in OutboxEvent.objects.filter(event_type="access.revoked")
        if e.payload["reason"] == "removed"
    ]
    assert event.campaign_id == campaign.id
    assert event.payload == {"user_id": str(player.id), "reason": "removed"}
    assert event.audience == {"users": [str(player.id)]}
    # The live server refuses the removed player's delegation from now on.
    with pytest.raises(DomainError) as exc:
        domain_view(campaign, player)
    assert exc.value.domain_code == "authorization_denied"
    api_client.force_authenticate(player)
    assert api_client.get(f"/api/campaigns/{campaign.id}").status_code == 404
    # Only the owner removes a GM.
    api_client.force_authenticate(gm)
    assert api_client.delete(f"/api/campaigns/{campaign.id}/members/{co.id}").status_code == 200


def test_role_change_tells_the_members_open_sockets(domains, campaign, gm, player):
    join(campaign, gm, player)
    changed = membership_change_role(campaign=campaign, actor=gm, user=player, role="gm")
    assert changed.role == "gm"
    # Written with the change: the consumer re-reads the membership and applies the new role.
    event = OutboxEvent.objects.get(event_type="access.revoked")
    assert event.campaign_id == campaign.id
    assert event.payload == {"user_id": str(player.id), "reason": "role_changed"}
    assert event.audience == {"users": [str(player.id)]}
    assert event.dispatched_at is None
    # The same role again changes nothing and announces nothing.
    membership_change_role(campaign=campaign, actor=gm, user=player, role="gm")
    assert OutboxEvent.objects.filter(event_type="access.revoked").count() == 1


def test_second_approver_racing_the_first_is_a_no_op(
    domains, campaign, gm, player, make_user, monkeypatch
):
    from apps.campaigns.services import membership as service

    co = make_user("co@example.test")
    join(campaign, gm, co)
    membership_change_role(campaign=campaign, actor=gm, user=co, role="gm")
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr = invite_accept(token=token, user=player).join_request
    real_write = service.authority_write

    def owner_lands_first(**kwargs):
        # Both read the request as pending; the owner's approval commits while the co-GM's
        # grant is on its way to the domain, based on the same revision.
        if kwargs["requester"] == co and JoinRequest.objects.get(pk=jr.pk).status == "pending":
            fresh = JoinRequest.objects.select_related("campaign", "user").get(pk=jr.pk)
            join_request_decide(join_request=fresh, actor=gm, decision="approve")
        return real_write(**kwargs)

    monkeypatch.setattr(service, "authority_write", owner_lands_first)
    decided = join_request_decide(join_request=jr, actor=co, decision="approve")
    assert (decided.status, decided.decided_by) == ("approved", gm)
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "player"
    assert domain_members(campaign, gm)[f"user:{player.pk}"] == "player"
    # The co-GM's grant repeated the owner's; its receipt keeps the projection current.
    campaign.refresh_from_db()
    assert campaign.authority_revision == 5
    assert domain_view(campaign, gm).structured["authority_revision"] == 5
    assert JoinRequest.objects.get(pk=jr.pk).decided_by == gm


def test_removal_retried_after_the_projection_moved_is_finished(
    domains, campaign, gm, player, monkeypatch
):
    """The domain revoked but Django's transaction failed; another write then moved the
    revision, so the retry's key is new and the domain refuses it ("not a member"). The retry
    finishes the removal here instead of being stuck."""
    import apps.projections.services as projections
    from apps.campaigns.services.characters import character_create_for
    from apps.campaigns.services.membership import membership_remove

    join(campaign, gm, player)
    real = projections.outbox_emit

    def fail(**kwargs):
        raise RuntimeError("the database went away after the domain committed")

    monkeypatch.setattr(projections, "outbox_emit", fail)
    with pytest.raises(RuntimeError):
        membership_remove(campaign=campaign, actor=gm, user=player)
    monkeypatch.setattr(projections, "outbox_emit", real)
    assert f"user:{player.id}" not in domain_members(campaign, gm)
    campaign.refresh_from_db()
    character_create_for(
        campaign=campaign, user=gm, form_data={"name": "Npc", "template": "fighter", "level": 1}
    )
    campaign.refresh_from_db()
    removed = membership_remove(campaign=campaign, actor=gm, user=player)
    assert removed.status == CampaignMembership.Status.REMOVED
    assert (
        OutboxEvent.objects.filter(
            event_type="access.revoked", audience={"users": [str(player.id)]}
        ).count()
        == 1
    )
    campaign.refresh_from_db()
    assert campaign.authority_revision == domain_view(campaign, gm).authority_revision


def test_join_requests_filter_by_a_known_status_only(domains, api_client, campaign, gm, player):
    _inv, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    jr = invite_accept(token=token, user=player).join_request
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/join-requests"
    assert [r["id"] for r in api_client.get(url, {"status": "pending"}).json()] == [str(jr.id)]
    assert api_client.get(url, {"status": "rejected"}).json() == []
    refused = api_client.get(url, {"status": "abc"})
    assert refused.status_code == 400
    assert refused.json()["error"]["details"] == {
        "fields": {"status": ["Not a join request status."]}
    }


def test_a_member_leaves_on_the_domain_and_here(domains, api_client, campaign, gm, player):
    join(campaign, gm, player)
    ActorBinding.objects.create(campaign=campaign, user=player, character_id="pc-9")
    api_client.force_authenticate(player)
    left = api_client.delete(f"/api/campaigns/{campaign.id}/members/{player.id}")
    assert left.status_code == 200, left.content
    assert (left.json()["status"], left.json()["role"]) == ("left", "player")
    assert f"user:{player.pk}" not in domain_members(campaign, gm)
    assert ActorBinding.objects.get(user=player).status == "removed"
    event = OutboxEvent.objects.get(event_type="access.revoked", payload__reason="left")
    assert event.payload == {"user_id": str(player.id), "reason": "left"}
    assert event.audience == {"users": [str(player.id)]}
    assert api_client.get(f"/api/campaigns/{campaign.id}").status_code == 404
    # Gone on both sides: leaving again is "not found", as for any outsider.
    again = api_client.delete(f"/api/campaigns/{campaign.id}/members/{player.id}")
    assert again.status_code == 404


def test_the_owner_cannot_leave_and_an_archived_campaign_can_be_left(
    domains, api_client, campaign, gm, player
):
    join(campaign, gm, player)
    api_client.force_authenticate(gm)
    owner = api_client.delete(f"/api/campaigns/{campaign.id}/members/{gm.id}")
    assert owner.status_code == 409
    assert owner.json()["error"] == {
        "code": "owner_cannot_leave",
        "message": "The owner cannot leave their own campaign.",
        "retryable": False,
        "recovery": "Archive the campaign instead.",
        "details": {},
    }
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.ARCHIVED)
    api_client.force_authenticate(player)
    left = api_client.delete(f"/api/campaigns/{campaign.id}/members/{player.id}")
    assert left.status_code == 200
    assert CampaignMembership.objects.get(user=player).status == "left"
    assert f"user:{player.pk}" not in domain_members(campaign, gm)


def test_leaving_after_an_attempt_that_left_on_the_domain_finishes_here(
    domains, campaign, gm, player
):
    from apps.campaigns.services.membership import membership_leave
    from apps.domains.client import domain_call

    join(campaign, gm, player)
    # An earlier attempt left on the domain, then failed before its local transaction.
    domain_call(
        system_id=campaign.system_id, tool="member_leave",
        arguments={"expected_revision": campaign.authority_revision, "idempotency_key": "lost"},
        requester=player, campaign_id=campaign.domain_id,
    )  # fmt: skip
    ended = membership_leave(campaign=campaign, user=player)
    assert ended.status == "left"
    assert f"user:{player.pk}" not in domain_members(campaign, gm)


def test_a_request_decided_while_moving_to_an_auto_join_link_keeps_the_links_use(
    domains, campaign, gm, player
):
    from apps.campaigns.services.invites import _move_request

    asked, asked_token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=2
    )
    auto, _token = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=2
    )
    outcome = invite_accept(token=asked_token, user=player)
    stale = JoinRequest.objects.get(pk=outcome.join_request.pk)
    join_request_decide(join_request=outcome.join_request, actor=gm, decision="reject")
    with pytest.raises(Conflict) as exc:
        _move_request(invite=auto, join_request=stale)
    assert exc.value.code == "join_request_decided"
    auto.refresh_from_db()
    assert auto.used_count == 0
    assert JoinRequest.objects.get().status == "rejected"


def test_an_auto_join_link_readmits_who_left_but_not_who_a_gm_removed(
    domains, client, campaign, gm, player, make_user
):
    from apps.campaigns.services.membership import membership_leave, membership_remove

    leaver = make_user("leaver@example.test")
    _invite_row, token = invite_create(
        campaign=campaign, actor=gm, mode="auto_join", expires_in=timedelta(hours=1), max_uses=9
    )
    invite_accept(token=token, user=player)
    invite_accept(token=token, user=leaver)
    first_joined = CampaignMembership.objects.get(user=leaver).joined_at
    campaign.refresh_from_db()
    membership_remove(campaign=campaign, actor=gm, user=player)
    campaign.refresh_from_db()
    membership_leave(campaign=campaign, user=leaver)
    assert dict(CampaignMembership.objects.values_list("user__email", "status")) == {
        gm.email: "active", player.email: "removed", leaver.email: "left",
    }  # fmt: skip
    # The landing page says what will happen before they click.
    client.force_login(player)
    page = client.get(f"/invites/{token}").content.decode()
    assert "A GM approves your request" in page and "Request to join" in page
    back = invite_accept(token=token, user=player)
    assert (back.membership, back.join_request.status) == (None, "pending")
    assert f"user:{player.pk}" not in domain_members(campaign, gm)
    again = invite_accept(token=token, user=leaver)
    assert again.membership.status == "active"
    assert again.membership.joined_at > first_joined


def test_archiving_declines_the_requests_still_waiting(domains, campaign, gm, player, client):
    from apps.campaigns.services.campaigns import campaign_archive

    _invite_row, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    invite_accept(token=token, user=player)
    campaign_archive(campaign=campaign, actor=gm)
    request = JoinRequest.objects.get()
    assert (request.status, request.decided_by) == ("rejected", gm)
    client.force_login(player)
    assert "campaign archived" in client.get("/").content.decode()
