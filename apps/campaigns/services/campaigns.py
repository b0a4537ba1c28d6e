"""Creating, archiving and restoring campaigns."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from apps.core.errors import IdempotencyConflict, PermissionDenied, ValidationFailed
from apps.core.models import AuditEvent
from apps.core.services import audit_record
from apps.core.text import one_line, visible
from apps.domains.client import domain_call
from apps.domains.registry import get_plugin

from ..models import CAMPAIGN_RENAMED, Campaign, CampaignMembership, JoinRequest
from .access import access_changed, campaign_access, campaign_archived
from .authority import authority_write, receipt_apply, receipt_revision

# Campaign ids derive from (owner, creation key), so a retried create reaches the same domain
# campaign and gets the stored result back instead of creating a second one.
CAMPAIGN_ID_NAMESPACE = uuid.UUID("5b1d3c2e-7f0a-4b8e-9c61-2a4f0d9e8b17")
NAME_MAX = 120
RANDOM_SEED_SALT = "sagasmith.campaigns.random_seed"


def campaign_id_for(*, owner, idempotency_key: str) -> uuid.UUID:
    return uuid.uuid5(CAMPAIGN_ID_NAMESPACE, f"{owner.id}:{idempotency_key}")


def campaign_random_seed(*, campaign_id: uuid.UUID) -> str:
    """The campaign's 64-hex dice seed: HMAC-SHA256 of its id keyed by SECRET_KEY.

    Without it the domain derives the seed from the (member-visible) campaign id, so anyone
    could predict every roll. It is deterministic so a retried create sends the same request
    and replays."""
    return salted_hmac(RANDOM_SEED_SALT, str(campaign_id), algorithm="sha256").hexdigest()


def campaign_name_clean(name: str) -> str:
    """The name trimmed, as a campaign may carry it. Raises ValidationFailed."""
    name = (name or "").strip()
    if not name or len(name) > NAME_MAX:
        raise ValidationFailed(
            _("A campaign name needs 1 to %(max)d characters.") % {"max": NAME_MAX},
            details={"fields": {"name": [_("1 to %(max)d characters.") % {"max": NAME_MAX}]}},
        )
    if not one_line(name):
        raise ValidationFailed(
            _("A campaign name is one line of text."),
            details={
                "fields": {
                    "name": [_("Use one line of text, without control or direction characters.")]
                }
            },
        )
    if not visible(name):
        # Only invisible characters (a zero-width space, which strip() keeps): the dashboard,
        # the invite page and the room would show the campaign with no name at all.
        raise ValidationFailed(
            _("A campaign name needs a visible character."),
            details={"fields": {"name": [_("Enter a name that shows.")]}},
        )
    return name


def campaign_create(*, owner, name: str, system_id: str, idempotency_key: str) -> Campaign:
    """Create the campaign on its domain server, then its projection with `owner` as owner.

    Raises ValidationFailed, UnknownSystem, IdempotencyConflict and the domain client's errors.
    """
    name = campaign_name_clean(name)
    if not idempotency_key:
        raise ValidationFailed(
            _("An idempotency key is required to create a campaign."),
            code="idempotency_key_required",
            recovery=_("Send a unique Idempotency-Key header (8 to 160 characters)."),
        )
    plugin = get_plugin(system_id)
    existing = Campaign.objects.filter(owner=owner, creation_key=idempotency_key).first()
    if existing is not None:
        return _same_or_conflict(existing, name=name, system_id=system_id)

    campaign_id = campaign_id_for(owner=owner, idempotency_key=idempotency_key)
    result = domain_call(
        system_id=plugin.system_id,
        tool="campaign_create",
        arguments={
            "name": name,
            "random_seed": campaign_random_seed(campaign_id=campaign_id),
            "expected_revision": 0,
            "idempotency_key": f"campaign:{campaign_id}:create",
        },
        requester=owner,
        campaign_id=str(campaign_id),
    )
    receipt = result.receipt or {}
    view = result.structured.get("campaign") or {}
    try:
        with transaction.atomic():
            campaign = Campaign.objects.create(
                id=campaign_id,
                name=name,
                system_id=plugin.system_id,
                owner=owner,
                authority_revision=receipt_revision(receipt),
                authority_receipt=receipt,
                phase=str(view.get("phase") or "lobby"),
                creation_key=idempotency_key,
            )
            CampaignMembership.objects.create(
                campaign=campaign, user=owner, role=CampaignMembership.Role.OWNER
            )
            audit_record(
                actor=owner,
                action="campaign.create",
                subject_type="campaign",
                subject_id=campaign.id,
                details={"system_id": plugin.system_id, "revision": campaign.authority_revision},
            )
    except IntegrityError:
        # A concurrent retry with the same key stored the projection first.
        existing = Campaign.objects.get(owner=owner, creation_key=idempotency_key)
        return _same_or_conflict(existing, name=name, system_id=system_id)
    return campaign


def _same_or_conflict(campaign: Campaign, *, name: str, system_id: str) -> Campaign:
    """The campaign this key created, when the retry asks for what it asked then (the name it
    was created with, not one it was renamed to since); IdempotencyConflict otherwise."""
    if _creation_name(campaign) != name or campaign.system_id != system_id:
        raise IdempotencyConflict(
            _("This idempotency key already created a different campaign."),
            details={"campaign_id": str(campaign.id)},
        )
    return campaign


def _creation_name(campaign: Campaign) -> str:
    """The name the campaign was created with: its first rename's audit row keeps it."""
    if not campaign.name_revision:
        return campaign.name
    first = (
        AuditEvent.objects.filter(
            action="campaign.rename", subject_type="campaign", subject_id=str(campaign.id)
        )
        .order_by("id")
        .values_list("details__from", flat=True)
        .first()
    )
    return first if first is not None else campaign.name


def _members_reread_access(campaign: Campaign, *, reason: str) -> None:
    """Every active member's open room sockets read their access again."""
    access_changed(
        campaign_id=campaign.id,
        user_ids=CampaignMembership.objects.filter(
            campaign=campaign, status=CampaignMembership.Status.ACTIVE
        ).values_list("user_id", flat=True),
        reason=reason,
    )


def _owner_only(campaign: Campaign, actor, refusal: str) -> None:
    if campaign.owner_id != actor.id:
        raise PermissionDenied(refusal, recovery=_("Ask the campaign owner."))


def campaign_archive(*, campaign: Campaign, actor) -> Campaign:
    """Archive the campaign (owner only); archiving twice is a no-op. Raises PermissionDenied."""
    _owner_only(campaign, actor, _("Only the campaign owner can archive it."))
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status == Campaign.Status.ARCHIVED:
            return locked
        locked.status = Campaign.Status.ARCHIVED
        locked.archived_at = timezone.now()
        locked.save(update_fields=["status", "archived_at", "updated_at"])
        # Nobody can decide them any more: they end declined, so their requesters see it.
        JoinRequest.objects.filter(campaign=locked, status=JoinRequest.Status.PENDING).update(
            status=JoinRequest.Status.REJECTED,
            decided_by=actor,
            decided_at=locked.archived_at,
            updated_at=locked.archived_at,
        )
        # Open rooms turn read-only at once.
        _members_reread_access(locked, reason="archived")
        audit_record(
            actor=actor, action="campaign.archive", subject_type="campaign", subject_id=locked.id
        )
    return locked


def campaign_restore(*, campaign: Campaign, actor) -> Campaign:
    """Make an archived campaign active again (owner only); restoring an active one is a no-op.
    Invite links that have not expired work again; the join requests the archive declined stay
    declined (their requesters were told). Raises PermissionDenied."""
    _owner_only(campaign, actor, _("Only the campaign owner can restore it."))
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status == Campaign.Status.ACTIVE:
            return locked
        locked.status = Campaign.Status.ACTIVE
        locked.archived_at = None
        locked.save(update_fields=["status", "archived_at", "updated_at"])
        # Open rooms take actions again at once.
        _members_reread_access(locked, reason="restored")
        audit_record(
            actor=actor, action="campaign.restore", subject_type="campaign", subject_id=locked.id
        )
    return locked


def _rename_announce(campaign: Campaign) -> None:
    """Open room pages show the new name in their heading and title without a reload. The
    revision lets a page keep the newest of two renames whose announcements cross."""
    from apps.projections.services import outbox_emit

    outbox_emit(
        event_type=CAMPAIGN_RENAMED,
        campaign_id=campaign.id,
        payload={"name": campaign.name, "name_revision": campaign.name_revision},
        audience="public",
    )


def campaign_rename(*, campaign: Campaign, actor, name: str) -> Campaign:
    """Give the campaign a new name (owner or GM), trimmed as at creation, on its rules server
    first; the same name again is a no-op. Raises NotFound, PermissionDenied, Conflict
    (archived before the rules server was asked), ValidationFailed and the domain client's
    errors (the old name stays)."""
    # The role before the name: anyone else is refused alike, whatever name they send.
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    name = campaign_name_clean(name)
    # Read again: archived or renamed since the caller loaded it.
    current = Campaign.objects.get(pk=campaign.pk)
    if current.status != Campaign.Status.ACTIVE:
        raise campaign_archived(_("This campaign was archived meanwhile: its name stays."))
    if current.name == name:
        return current
    # The rules server's campaign_get is where a game master reads the name: it is renamed
    # there first, with no transaction or lock held while it answers.
    result = authority_write(
        campaign=current,
        tool="campaign_rename",
        arguments={"name": name},
        requester=actor,
        key=f"campaign:{current.id}:rename:{actor.id}:{name}",
    )
    with transaction.atomic():
        # A campaign archived while the rules server worked takes the name all the same: that
        # server, which owns it, has it now, and the two overlapped, so the rename counts as
        # done just before the archive. Keeping the old name here would leave the site and the
        # rules server disagreeing, with no write left to settle it (archived, it is read-only).
        locked = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
        receipt_apply(campaign=locked, result=result)
        revision = receipt_revision(result.receipt)
        previous = locked.name
        # Not over a rename the rules server applied after this one (it committed here first).
        if revision > locked.name_revision:
            locked.name, locked.name_revision = name, revision
            locked.save(update_fields=["name", "name_revision", "updated_at"])
            if previous != name:
                audit_record(
                    actor=actor,
                    action="campaign.rename",
                    subject_type="campaign",
                    subject_id=locked.id,
                    details={"from": previous, "to": name},
                )
                _rename_announce(locked)
    return locked
