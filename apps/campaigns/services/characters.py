"""Characters (created on the domain server) and actor bindings (who controls which one)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
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
    first, as the GM, so a binding never names a character that does not exist.

    Raises NotFound (campaign, member or character), PermissionDenied, Conflict."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    if not CampaignMembership.objects.filter(
        campaign=campaign, user=user, status=CampaignMembership.Status.ACTIVE
    ).exists():
        raise NotFound(_("That user is not a member of this campaign."), code="member_not_found")
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
    with transaction.atomic():
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
    """Unbind a member from a character (owner/GM); unbinding twice is a no-op.

    Raises NotFound, PermissionDenied."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True)
    binding = ActorBinding.objects.filter(
        campaign=campaign, user=user, character_id=character_id
    ).first()
    if binding is None:
        raise NotFound(_("No such binding."), code="binding_not_found")
    if binding.status == ActorBinding.Status.REMOVED:
        return binding
    with transaction.atomic():
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
