"""Campaign invites: shareable links (hash stored, shown once) that request or grant a seat."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.errors import Conflict, NotFound, ValidationFailed
from apps.core.services import audit_record
from apps.core.text import visible

from ..models import Campaign, CampaignInvite, CampaignMembership, JoinRequest
from ..selectors import invite_state, membership_for
from .access import campaign_access, campaign_archived, campaign_status_locked

MIN_EXPIRY = timedelta(hours=1)
MAX_EXPIRY = timedelta(days=30)
MAX_USES = 100
MESSAGE_MAX = 300  # JoinRequest.message
INVITE_ROLES = (CampaignMembership.Role.PLAYER, CampaignMembership.Role.OBSERVER)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite_create(
    *,
    campaign: Campaign,
    actor,
    mode: str,
    expires_in: timedelta,
    max_uses: int,
    role: str = CampaignMembership.Role.PLAYER,
) -> tuple[CampaignInvite, str]:
    """A new invite and its token (returned once; only the hash is stored).

    Raises NotFound, PermissionDenied (not owner/GM), Conflict (archived), ValidationFailed."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    fields: dict[str, list[str]] = {}
    if mode not in CampaignInvite.Mode.values:
        fields["mode"] = [_("Choose request or auto_join.")]
    if not MIN_EXPIRY <= expires_in <= MAX_EXPIRY:
        fields["expires_in"] = [_("An invite expires after 1 hour to 30 days.")]
    if not 1 <= max_uses <= MAX_USES:
        fields["max_uses"] = [_("An invite allows 1 to 100 uses.")]
    if role not in INVITE_ROLES:
        fields["role"] = [_("Invites grant the player or observer role.")]
    if fields:
        raise ValidationFailed(_("The invite settings are invalid."), details={"fields": fields})
    token = secrets.token_urlsafe(32)  # 256 bits
    with transaction.atomic():
        invite = CampaignInvite.objects.create(
            campaign=campaign,
            created_by=actor,
            token_hash=token_hash(token),
            mode=mode,
            role=role,
            expires_at=timezone.now() + expires_in,
            max_uses=max_uses,
        )
        audit_record(
            actor=actor,
            action="campaign.invite.create",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"invite_id": str(invite.id), "mode": mode, "max_uses": max_uses},
        )
    return invite, token


def invite_revoke(*, invite: CampaignInvite, actor) -> CampaignInvite:
    """Revoke an invite (owner/GM); revoking twice is a no-op."""
    campaign_access(campaign_id=invite.campaign_id, user=actor, manage=True)
    with transaction.atomic():
        updated = CampaignInvite.objects.filter(pk=invite.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now(), updated_at=timezone.now()
        )
        if updated:
            audit_record(
                actor=actor,
                action="campaign.invite.revoke",
                subject_type="campaign",
                subject_id=invite.campaign_id,
                details={"invite_id": str(invite.id)},
            )
    invite.refresh_from_db()
    return invite


def invite_lookup(*, token: str) -> CampaignInvite:
    """The invite for a token, whatever its state. Raises NotFound."""
    invite = (
        CampaignInvite.objects.select_related("campaign", "created_by")
        .filter(token_hash=token_hash(token or ""))
        .first()
    )
    if invite is None:
        raise NotFound(
            _("This invite link is not valid."),
            code="invite_not_found",
            recovery=_("Check the link, or ask for a new invite."),
        )
    return invite


def invite_problem(invite: CampaignInvite) -> Conflict | None:
    """Why the invite cannot be used now, or None."""
    state = invite_state(invite)
    new_link = _("Ask the campaign's owner or a GM for a new invite link.")
    if state == "revoked":
        return Conflict(_("This invite was revoked."), code="invite_revoked", recovery=new_link)
    if state == "expired":
        return Conflict(_("This invite has expired."), code="invite_expired", recovery=new_link)
    if invite.campaign.status != Campaign.Status.ACTIVE:
        return _archived()
    if state == "used_up":
        return Conflict(
            _("This invite has no uses left."), code="invite_exhausted", recovery=new_link
        )
    return None


@dataclass(frozen=True)
class InviteOutcome:
    """`membership` when the user is (now) a member, else the pending `join_request`."""

    campaign: Campaign
    membership: CampaignMembership | None = None
    join_request: JoinRequest | None = None
    already: bool = False


def invite_accept(*, token: str, user, message: str = "") -> InviteOutcome:
    """Use an invite: a request-mode invite files a join request, an auto_join invite makes the
    user a member at once (granted on the domain server as the invite's creator, while they
    still manage the campaign; otherwise it files a join request too).

    Raises ValidationFailed (the message), NotFound, Conflict (revoked, expired, exhausted,
    archived) and, for auto_join, the domain client's errors (then nothing changed: the use is
    given back)."""
    message = _request_message(message)
    invite = invite_lookup(token=token)
    campaign = invite.campaign
    membership = membership_for(campaign_id=campaign.id, user=user)
    if membership is not None:
        return InviteOutcome(campaign=campaign, membership=membership, already=True)
    pending = JoinRequest.objects.filter(
        campaign=campaign, user=user, status=JoinRequest.Status.PENDING
    ).first()
    moved_from = None
    if pending is None:
        problem = invite_problem(invite)
        if problem is not None:
            raise problem
        pending = _consume_and_request(invite=invite, user=user, message=message)
        if pending is None:
            # Another accept's request took the pending row and was decided since.
            if (admitted := _admitted(campaign, user)) is None:
                raise Conflict(
                    _("Your join request was just decided; reload the page."),
                    code="join_request_decided",
                )
            return admitted
        created = True
    else:
        created = False
        if (
            pending.invite_id != invite.id
            and invite_problem(invite) is None
            and invite_admits_at_once(invite, user)
        ):
            # Waiting on a request filed through another invite: this one admits at once, so
            # the request moves to it (one of its uses) and is approved below.
            try:
                moved_from = _move_request(invite=invite, join_request=pending)
            except Conflict:
                # Decided meanwhile: approved by another accept, the user is a member.
                if (admitted := _admitted(campaign, user)) is None:
                    raise
                return admitted
    if pending.invite_id != invite.id or not invite_admits_at_once(invite, user):
        # The pending row read above may be stale: another accept of the same user (through
        # an auto-join link) may have admitted them since. The database says which.
        if (admitted := _admitted(campaign, user)) is not None:
            return admitted
        return InviteOutcome(campaign=campaign, join_request=pending, already=not created)

    from .membership import join_request_decide

    try:
        decided = join_request_decide(
            join_request=pending, actor=invite.created_by, decision="approve", via_invite=True
        )
    except Exception:
        if created:
            _undo_request(invite=invite, join_request=pending)
        elif moved_from is not None:
            _undo_move(invite=invite, join_request=pending, moved_from=moved_from)
        raise
    return InviteOutcome(
        campaign=campaign, membership=membership_for(campaign_id=campaign.id, user=decided.user)
    )


def _admitted(campaign: Campaign, user) -> InviteOutcome | None:
    """The answer for a user another accept made a member meanwhile; None if not a member."""
    membership = membership_for(campaign_id=campaign.id, user=user)
    if membership is None:
        return None
    return InviteOutcome(campaign=campaign, membership=membership, already=True)


def _request_message(message: str) -> str:
    """The message for the GM as stored: one of only spaces or invisible characters is none.
    Raises ValidationFailed for one too long or with a NUL character (PostgreSQL cannot store
    it: the page, which has no serializer in front, would fail with a 500)."""
    message = (message or "").strip()
    if "\x00" in message:
        problem = _("Your message to the GM contains a character that cannot be stored (NUL).")
    elif len(message) > MESSAGE_MAX:
        problem = _("Your message to the GM can have at most %(max)d characters.") % {
            "max": MESSAGE_MAX
        }
    else:
        return message if visible(message) else ""
    raise ValidationFailed(problem, details={"fields": {"message": [problem]}})


def invite_admits_at_once(invite: CampaignInvite, user=None) -> bool:
    """Whether using the invite makes `user` (None: whoever signs in) a member at once rather
    than filing a join request: an auto-join invite admits on its creator's authority while
    they still manage the campaign, and never someone a GM removed, who comes back only with
    a GM's approval."""
    if invite.mode != CampaignInvite.Mode.AUTO_JOIN:
        return False
    if not _still_manages(invite.campaign, invite.created_by_id):
        return False
    return (
        user is None
        or not CampaignMembership.objects.filter(
            campaign_id=invite.campaign_id, user=user, status=CampaignMembership.Status.REMOVED
        ).exists()
    )


def _still_manages(campaign: Campaign, user_id) -> bool:
    # A deactivated account manages nothing: it cannot sign in to revoke its links either.
    return CampaignMembership.objects.filter(
        campaign=campaign,
        user_id=user_id,
        user__is_active=True,
        status=CampaignMembership.Status.ACTIVE,
        role__in=[CampaignMembership.Role.OWNER, CampaignMembership.Role.GM],
    ).exists()


def _consume_and_request(*, invite: CampaignInvite, user, message: str) -> JoinRequest | None:
    now = timezone.now()
    try:
        with transaction.atomic():
            _refuse_archived(invite.campaign)
            _use_one(invite, now)
            join_request = JoinRequest.objects.create(
                campaign=invite.campaign,
                user=user,
                invite=invite,
                role=invite.role,
                message=message,
            )
            audit_record(
                actor=user,
                action="campaign.invite.use",
                subject_type="campaign",
                subject_id=invite.campaign_id,
                details={"invite_id": str(invite.id), "join_request_id": str(join_request.id)},
            )
    except IntegrityError:
        # The same user accepted twice at once; the other request holds the pending row, or
        # None when it was decided since.
        return JoinRequest.objects.filter(
            campaign=invite.campaign, user=user, status=JoinRequest.Status.PENDING
        ).first()
    return join_request


def _refuse_archived(campaign: Campaign) -> None:
    """Under the lock archiving takes: a request filed after the archive (which declines those
    waiting) would wait forever, since nobody can decide one in an archived campaign.
    Raises Conflict."""
    if campaign_status_locked(campaign) != Campaign.Status.ACTIVE:
        raise _archived()


def _archived() -> Conflict:
    """A link of an archived campaign: it is not dead, restoring the campaign revives it."""
    return campaign_archived(
        recovery=_(
            "The link works again if the campaign's owner restores it before the link expires."
        )
    )


def _use_one(invite: CampaignInvite, now) -> None:
    # The conditional UPDATE is the race guard: N concurrent users get at most max_uses.
    used = CampaignInvite.objects.filter(
        pk=invite.pk,
        used_count__lt=F("max_uses"),
        revoked_at__isnull=True,
        expires_at__gt=now,
    ).update(used_count=F("used_count") + 1, updated_at=now)
    if not used:
        raise Conflict(
            _("This invite has no uses left."),
            code="invite_exhausted",
            recovery=_("Ask the campaign's owner or a GM for a new invite link."),
        )


def _give_back_one(invite: CampaignInvite) -> None:
    """Return a use `_use_one` took, for an attempt undone."""
    CampaignInvite.objects.filter(pk=invite.pk, used_count__gt=0).update(
        used_count=F("used_count") - 1, updated_at=timezone.now()
    )


def _move_request(*, invite: CampaignInvite, join_request: JoinRequest) -> tuple:
    """Move a pending request to `invite` (using one of its uses, taking its role); returns
    the (invite id, role) it had."""
    now = timezone.now()
    moved_from = (join_request.invite_id, join_request.role)
    with transaction.atomic():
        _use_one(invite, now)
        moved = JoinRequest.objects.filter(
            pk=join_request.pk, status=JoinRequest.Status.PENDING, invite_id=moved_from[0]
        ).update(invite=invite, role=invite.role, updated_at=now)
        if not moved:
            # Decided (or moved by another accept) meanwhile: the use rolls back with this.
            raise Conflict(
                _("Your join request was just decided; reload the page."),
                code="join_request_decided",
            )
        audit_record(
            actor=join_request.user,
            action="campaign.invite.use",
            subject_type="campaign",
            subject_id=invite.campaign_id,
            details={"invite_id": str(invite.id), "join_request_id": str(join_request.id)},
        )
    join_request.invite_id, join_request.role = invite.id, invite.role
    return moved_from


def _undo_move(*, invite: CampaignInvite, join_request: JoinRequest, moved_from: tuple) -> None:
    with transaction.atomic():
        moved_back = JoinRequest.objects.filter(
            pk=join_request.pk, status=JoinRequest.Status.PENDING
        ).update(invite_id=moved_from[0], role=moved_from[1], updated_at=timezone.now())
        if moved_back:
            _give_back_one(invite)


def _undo_request(*, invite: CampaignInvite, join_request: JoinRequest) -> None:
    with transaction.atomic():
        deleted, _rows = JoinRequest.objects.filter(
            pk=join_request.pk, status=JoinRequest.Status.PENDING
        ).delete()
        if deleted:
            _give_back_one(invite)
