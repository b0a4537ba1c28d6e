"""Characters (created on the domain server) and actor bindings (who controls which one)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.errors import NotFound, PermissionDenied, ValidationFailed
from apps.core.services import audit_record
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from apps.domains.registry import get_plugin

from ..models import ActorBinding, Campaign, CampaignMembership
from .access import campaign_access
from .authority import authority_write, receipt_apply

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
        binding = binding_for_created(campaign=campaign, user=user, character=character)
        audit_record(
            actor=user,
            action="campaign.character.create",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"character_id": binding.character_id},
        )
    return binding


def binding_for_created(*, campaign: Campaign, user, character: dict) -> ActorBinding:
    """Bind `user` to a character they created on the domain (with the character form, or by an
    agent's `character_create` in a room turn). Call inside the transaction that records it."""
    return _binding_upsert(
        campaign=campaign,
        user=user,
        character_id=str(character["id"]),
        character_name=str(character.get("name", "")),
        can_control=True,
        can_view_private=True,
    )


def _binding_upsert(
    *,
    campaign: Campaign,
    user,
    character_id: str,
    character_name: str,
    can_control: bool,
    can_view_private: bool,
) -> ActorBinding:
    binding, created = ActorBinding.objects.select_for_update().get_or_create(
        campaign=campaign,
        user=user,
        character_id=character_id,
        defaults={
            "character_name": character_name,
            "can_control": can_control,
            "can_view_private": can_view_private,
        },
    )
    if not created:
        binding.character_name = character_name or binding.character_name
        binding.can_control = can_control
        binding.can_view_private = can_view_private
        binding.status = ActorBinding.Status.ACTIVE
        binding.save(
            update_fields=[
                "character_name",
                "can_control",
                "can_view_private",
                "status",
                "updated_at",
            ]
        )
    return binding


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
    character's controller there first, and the character's other bindings lose control.

    Raises NotFound (campaign, member or character), PermissionDenied, Conflict, ValidationFailed
    (a monster) and the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    role = (
        CampaignMembership.objects.filter(
            campaign=campaign, user=user, status=CampaignMembership.Status.ACTIVE
        )
        .values_list("role", flat=True)
        .first()
    )
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
    if can_control and controller != user.principal:
        assigned = _controller_assign(campaign, actor, character_id, user.principal)
    elif not can_control and controller == user.principal:
        assigned = _controller_assign(campaign, actor, character_id, None)
    else:
        assigned = None
    with transaction.atomic():
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
        if can_control:
            ActorBinding.objects.filter(
                campaign=campaign, character_id=character_id, can_control=True
            ).exclude(user=user).update(can_control=False, updated_at=timezone.now())
        binding = _binding_upsert(
            campaign=campaign,
            user=user,
            character_id=character_id,
            character_name=str(character.get("name", "")),
            can_control=can_control,
            can_view_private=can_view_private,
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
    GM's alone) before the binding changes here.

    Raises NotFound, PermissionDenied and the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True)
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
            assigned = _controller_assign(campaign, actor, character_id, None)
        except DomainError as exc:
            if exc.domain_code not in ("not_found", "invalid_request"):
                raise
            # The character is gone from the domain: there is no control left to take back.
    with transaction.atomic():
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
        binding.status = ActorBinding.Status.REMOVED
        binding.save(update_fields=["status", "updated_at"])
        audit_record(
            actor=actor,
            action="campaign.binding.remove",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"user_id": str(user.id), "character_id": character_id},
        )
    return binding


def _controller_assign(campaign: Campaign, actor, character_id: str, controller: str | None):
    arguments: dict[str, Any] = {"character_id": character_id}
    if controller is not None:
        arguments["controller"] = controller
    return authority_write(
        campaign=campaign,
        tool="character_assign",
        arguments=arguments,
        requester=actor,
        key=f"assign:{character_id}:{controller or 'none'}",
    )
