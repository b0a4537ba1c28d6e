"""Authorization on the projection; the domain server re-authorizes every write anyway."""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.core.errors import Conflict, NotFound, PermissionDenied, ValidationFailed

from ..models import Campaign, CampaignMembership
from ..selectors import membership_for

# What a campaign's pages say to someone who is not (or no longer) in it: the same whether
# it exists or not.
NOT_A_MEMBER = gettext_lazy(
    "This campaign does not exist, or you are not a member of it. If you left it or were "
    "removed, ask its GM for a new invite."
)


def campaign_access(
    *, campaign_id, user, manage: bool = False, own: bool = False, writable: bool = False
) -> CampaignMembership:
    """The user's active membership. NotFound hides campaigns the user is not in;
    PermissionDenied when the role is too low; Conflict when a write hits an archived campaign."""
    membership = membership_for(campaign_id=campaign_id, user=user)
    if membership is None:
        raise NotFound(
            _("Campaign not found."),
            code="campaign_not_found",
            recovery=_("Check the campaign id; you may have left it or been removed from it."),
        )
    if own and membership.role != CampaignMembership.Role.OWNER:
        raise PermissionDenied(
            _("Only the campaign owner can do that."), recovery=_("Ask the campaign owner.")
        )
    if manage and not membership.is_manager:
        raise PermissionDenied(
            _("Only the campaign owner or a GM can do that."),
            recovery=_("Ask the campaign owner or a GM."),
        )
    if writable and membership.campaign.status != Campaign.Status.ACTIVE:
        raise campaign_archived()
    return membership


def campaign_archived(message: str | None = None, *, recovery: str | None = None) -> Conflict:
    """The answer for a write to an archived campaign (`message`: what was refused)."""
    return Conflict(
        message or _("This campaign is archived."),
        code="campaign_archived",
        recovery=recovery
        or _("Archived campaigns are read-only until the owner restores them in the settings."),
    )


def campaign_status_locked(campaign: Campaign) -> str | None:
    """Take the campaign's row lock (no key: its rows' foreign keys stay free), which archiving
    takes too, and return the campaign's status as of the lock."""
    return (
        Campaign.objects.select_for_update(no_key=True)
        .filter(pk=campaign.pk)
        .values_list("status", flat=True)
        .first()
    )


def member_not_found() -> NotFound:
    """The one answer for a user who is not (or no longer) an active member, whichever
    request named them."""
    return NotFound(
        _("That user is not a member of this campaign."),
        code="member_not_found",
        recovery=_("Check the user id against the campaign's member list."),
    )


SIGNED_OUT = "signed_out"  # the reason when sessions ended: the member's access is unchanged


def access_changed(*, campaign_id, user_ids, reason: str, **payload) -> None:
    """Tell these users' open room sockets to read their access again: gone, a new role, an
    archived campaign or an ended session. Call inside the transaction that changed it."""
    from apps.projections.dispatch import ACCESS_REVOKED
    from apps.projections.services import outbox_emit

    if reason != SIGNED_OUT:
        # Entries written from now on carry the new version: an open socket that has not read
        # access since reads it before it is sent one, whichever publication arrives first.
        # Not for an ended session: who may read the room is unchanged, and a sign-out ends
        # the sessions of every campaign in one transaction, whose row locks (taken in no set
        # order) would deadlock against another's.
        Campaign.objects.filter(pk=campaign_id).update(access_version=F("access_version") + 1)
    outbox_emit(
        event_type=ACCESS_REVOKED,
        campaign_id=campaign_id,
        payload={**payload, "reason": reason},
        audience={"users": [str(user_id) for user_id in user_ids]},
    )


def member_access_changed(*, campaign_id, user, reason: str) -> None:
    """`access_changed` for one member, whom the event names."""
    access_changed(campaign_id=campaign_id, user_ids=[user.id], reason=reason, user_id=str(user.id))


def refuse_deactivated(user) -> None:
    """A deactivated account is given nothing new in a campaign (a role, a character): it
    cannot sign in to use it. Raises ValidationFailed."""
    if not user.is_active:
        raise ValidationFailed(
            _("%(name)s's account is deactivated.") % {"name": user.label},
            code="account_deactivated",
            recovery=_("Remove the member, or wait until the account is active again."),
        )
