"""Characters (created on the domain server) and actor bindings (who controls which one)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.errors import (
    ApplicationError,
    Conflict,
    NotFound,
    PermissionDenied,
    ValidationFailed,
)
from apps.core.services import audit_record
from apps.core.text import visible
from apps.domains.client import domain_call, principal_for, principal_user_id
from apps.domains.errors import DomainError
from apps.domains.registry import get_plugin

from ..models import ActorBinding, Campaign, CampaignMembership, CharacterControl
from ..selectors import character_creation_open
from .access import (
    campaign_access,
    campaign_archived,
    campaign_status_locked,
    member_not_found,
    refuse_deactivated,
)
from .authority import authority_write, campaign_refresh, receipt_apply, receipt_revision

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


def _form_input(data: Any) -> Mapping:
    """A JSON body for the plugin's character form, held to what a form post can send: an object
    of single values, in text that can be stored. Raises ValidationFailed."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("Send the character's fields as a JSON object."))
    fields = {}
    for name, value in data.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
            fields[name] = [_("Enter a single text or whole-number value.")]
        elif isinstance(value, str):
            try:
                value.encode()
            except UnicodeEncodeError:
                fields[name] = [_("Contains characters that cannot be stored.")]
    if fields:
        raise ValidationFailed(_("The character has invalid fields."), details={"fields": fields})
    return data


def character_create_for(
    *, campaign: Campaign, user, form_data: Any, idempotency_key: str | None = None
) -> ActorBinding:
    """Create a character on the domain server with the plugin's form and bind `user` to it.

    Raises NotFound, PermissionDenied (observers), ValidationFailed (form errors, with fields),
    Conflict (archived) and the domain client's errors."""
    membership = campaign_access(campaign_id=campaign.id, user=user, writable=True)
    if membership.role not in PLAYING_ROLES:
        raise PermissionDenied(
            _("Observers cannot create characters."),
            recovery=_("Ask the campaign owner to make you a player."),  # only they change roles
        )
    if not character_creation_open(campaign=campaign, role=membership.role):
        raise Conflict(
            _("New characters can't be created during %(phase)s.")
            % {"phase": campaign.phase_label.lower()},
            code="phase_denied",
            recovery=_("Create your character once the GM has ended it."),
        )
    form = character_form_for(campaign=campaign, data=_form_input(form_data))
    if form.is_valid() and not visible(str(form.cleaned_data.get("name", "-"))):
        # Only invisible characters (a zero-width space, which strip() keeps): the campaign
        # page, the room and the GM's bindings would show the character with no name.
        form.add_error("name", _("Enter a name that shows."))
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
        # Checked again under the lock archiving takes: it may have happened while the rules
        # server worked, and an archived campaign gets no new characters.
        if lock_bindings(campaign) != Campaign.Status.ACTIVE:
            raise campaign_archived(_("This campaign was archived meanwhile: no new characters."))
        receipt_apply(campaign=campaign, result=result)
        binding = binding_for_created(
            campaign=campaign,
            user=user,
            character=character,
            revision=receipt_revision(result.receipt),
        )
        if binding is None:
            raise Conflict(_("You left the campaign meanwhile."), code="member_left")
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
) -> ActorBinding | None:
    """Bind `user` to a character they created on the domain (with the character form, or by an
    agent's `character_create` in a room turn) at authority `revision`, and record them as its
    controller at that revision. Call inside the transaction that records it. A binding that
    already exists was dealt with after the creation (a late publication): it is left as is.
    None when `user` is no longer a member (only the control is recorded)."""
    character_id = str(character["id"])
    lock_bindings(campaign)
    binding = None
    if _active_role(campaign, user) is not None:
        binding, _created = ActorBinding.objects.get_or_create(
            campaign=campaign,
            user=user,
            character_id=character_id,
            defaults={"character_name": str(character.get("name", "")), "can_view_private": True},
        )
    control_record(
        campaign=campaign, character_id=character_id, controller=principal_for(user),
        revision=revision,
    )  # fmt: skip
    if binding is not None:
        binding.refresh_from_db(fields=["can_control"])
    return binding


def _binding_upsert(
    *,
    campaign: Campaign,
    user,
    character_id: str,
    character_name: str,
    can_view_private: bool,
) -> ActorBinding:
    """The member's active binding to the character; its control is the control record's."""
    binding, created = ActorBinding.objects.get_or_create(
        campaign=campaign,
        user=user,
        character_id=character_id,
        defaults={"character_name": character_name, "can_view_private": can_view_private},
    )
    if not created:
        binding.character_name = character_name or binding.character_name
        binding.can_view_private = can_view_private
        binding.control_on_return = False  # a binding decided now is what stands
        if binding.status != ActorBinding.Status.ACTIVE:
            binding.status = ActorBinding.Status.ACTIVE
            binding.can_control = False  # until the control record says otherwise
        binding.save(
            update_fields=["character_name", "can_view_private", "status", "can_control",
                           "control_on_return", "updated_at"]
        )  # fmt: skip
    return binding


def lock_bindings(campaign: Campaign) -> str | None:
    """Take the campaign's row lock, as every change to its bindings' control does first (a
    receipt's UPDATE takes the same lock), so they are recorded one at a time. Returns the
    campaign's status as of the lock (archiving takes the same lock)."""
    return campaign_status_locked(campaign)


def control_record(
    *, campaign: Campaign, character_id: str, controller: str | None, revision: int
) -> None:
    """Record that the domain names `controller` (a principal, or None for the GM alone) for
    the character as of authority `revision`. The newest revision wins, in whatever order the
    records arrive, and every binding of the character then controls it exactly when its
    member is the one named. Call inside a transaction holding `lock_bindings(campaign)`."""
    record = CharacterControl.objects.filter(campaign=campaign, character_id=character_id).first()
    if record is None or revision > record.revision:
        record = record or CharacterControl(campaign=campaign, character_id=character_id)
        record.controller_id = principal_user_id(controller)
        record.revision = revision
        record.save()
    # Always, not only when the record moved: a binding made since starts without control.
    bindings = ActorBinding.objects.filter(campaign=campaign, character_id=character_id)
    now = timezone.now()
    # Two statements: the one-controller constraint is checked row by row.
    bindings.filter(can_control=True).exclude(user_id=record.controller_id).update(
        can_control=False, updated_at=now
    )
    if record.controller_id is not None:
        bindings.filter(
            user_id=record.controller_id, status=ActorBinding.Status.ACTIVE, can_control=False
        ).update(can_control=True, updated_at=now)


def controls_released(*, campaign: Campaign, result) -> None:
    """Record the characters a member_grant or member_revoke took from a member."""
    for character_id in result.structured.get("released_characters") or []:
        control_record(
            campaign=campaign, character_id=character_id, controller=None,
            revision=receipt_revision(result.receipt),
        )  # fmt: skip


def controls_restore(*, campaign: Campaign, actor, user) -> list[str]:
    """A member who plays again takes back the characters their demotion to observer released
    (`control_on_return`) that nobody controls now; one another member took meanwhile stays
    theirs, and a binding made without control never gains it. Returns the ids restored."""
    restored = []
    bindings = ActorBinding.objects.filter(
        campaign=campaign, user=user, status=ActorBinding.Status.ACTIVE, control_on_return=True
    ).order_by("created_at")
    for binding in list(bindings):
        try:
            binding_set(
                campaign=campaign, actor=actor, user=user, character_id=binding.character_id,
                can_control=True, can_view_private=binding.can_view_private, only_if_free=True,
            )  # fmt: skip
        except (ApplicationError, DomainError):
            pass  # taken, gone, or a monster: left as it is
        else:
            restored.append(binding.character_id)
    bindings.update(control_on_return=False)
    return restored


def controls_reconcile(*, campaign: Campaign) -> tuple[int, int]:
    """Read, as the campaign's owner, the controller of every character its active bindings
    name, and record it (bindings made before control was recorded catch up). Returns (characters
    read, bindings whose control changed). Raises the domain client's errors."""
    character_ids = sorted(
        set(
            ActorBinding.objects.filter(
                campaign=campaign, status=ActorBinding.Status.ACTIVE
            ).values_list("character_id", flat=True)
        )
    )
    changed = 0
    for character_id in character_ids:
        result = _character_read(campaign, campaign.owner, character_id)
        if result is None:
            controller, revision = None, None  # gone from the domain: nobody controls it
        else:
            character = result.structured.get("character") or {}
            controller, revision = character.get("controller"), result.authority_revision
        bindings = ActorBinding.objects.filter(campaign=campaign, character_id=character_id)
        with transaction.atomic():
            lock_bindings(campaign)
            before = dict(bindings.values_list("pk", "can_control"))
            if revision is None:
                bindings.filter(can_control=True).update(
                    can_control=False, updated_at=timezone.now()
                )
            else:
                control_record(
                    campaign=campaign, character_id=character_id, controller=controller,
                    revision=revision,
                )  # fmt: skip
            after = dict(bindings.values_list("pk", "can_control"))
        changed += sum(1 for pk, control in after.items() if before.get(pk) != control)
    return len(character_ids), changed


def campaign_characters(*, campaign: Campaign, requester) -> list[tuple[str, str]] | None:
    """(id, name) of the campaign's player characters, read from its domain server as
    `requester`; None when the server cannot say now (the page then asks for an id)."""
    try:
        result = campaign_refresh(campaign=campaign, requester=requester)
    except ApplicationError:
        return None
    listed = (result.structured.get("campaign") or {}).get("characters")
    if not isinstance(listed, list):
        return None
    return [(str(c["id"]), str(c.get("name") or c["id"])) for c in listed if c.get("id")]


def _character_read(campaign: Campaign, requester, character_id: str):
    """The domain's character_get as `requester`; None when there is no such character."""
    try:
        return domain_call(
            system_id=campaign.system_id,
            tool="character_get",
            arguments={"character_id": character_id},
            requester=requester,
            campaign_id=campaign.domain_id,
        )
    except DomainError as exc:
        if exc.domain_code in ("not_found", "invalid_request"):
            return None
        raise


def binding_set(
    *,
    campaign: Campaign,
    actor,
    user,
    character_id: str,
    can_control: bool = True,
    can_view_private: bool = True,
    only_if_free: bool = False,
) -> ActorBinding:
    """Bind a member to a character (owner/GM). The character is read from the domain server
    first, as the GM, so a binding never names a character that does not exist. Control is
    the domain's: giving it (or taking it from its controller) assigns the character's
    controller there first, only if it is still the one read; what the domain then names is
    recorded, and the bindings follow it. With `only_if_free`, control is only given when
    nobody else holds it (Conflict otherwise).

    Raises NotFound (campaign, member or character), PermissionDenied, Conflict (archived,
    control changed meanwhile, or the member left), ValidationFailed (an observer or a monster
    given control) and the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    role = _active_role(campaign, user)
    if role is None:
        raise member_not_found()
    if can_control and role not in PLAYING_ROLES:
        raise ValidationFailed(_("Observers cannot control characters; bind without control."))
    refuse_deactivated(user)
    result = _character_read(campaign, actor, character_id)
    if result is None:
        raise NotFound(
            _("No character %(id)s in this campaign.") % {"id": character_id},
            code="character_not_found",
        )
    character = result.structured.get("character") or {}
    if character.get("kind") == "monster" and can_control:
        raise ValidationFailed(_("Monsters stay with the GM; bind it without control."))
    controller = character.get("controller")
    known = (controller, result.authority_revision or 0)  # what the domain names, and when
    if only_if_free and can_control and controller not in (None, principal_for(user)):
        raise Conflict(
            _("%(id)s is controlled by another member.") % {"id": character_id},
            code="binding_changed",
        )
    if can_control != (controller == principal_for(user)):
        wanted = principal_for(user) if can_control else None
        try:
            assigned = _controller_assign(
                campaign, actor, character_id, controller=wanted, expected=controller
            )
        except DomainError as exc:
            if exc.domain_code != "invalid_request":
                raise
            raise Conflict(
                _("Control of %(id)s could not move (%(reason)s). Reload and try again.")
                % {"id": character_id, "reason": exc.message},
                code="binding_changed",
            ) from exc
        known = (wanted, receipt_revision(assigned.receipt))
    else:
        assigned = None
    with transaction.atomic():
        # Archived while the rules server was read (or assigned control): the binding is not
        # saved, but control the rules server moved is still recorded, as it now stands.
        archived = lock_bindings(campaign) != Campaign.Status.ACTIVE
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
        # Read again under the lock: a removal recorded since the check above.
        member = _active_role(campaign, user) is not None
        if member and not archived:
            binding = _binding_upsert(
                campaign=campaign,
                user=user,
                character_id=character_id,
                character_name=str(character.get("name", "")),
                can_view_private=can_view_private,
            )
        control_record(
            campaign=campaign, character_id=character_id, controller=known[0],
            revision=known[1],
        )  # fmt: skip
        if member and not archived:
            binding.refresh_from_db(fields=["can_control"])
            _binding_changed(campaign, user, character_id)
            audit_record(
                actor=actor,
                action="campaign.binding.set",
                subject_type="campaign",
                subject_id=campaign.id,
                details={
                    "user_id": str(user.id),
                    "character_id": character_id,
                    "can_control": binding.can_control,
                    "can_view_private": can_view_private,
                },
            )
    if archived:
        raise campaign_archived(
            _("This campaign was archived meanwhile: the binding was not saved.")
        )
    if not member:
        raise Conflict(
            _("%(name)s left the campaign meanwhile.") % {"name": user.label},
            code="member_left",
        )
    if can_control and not binding.can_control:
        raise Conflict(
            _(
                "Control of %(id)s moved meanwhile; the binding was saved without it. "
                "Reload and try again."
            )
            % {"id": character_id},
            code="binding_changed",
        )
    return binding


def binding_remove(*, campaign: Campaign, actor, user, character_id: str) -> ActorBinding:
    """Unbind a member from a character (owner/GM); unbinding twice is a no-op. Removing the
    controlling binding leaves the character with no controller on the domain server (the
    GM's alone) before the binding changes here, unless control has already moved on.

    Raises NotFound, PermissionDenied, Conflict (archived) and the domain client's errors."""
    campaign_access(campaign_id=campaign.id, user=actor, manage=True, writable=True)
    binding = None
    # No binding holds a NUL, and PostgreSQL refuses one in a query (a 500, not a 404).
    if "\x00" not in character_id:
        binding = ActorBinding.objects.filter(
            campaign=campaign, user=user, character_id=character_id
        ).first()
    if binding is None:
        raise NotFound(
            _("No such binding."),
            code="binding_not_found",
            recovery=_("Check the character id and the member in the campaign's bindings."),
        )
    if binding.status == ActorBinding.Status.REMOVED:
        return binding
    assigned = None
    if binding.can_control:
        try:
            assigned = _controller_assign(
                campaign, actor, character_id, controller=None, expected=principal_for(user)
            )
        except DomainError as exc:
            if exc.domain_code not in ("not_found", "invalid_request"):
                raise
            # Gone from the domain, or no longer this member's: nothing to take back.
    with transaction.atomic():
        lock_bindings(campaign)
        if assigned is not None:
            receipt_apply(campaign=campaign, result=assigned)
            control_record(
                campaign=campaign, character_id=character_id, controller=None,
                revision=receipt_revision(assigned.receipt),
            )  # fmt: skip
        binding.refresh_from_db()
        if binding.status == ActorBinding.Status.REMOVED:
            return binding  # removed meanwhile by another request
        binding.status = ActorBinding.Status.REMOVED
        binding.can_control = False
        binding.save(update_fields=["status", "can_control", "updated_at"])
        _binding_changed(campaign, user, character_id)
        audit_record(
            actor=actor,
            action="campaign.binding.remove",
            subject_type="campaign",
            subject_id=campaign.id,
            details={"user_id": str(user.id), "character_id": character_id},
        )
    return binding


def _binding_changed(campaign: Campaign, user, character_id: str) -> None:
    """Tell the member alone (in the binding's transaction): their open room reads its card
    again, since which character it shows is theirs to know."""
    from apps.turns.projections import state_changed_emit

    state_changed_emit(
        campaign_id=campaign.pk, revision=campaign.authority_revision, scopes=["membership"],
        entity_ids=[character_id], user_ids=[user.id],
    )  # fmt: skip


def _active_role(campaign: Campaign, user) -> str | None:
    return (
        CampaignMembership.objects.filter(
            campaign=campaign, user=user, status=CampaignMembership.Status.ACTIVE
        )
        .values_list("role", flat=True)
        .first()
    )


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
