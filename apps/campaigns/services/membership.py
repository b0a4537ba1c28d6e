"""Join decisions, role changes, removal and leaving. Authority first: `member_grant` and
`member_revoke` run on the domain server (as the deciding owner/GM), `member_leave` as the
member who leaves, before the projection changes."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.errors import Conflict, PermissionDenied, ValidationFailed
from apps.core.services import audit_record
from apps.domains.client import DomainResult, principal_for
from apps.domains.errors import DomainError

from ..models import ActorBinding, Campaign, CampaignMembership, JoinRequest
from .access import (
    campaign_access,
    member_access_changed,
    member_not_found,
    refuse_deactivated,
)
from .authority import authority_write, campaign_refresh, receipt_apply
from .characters import PLAYING_ROLES, controls_released, controls_restore, lock_bindings

Role = CampaignMembership.Role
DECISIONS = {"approve": JoinRequest.Status.APPROVED, "reject": JoinRequest.Status.REJECTED}
ASSIGNABLE_ROLES = (Role.GM, Role.PLAYER, Role.OBSERVER)


def join_request_decide(
    *, join_request: JoinRequest, actor, decision: str, via_invite: bool = False
) -> JoinRequest:
    """Approve or reject a pending join request (owner/GM). The same decision again is a no-op;
    the opposite one is Conflict (409). Approval grants the role on the domain server first.

    Raises NotFound, PermissionDenied, Conflict, ValidationFailed (also for approving a
    deactivated account) and the domain client's errors.
    """
    if decision not in DECISIONS:
        raise ValidationFailed(_("The decision must be approve or reject."))
    target = DECISIONS[decision]
    campaign_access(campaign_id=join_request.campaign_id, user=actor, manage=True, writable=True)
    # The campaign (its revision names the grant's key) is read before the status: read after a
    # pending status, it could already carry this approver's own concurrent grant, and a key at
    # that newer revision would grant again instead of replaying it.
    campaign = Campaign.objects.get(pk=join_request.campaign_id)
    join_request.refresh_from_db()
    join_request.campaign = campaign
    if join_request.status != JoinRequest.Status.PENDING:
        return _same_or_conflict(join_request, target)
    if join_request.role == Role.GM and join_request.campaign.owner_id != actor.id:
        raise PermissionDenied(
            _("Only the owner can make someone a GM."), recovery=_("Ask the campaign owner.")
        )
    if target == JoinRequest.Status.APPROVED:
        # A requester who deactivated their account since asking could not sign in to play.
        refuse_deactivated(join_request.user)

    result: DomainResult | None = None
    if target == JoinRequest.Status.APPROVED:
        # Before the lock: no transaction is open while the domain server is awaited. The key
        # names the approver: the domain's request hash includes the requester, so a second
        # approver racing the first must not reuse the first one's key (idempotency_conflict);
        # with its own key it re-grants the same role, a no-op for the membership.
        result = authority_write(
            campaign=join_request.campaign,
            tool="member_grant",
            arguments={"principal": principal_for(join_request.user), "role": join_request.role},
            requester=actor,
            key=f"join:{join_request.id}:grant:{actor.id}",
        )
    with transaction.atomic():
        locked = JoinRequest.objects.select_for_update().get(pk=join_request.pk)
        if locked.status != JoinRequest.Status.PENDING:
            decided = locked
            if result is not None and locked.status == target:
                # Another approver won; our grant repeated theirs, so record its revision.
                receipt_apply(campaign=join_request.campaign, result=result)
        else:
            decided = None
            locked.status = target
            locked.decided_by = actor
            locked.decided_at = timezone.now()
            locked.save(update_fields=["status", "decided_by", "decided_at", "updated_at"])
            if result is not None:
                # Membership before campaign, the order role changes and removals lock in.
                _membership_upsert(
                    campaign=join_request.campaign, user=join_request.user, role=locked.role
                )
                receipt_apply(campaign=join_request.campaign, result=result)
            audit_record(
                actor=actor,
                action=f"campaign.join.{decision}",
                subject_type="campaign",
                subject_id=locked.campaign_id,
                details={
                    "join_request_id": str(locked.id),
                    "user_id": str(locked.user_id),
                    "via_invite": via_invite,
                    "revision": join_request.campaign.authority_revision,
                },
            )
    if decided is None:
        return locked
    # Someone decided concurrently while the domain was called.
    if decided.status == target:
        return decided
    if result is not None:
        # We granted, but a rejection won the race: take the grant back (authority first).
        if CampaignMembership.objects.filter(
            campaign_id=decided.campaign_id,
            user_id=decided.user_id,
            status=CampaignMembership.Status.ACTIVE,
        ).exists():
            return _same_or_conflict(decided, target)
        # Another losing approver may have taken the grant back first.
        _revoke_unless_gone(
            campaign=join_request.campaign,
            actor=actor,
            principal=principal_for(join_request.user),
            key=f"join:{join_request.id}:undo:{actor.id}",
        )
    return _same_or_conflict(decided, target)


def _revoke_unless_gone(*, campaign: Campaign, actor, principal: str, key: str):
    """Revoke `principal` on the domain; returns the result, or None when the domain refused
    because they are already not a member (its member list confirms it): a state we want.
    Any other refusal still surfaces."""
    try:
        return authority_write(
            campaign=campaign,
            tool="member_revoke",
            arguments={"principal": principal},
            requester=actor,
            key=key,
        )
    except DomainError as exc:
        if exc.domain_code != "invalid_request" or _is_domain_member(
            campaign=campaign, requester=actor, principal=principal
        ):
            raise
        return None


def _is_domain_member(*, campaign: Campaign, requester, principal: str) -> bool:
    view = campaign_refresh(campaign=campaign, requester=requester).structured["campaign"]
    return principal in {member["principal"] for member in view["members"]}


def _same_or_conflict(join_request: JoinRequest, target: str) -> JoinRequest:
    if join_request.status == target:
        return join_request
    raise Conflict(
        _("This join request was already %(status)s.")
        % {"status": join_request.get_status_display()},
        code="join_request_decided",
        recovery=_("Reload to see the decision."),
        details={"status": join_request.status},
    )


def _membership_upsert(*, campaign: Campaign, user, role: str) -> CampaignMembership:
    membership, created = CampaignMembership.objects.select_for_update().get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    if not created:
        membership.role = role
        membership.status = CampaignMembership.Status.ACTIVE
        membership.joined_at = timezone.now()
        membership.removed_at = None
        membership.save(update_fields=["role", "status", "joined_at", "removed_at", "updated_at"])
    return membership


def _target_membership(*, campaign: Campaign, user) -> CampaignMembership:
    membership = (
        CampaignMembership.objects.select_related("user")
        .filter(campaign=campaign, user=user, status=CampaignMembership.Status.ACTIVE)
        .first()
    )
    if membership is None:
        raise member_not_found()
    return membership


def membership_change_role(*, campaign: Campaign, actor, user, role: str) -> CampaignMembership:
    """Change a member's role (owner only; the owner's own role is fixed). Same role: no-op.

    Raises NotFound, PermissionDenied, ValidationFailed, Conflict and the domain client's errors.
    """
    campaign_access(campaign_id=campaign.id, user=actor, own=True, writable=True)
    if role not in ASSIGNABLE_ROLES:
        raise ValidationFailed(
            _("The role must be gm, player or observer."),
            details={"fields": {"role": [_("Choose gm, player or observer.")]}},
        )
    membership = _target_membership(campaign=campaign, user=user)
    if membership.role == Role.OWNER:
        raise Conflict(
            _("The owner's role cannot be changed."),
            code="owner_role_fixed",
            recovery=_("Choose another member."),
        )
    if membership.role == role:
        return membership
    if ASSIGNABLE_ROLES.index(role) < ASSIGNABLE_ROLES.index(membership.role):
        refuse_deactivated(membership.user)  # a demotion grants nothing: always allowed
    result = authority_write(
        campaign=campaign,
        tool="member_grant",
        arguments={"principal": principal_for(membership.user), "role": role},
        requester=actor,
        # No actor in it: the owner alone changes roles, so the same key is the same request
        # from the same requester (two tabs), which the domain replays.
        key=f"role:{membership.id}:{role}",
    )
    with transaction.atomic():
        locked = CampaignMembership.objects.select_for_update().get(pk=membership.pk)
        # The campaign before the bindings, as binding changes take them.
        lock_bindings(campaign)
        receipt_apply(campaign=campaign, result=result)
        controls_released(campaign=campaign, result=result)  # an observer controls none
        gone = locked.status != CampaignMembership.Status.ACTIVE
        previous = locked.role
        # The same change made meanwhile (another tab; the domain replayed it): done already,
        # so no second record and no second "access changed" to the member's pages.
        if not gone and previous != role:
            locked.role = role
            locked.save(update_fields=["role", "updated_at"])
            if role not in PLAYING_ROLES:
                ActorBinding.objects.filter(
                    campaign=campaign, user=user, status=ActorBinding.Status.ACTIVE,
                    character_id__in=result.structured.get("released_characters") or [],
                ).update(control_on_return=True)  # fmt: skip
            # Open sockets keep the role they connected with until told: a GM demoted to
            # player must stop receiving GM-only entries at once.
            member_access_changed(campaign_id=campaign.id, user=user, reason="role_changed")
            audit_record(
                actor=actor,
                action="campaign.member.role",
                subject_type="campaign",
                subject_id=campaign.id,
                details={"user_id": str(user.id), "from": previous, "to": role},
            )
    if gone:
        # They left or were removed while the domain granted the role, which made them a
        # member there again: take the grant back (authority first), as the removal meant.
        undone = _revoke_unless_gone(
            campaign=campaign,
            actor=actor,
            principal=principal_for(membership.user),
            key=f"role:{membership.id}:{role}:undo",
        )
        if undone is not None:
            with transaction.atomic():
                lock_bindings(campaign)
                receipt_apply(campaign=campaign, result=undone)
                controls_released(campaign=campaign, result=undone)
        raise Conflict(
            _("%(name)s left the campaign or was removed meanwhile.")
            % {"name": membership.user.label},
            code="member_left",
            recovery=_("Reload the member list."),
        )
    if previous not in PLAYING_ROLES and role in PLAYING_ROLES:
        controls_restore(campaign=campaign, actor=actor, user=user)
    return locked


def membership_remove(*, campaign: Campaign, actor, user) -> CampaignMembership:
    """Remove a member (owner/GM; only the owner removes a GM; the owner cannot be removed):
    revoke on the domain server, then mark the membership and bindings removed and emit
    `access.revoked` in the same transaction.

    Raises NotFound, PermissionDenied, Conflict and the domain client's errors."""
    actor_membership = campaign_access(
        campaign_id=campaign.id, user=actor, manage=True, writable=True
    )
    membership = _target_membership(campaign=campaign, user=user)
    if membership.role == Role.OWNER:
        raise Conflict(
            _("The campaign owner cannot be removed."),
            code="owner_not_removable",
            recovery=_("The owner can archive the campaign instead."),
        )
    if membership.role == Role.GM and actor_membership.role != Role.OWNER:
        raise PermissionDenied(
            _("Only the owner can remove a GM."), recovery=_("Ask the campaign owner.")
        )
    # An earlier attempt may have revoked on the domain and then failed here; once the revision
    # moved on, its retry sends a new key and is refused as "not a member": finish it here.
    # The actor is in the key: the domain's stored request names who sent it, so another GM
    # finishing a half-done removal must not look like a replay of it.
    result = _revoke_unless_gone(
        campaign=campaign,
        actor=actor,
        principal=principal_for(membership.user),
        key=f"remove:{membership.id}:{actor.id}:{membership.updated_at.timestamp():.6f}",
    )
    return _membership_end(
        campaign=campaign, membership=membership, result=result, actor=actor,
        action="campaign.member.remove", reason="removed",
    )  # fmt: skip


def membership_leave(*, campaign: Campaign, user) -> CampaignMembership:
    """Leave a campaign, archived or not (any member but the owner): `member_leave` on the
    domain server as the leaver, then the membership and bindings end as for a removal and
    the leaver's open sockets are told.

    Raises NotFound, Conflict and the domain client's errors."""
    # An archived campaign can be left too: it is read-only for play, and leaving is how it
    # goes off a member's dashboard.
    membership = campaign_access(campaign_id=campaign.id, user=user)
    if membership.role == Role.OWNER:
        raise Conflict(
            _("The owner cannot leave their own campaign."),
            code="owner_cannot_leave",
            recovery=_("Archive the campaign instead."),
        )
    principal = principal_for(user)
    try:
        result = authority_write(
            campaign=campaign,
            tool="member_leave",
            arguments={},
            requester=user,
            key=f"leave:{membership.id}:{membership.updated_at.timestamp():.6f}",
        )
    except DomainError as exc:
        # An earlier attempt may have left on the domain and then failed here: the domain no
        # longer takes the leaver's calls, so its owner's view of the members settles it.
        if exc.domain_code != "authorization_denied" or _is_domain_member(
            campaign=campaign, requester=campaign.owner, principal=principal
        ):
            raise
        result = None
    return _membership_end(
        campaign=campaign, membership=membership, result=result, actor=user,
        action="campaign.member.leave", reason="left",
    )  # fmt: skip


def _membership_end(
    *,
    campaign: Campaign,
    membership: CampaignMembership,
    result: DomainResult | None,
    actor,
    action: str,
    reason: str,
) -> CampaignMembership:
    """After the domain let the member go: mark the membership and their bindings removed,
    apply the receipt and tell their sockets, in one transaction."""
    user = membership.user
    now = timezone.now()
    with transaction.atomic():
        locked = CampaignMembership.objects.select_for_update().get(pk=membership.pk)
        # The campaign before the bindings, as binding changes take them.
        lock_bindings(campaign)
        locked.status = (
            CampaignMembership.Status.LEFT
            if reason == "left"
            else CampaignMembership.Status.REMOVED
        )
        locked.removed_at = now
        locked.save(update_fields=["status", "removed_at", "updated_at"])
        ActorBinding.objects.filter(
            campaign=campaign, user=user, status=ActorBinding.Status.ACTIVE
        ).update(status=ActorBinding.Status.REMOVED, can_control=False, updated_at=now)
        if result is not None:
            receipt_apply(campaign=campaign, result=result)
            controls_released(campaign=campaign, result=result)
        member_access_changed(campaign_id=campaign.id, user=user, reason=reason)
        audit_record(
            actor=actor,
            action=action,
            subject_type="campaign",
            subject_id=campaign.id,
            details={"user_id": str(user.id), "role": locked.role},
        )
    return locked
