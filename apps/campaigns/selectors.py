"""Reads of campaign projections. Only active memberships grant access."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Case, Q, QuerySet, When
from django.utils import timezone

from apps.domains.registry import domain_registry

from .models import ActorBinding, Campaign, CampaignInvite, CampaignMembership, JoinRequest


def system_label(*, system_id: str) -> str:
    """A game system's name as players choose it ("D&D 5e (SRD 5.1)"); a system this server
    no longer runs reads as its code."""
    plugin = domain_registry().plugins.get(system_id)
    return str(plugin.label) if plugin else system_id


def membership_for(*, campaign_id, user) -> CampaignMembership | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        CampaignMembership.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, user=user, status=CampaignMembership.Status.ACTIVE)
        .first()
    )


def campaign_members(*, campaign) -> QuerySet[CampaignMembership]:
    return (
        CampaignMembership.objects.select_related("user")
        .filter(campaign=campaign, status=CampaignMembership.Status.ACTIVE)
        .order_by("created_at")
    )


def campaigns_for_user(*, user, include_archived: bool = True) -> QuerySet[CampaignMembership]:
    """The user's active memberships with their campaigns (role is on the membership)."""
    qs = CampaignMembership.objects.select_related("campaign", "campaign__owner").filter(
        user=user, status=CampaignMembership.Status.ACTIVE
    )
    if not include_archived:
        qs = qs.filter(campaign__status=Campaign.Status.ACTIVE)
    return qs.order_by("campaign__status", "-campaign__created_at")


def bindings_for(*, campaign, user=None) -> QuerySet[ActorBinding]:
    qs = ActorBinding.objects.select_related("user").filter(
        campaign=campaign, status=ActorBinding.Status.ACTIVE
    )
    if user is not None:
        qs = qs.filter(user=user)
    return qs.order_by("character_id", "created_at")


def character_names_bound(*, campaign, user, controlled_only: bool = False) -> set[str]:
    """Names of the characters ever bound to `user` in `campaign`, removed bindings too; with
    `controlled_only`, of those they control now."""
    qs = ActorBinding.objects.filter(campaign=campaign, user=user)
    if controlled_only:
        qs = qs.filter(status=ActorBinding.Status.ACTIVE, can_control=True)
    return set(qs.values_list("character_name", flat=True))


def characters_played_before(*, membership) -> list[str]:
    """Names of the characters the member was bound to before they last joined (they left or
    were removed, and came back), and are not now: the GM can bind them again. Not those the
    GM unbound from them since. None for a member who could neither be bound one again nor
    create one (an observer, or anyone in an archived campaign): the note that lists them
    offers both."""
    if (
        membership.role == CampaignMembership.Role.OBSERVER
        or membership.campaign.status != Campaign.Status.ACTIVE
    ):
        return []
    bindings = ActorBinding.objects.filter(
        campaign_id=membership.campaign_id, user_id=membership.user_id
    )
    current = bindings.filter(status=ActorBinding.Status.ACTIVE).values("character_id")
    names = (
        bindings.filter(status=ActorBinding.Status.REMOVED, updated_at__lte=membership.joined_at)
        .exclude(character_id__in=current)
        .order_by("created_at")
        .values_list("character_name", "character_id")
    )
    return list(dict.fromkeys(name or character_id for name, character_id in names))


def bindings_chosen_first(*, campaign_id, user_id, character_id: str = "") -> QuerySet:
    """A member's active bindings, the one for `character_id` (if theirs) first, then in the
    order they were made: "the character they act as, else their first"."""
    chosen = Case(When(character_id=character_id, then=0), default=1)
    return ActorBinding.objects.filter(
        campaign_id=campaign_id, user_id=user_id, status=ActorBinding.Status.ACTIVE
    ).order_by(chosen, "created_at")


def active_invites(*, campaign) -> QuerySet[CampaignInvite]:
    from django.utils import timezone

    return CampaignInvite.objects.filter(
        campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).order_by("-created_at")


def invite_state(invite: CampaignInvite, now=None) -> str:
    """revoked, expired, used_up or live: the invite's own state, its campaign's aside."""
    if invite.revoked_at is not None:
        return "revoked"
    if invite.expires_at <= (now or timezone.now()):
        return "expired"
    if invite.used_count >= invite.max_uses:
        return "used_up"
    return "live"


def invites_listed(*, campaign, limit: int = 50) -> list[CampaignInvite]:
    """The campaign's newest invites, each with `state` (live, expired, used_up or revoked) and
    `admits_at_once` (an auto-join invite whose creator still manages the campaign, from an
    active account; any other files a join request), for the settings page."""
    managers = set(
        CampaignMembership.objects.filter(
            campaign=campaign,
            user__is_active=True,  # as invites._still_manages
            status=CampaignMembership.Status.ACTIVE,
            role__in=[CampaignMembership.Role.OWNER, CampaignMembership.Role.GM],
        ).values_list("user_id", flat=True)
    )
    now = timezone.now()
    invites = list(CampaignInvite.objects.filter(campaign=campaign).order_by("-created_at")[:limit])
    for invite in invites:
        invite.state = invite_state(invite, now)
        invite.admits_at_once = (
            invite.mode == CampaignInvite.Mode.AUTO_JOIN and invite.created_by_id in managers
        )
    return invites


def pending_join_requests(*, campaign) -> QuerySet[JoinRequest]:
    return JoinRequest.objects.select_related("user").filter(
        campaign=campaign, status=JoinRequest.Status.PENDING
    )


# How long a declined request stays on its requester's dashboard, so they learn of it.
DECLINED_SHOWN_FOR = timedelta(days=7)


def my_join_requests(*, user) -> QuerySet[JoinRequest]:
    """The user's pending requests, and those declined lately (approved ones are campaigns)."""
    declined_lately = Q(
        status=JoinRequest.Status.REJECTED, decided_at__gte=timezone.now() - DECLINED_SHOWN_FOR
    )
    return (
        JoinRequest.objects.select_related("campaign")
        .filter(Q(status=JoinRequest.Status.PENDING) | declined_lately, user=user)
        .order_by("-created_at")
    )


def join_requests_awaiting(*, user) -> QuerySet[JoinRequest]:
    """Pending requests in campaigns where the user is an active owner or GM."""
    managed = CampaignMembership.objects.filter(
        user=user,
        status=CampaignMembership.Status.ACTIVE,
        role__in=[CampaignMembership.Role.OWNER, CampaignMembership.Role.GM],
        campaign__status=Campaign.Status.ACTIVE,
    ).values("campaign_id")
    return (
        JoinRequest.objects.select_related("campaign", "user")
        .filter(campaign_id__in=managed, status=JoinRequest.Status.PENDING)
        .order_by("created_at")
    )


def character_creation_open(*, campaign: Campaign, role: str) -> bool:
    """Whether the campaign's game system lets this role create a character in its current
    phase (D&D 5e: not during combat), as its tool table says."""
    from apps.domains.registry import FacadeDenied, get_plugin

    try:
        tools = get_plugin(campaign.system_id).facade_tools(
            phase=campaign.phase, role=role, task="action"
        )
    except FacadeDenied:
        return False
    return "character_create" in tools
