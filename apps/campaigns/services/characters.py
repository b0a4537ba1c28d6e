"""Characters (created on the domain server) and actor bindings (who controls which one)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from apps.core.services import audit_record
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from apps.domains.registry import get_plugin

from ..models import ActorBinding, Campaign, CampaignMembership
from .access import campaign_access
from .authority import authority_write, receipt_apply, receipt_revision

NO_CONTROLLER = "none"  # character_assign's expected_controller for a character with none
PLAYING_ROLES = (
    CampaignMembership.Role.OWNER,
    CampaignMembership.Role.GM,
    CampaignMembership.Role.PLAYER,
)


def character_form_for(*, campaign: Campaign, data: Any = None):
    """The plugin's character form for the campaign's system, bound when data is given."""
    form_class = get_plugin(campaign.system_id).character_form
    return form_class(data=data) if data is not None else form_class()


def character_create_for(
    *, campaign: Campaign, user, form_data: Any, idempotency_key: str | None = None
) -> ActorBinding:
    """Create a character on the domain server with the plugin's form and bind `user` to it.

    Raises NotFound, PermissionDenied (observers), ValidationFailed (form errors, with fields),
    Conflict (archived) and the domain client's errors."""
    membership = campaign_access(campaign_id=campaign.id, user=user, writable=True)
    if membership.role not in PLAYING_ROLES:
        raise PermissionDenied(_("Observers cannot create characters."))
    form = character_form_for(campaign=campaign, data=form_data)
    if not form.is_valid():
        fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
        raise ValidationFailed(
            " ".join(str(e) for e in form.non_field_errors())
            or _("The character has invalid fields."),
            details={"fields": fields},
        )
    key = idempotency_key or uuid.uuid4().hex
    result = authority_write(
        campaign=campaign,
        tool="character_create",
        arguments=form.to_arguments(),
        requester=user,
        key=f"character:{user.id}:{key}",
    )
    character = result.structured.get("character") or {}
    with transaction.atomic():
        receipt_apply(campaign=campaign, result=result)
        binding = binding_for_created(
            campaign=campaign,
            user=user,
            character=character,
            revision=receipt_revision(result.receipt),
        )
        audit_record(
            actor=user,
            action="campaign.character.create",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"character_id": binding.character_id},
        )
    return binding


def binding_for_created(
    *, campaign: Campaign, user, character: dict, revision: int
) -> ActorBinding:
    """Bind `user` to a character they created on the domain (with the character form, or by an
    agent's `character_create` in a room turn) at authority `revision`. Call inside the
    transaction that records it. The creator controls it unless that changed since on the
    domain, as far as recorded here: it was given to someone else or taken back, or the
    creator no longer plays."""
    character_id = str(character["id"])
    lock_bindings(campaign)
    taken = ActorBinding.objects.filter(
        campaign=campaign, character_id=character_id, status=ActorBinding.Status.ACTIVE,
        can_control=True,
    ).exclude(user=user).exists()  # fmt: skip
    control = (
        not taken
        and revision >= _control_revision(campaign, character_id)
        and _active_role(campaign, user) in PLAYING_ROLES
    )
    return _binding_upsert(
        campaign=campaign,
        user=user,
        character_id=character_id,
        character_name=str(character.get("name", "")),
        can_control=control,
        can_view_private=True,
        control_revision=revision if control else None,
    )


def _binding_upsert(
    *,
    campaign: Campaign,
    user,
    character_id: str,
    character_name: str,
    can_control: bool,
    can_view_private: bool,
    control_revision: int | None = None,
) -> ActorBinding:
    fields = {"can_control": can_control, "can_view_private": can_view_private}
    if control_revision is not None:
        fields["control_revision"] = control_revision
    binding, created = ActorBinding.objects.select_for_update().get_or_create(
        campaign=campaign,
        user=user,
        character_id=character_id,
        defaults={"character_name": character_name, **fields},
    )
    if not created:
        binding.character_name = character_name or binding.character_name
        binding.status = ActorBinding.Status.ACTIVE
        for name, value in fields.items():
            setattr(binding, name, value)
        binding.save(update_fields=["character_name", "status", "updated_at", *fields])
    return binding


def lock_bindings(campaign: Campaign) -> None:
    """Take the campaign's row lock, as every change to its bindings' control does first (a
    receipt's UPDATE takes the same lock), so they are recorded one at a time."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()


def binding_set(
    *,
    campaign: Campaign,
    actor,
    user,
    character_id: str,
    can_control: bool = True,
    can_view_private: bool = True,
) -> ActorBinding:
    """Bind a member to a character (owner/GM). The character is read from the domain server
    first, as the GM, so a binding never names a character that does not exist. Control is
    the domain's to enforce: giving it (or taking it from its controller) assigns the
    character's controller there first, only if it is still the one read, and the character's
    other bindings lose control.

    Raises NotFound (campaign, member or character), PermissionDenied, Conflict (archived, or
    control changed meanwhile), ValidationFailed (an observer or a monster given control) and
    the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    role = _active_role(campaign, user)
    if role is None:
        raise NotFound(_("That user is not a member of this campaign."), code="member_not_found")
    if can_control and role not in PLAYING_ROLES:
        raise ValidationFailed(_("Observers cannot control characters; bind without control."))
    try:
        result = domain_call(
            system_id=campaign.system_id,
            tool="character_get",
            arguments={"character_id": character_id},
            requester=actor,
            campaign_id=campaign.domain_id,
        )
    except DomainError as exc:
        if exc.domain_code in ("not_found", "invalid_request"):
            raise NotFound(
                _("No character %(id)s in this campaign.") % {"id": character_id},
                code="character_not_found",
            ) from exc
        raise
    character = result.structured.get("character") or {}
    if character.get("kind") == "monster" and can_control:
        raise ValidationFailed(_("Monsters stay with the GM; bind it without control."))
    controller = character.get("controller")
    assigned = None
    if can_control != (controller == user.principal):
        try:
            assigned = _controller_assign(
                campaign, actor, character_id,
                controller=user.principal if can_control else None, expected=controller,
            )  # fmt: skip
        except DomainError as exc:
            if exc.domain_code != "invalid_request":
                raise
            raise _binding_changed(character_id, exc.message) from exc
    with transaction.atomic():
        lock_bindings(campaign)
        # Read again under the lock: a role change or removal recorded since decides too.
        role = _active_role(campaign, user)
        if role is None:
            raise _binding_changed(character_id, _("the member has left the campaign"))
        newest = _control_revision(campaign, character_id)
        control_revision = None
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
            control_revision = receipt_revision(assigned.receipt)
            current = control_revision >= newest  # else a later assignment is recorded
        else:
            # No write: the read said this member already controls it (or does not, and
            # nothing about control changes). An assignment recorded since the read stands.
            if can_control and (result.authority_revision or 0) < newest:
                raise _binding_changed(character_id, _("another assignment was recorded"))
            current = can_control
        if current:
            # The domain took control from every other binding at that revision.
            ActorBinding.objects.filter(
                campaign=campaign, character_id=character_id, can_control=True
            ).exclude(user=user).update(
                can_control=False,
                control_revision=control_revision or newest,
                updated_at=timezone.now(),
            )
        # A role change recorded since (to observer) released the character on the domain.
        can_control = can_control and current and role in PLAYING_ROLES
        binding = _binding_upsert(
            campaign=campaign,
            user=user,
            character_id=character_id,
            character_name=str(character.get("name", "")),
            can_control=can_control,
            can_view_private=can_view_private,
            control_revision=control_revision,
        )
        audit_record(
            actor=actor,
            action="campaign.binding.set",
            subject_type="campaign",
            subject_id=campaign.id,
            details={
                "user_id": str(user.id),
                "character_id": character_id,
                "can_control": can_control,
                "can_view_private": can_view_private,
            },
        )
    return binding


def binding_remove(*, campaign: Campaign, actor, user, character_id: str) -> ActorBinding:
    """Unbind a member from a character (owner/GM); unbinding twice is a no-op. Removing the
    controlling binding leaves the character with no controller on the domain server (the
    GM's alone) before the binding changes here, unless control has already moved on.

    Raises NotFound, PermissionDenied, Conflict (archived) and the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    binding = ActorBinding.objects.filter(
        campaign=campaign, user=user, character_id=character_id
    ).first()
    if binding is None:
        raise NotFound(_("No such binding."), code="binding_not_found")
    if binding.status == ActorBinding.Status.REMOVED:
        return binding
    assigned = None
    if binding.can_control:
        try:
            assigned = _controller_assign(
                campaign, actor, character_id, controller=None, expected=user.principal
            )
        except DomainError as exc:
            if exc.domain_code not in ("not_found", "invalid_request"):
                raise
            # Gone from the domain, or no longer this member's: nothing to take back.
    with transaction.atomic():
        lock_bindings(campaign)
        binding.refresh_from_db()
        if binding.status == ActorBinding.Status.REMOVED:
            return binding  # removed meanwhile by another request
        binding.status = ActorBinding.Status.REMOVED
        fields = ["status", "updated_at"]
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
            binding.control_revision = receipt_revision(assigned.receipt)
            fields.append("control_revision")
        binding.save(update_fields=fields)
        audit_record(
            actor=actor,
            action="campaign.binding.remove",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"user_id": str(user.id), "character_id": character_id},
        )
    return binding


def _active_role(campaign: Campaign, user) -> str | None:
    return (
        CampaignMembership.objects.filter(
            campaign=campaign, user=user, status=CampaignMembership.Status.ACTIVE
        )
        .values_list("role", flat=True)
        .first()
    )


def _binding_changed(character_id: str, reason: str) -> Conflict:
    return Conflict(
        _("Control of %(id)s could not move: %(reason)s. Reload and try again.")
        % {"id": character_id, "reason": reason},
        code="binding_changed",
    )


def _control_revision(campaign: Campaign, character_id: str) -> int:
    """The newest control assignment recorded for the character (0 for none)."""
    revisions = ActorBinding.objects.filter(
        campaign=campaign, character_id=character_id
    ).values_list("control_revision", flat=True)
    return max(revisions, default=0)


def _controller_assign(
    campaign: Campaign, actor, character_id: str, *, controller: str | None, expected: str | None
):
    arguments: dict[str, Any] = {
        "character_id": character_id,
        "expected_controller": expected or NO_CONTROLLER,
    }
    if controller is not None:
        arguments["controller"] = controller
    return authority_write(
        campaign=campaign,
        tool="character_assign",
        arguments=arguments,
        requester=actor,
        key=(
            f"assign:{actor.id}:{character_id}:{expected or NO_CONTROLLER}"
            f":{controller or NO_CONTROLLER}"
        ),
    )
