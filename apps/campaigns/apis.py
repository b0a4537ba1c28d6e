"""Campaign API: thin views, input/output serializers, then a service or selector call."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.core.errors import NotFound, ValidationFailed
from apps.core.idempotency import idempotency_key_from, idempotent_response
from apps.core.schema import StrictInput, idempotency_parameters
from apps.domains.plugins.dnd5e import ABILITIES, TEMPLATES
from apps.domains.plugins.narrative import MAX_TAG_LENGTH, MAX_TAGS
from apps.domains.registry import domain_registry

from . import selectors
from .models import CampaignInvite, CampaignMembership, JoinRequest
from .services.access import campaign_access, member_not_found
from .services.campaigns import (
    NAME_MAX,
    campaign_archive,
    campaign_create,
    campaign_rename,
    campaign_restore,
)
from .services.characters import (
    binding_remove,
    binding_set,
    character_create_for,
    character_form_for,
)
from .services.invites import MAX_USES, invite_accept, invite_create, invite_revoke
from .services.membership import (
    join_request_decide,
    membership_change_role,
    membership_leave,
    membership_remove,
)

# -- output ------------------------------------------------------------------------------------


class CampaignOutput(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    system_id = serializers.CharField()
    status = serializers.CharField()
    phase = serializers.CharField()
    owner_id = serializers.UUIDField()
    authority_revision = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class MyCampaignOutput(CampaignOutput):
    """A campaign as its member sees it: the campaign's fields and, beside them, their role."""

    role = serializers.CharField()


class MemberOutput(serializers.Serializer):
    user_id = serializers.UUIDField()
    label = serializers.CharField(source="user.label")
    role = serializers.CharField()
    status = serializers.CharField()
    joined_at = serializers.DateTimeField()


class InviteOutput(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.CharField()
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()
    max_uses = serializers.IntegerField()
    used_count = serializers.IntegerField()
    revoked_at = serializers.DateTimeField(allow_null=True)


class JoinRequestOutput(serializers.Serializer):
    id = serializers.UUIDField()
    campaign_id = serializers.UUIDField()
    user_id = serializers.UUIDField()
    label = serializers.CharField(source="user.label")
    role = serializers.CharField()
    status = serializers.CharField()
    message = serializers.CharField()
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class BindingOutput(serializers.Serializer):
    user_id = serializers.UUIDField()
    character_id = serializers.CharField()
    character_name = serializers.CharField()
    can_control = serializers.BooleanField()
    can_view_private = serializers.BooleanField()
    status = serializers.CharField()


def _campaign_payload(campaign, role: str | None = None) -> dict:
    data = dict(CampaignOutput(campaign).data)
    if role is not None:
        data["role"] = role
    return data


def _user(user_id) -> User:
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise member_not_found()
    return user


# -- campaigns -------------------------------------------------------------------------------


class CampaignNameInput(StrictInput):
    """A campaign's name, as creating and renaming take it (the service trims and checks it
    again)."""

    name = serializers.CharField(max_length=NAME_MAX)


class CampaignCreateInput(CampaignNameInput):
    system_id = serializers.CharField(max_length=64)

    def validate_system_id(self, value: str) -> str:
        if value not in domain_registry().plugins:
            raise serializers.ValidationError(
                _("Unknown game system %(system)s.") % {"system": value}
            )
        return value


class CampaignListCreateApi(APIView):
    # The campaign is created on its game system's server (schema: 502, 503).
    upstream_methods = ("POST",)

    @extend_schema(responses=MyCampaignOutput(many=True))
    def get(self, request):
        memberships = selectors.campaigns_for_user(user=request.user)
        return Response([_campaign_payload(m.campaign, m.role) for m in memberships])

    @extend_schema(
        request=CampaignCreateInput,
        parameters=idempotency_parameters(required=True),
        responses={201: MyCampaignOutput},
    )
    def post(self, request):
        def handler():
            data = CampaignCreateInput(data=request.data)
            data.is_valid(raise_exception=True)
            campaign = campaign_create(
                owner=request.user,
                name=data.validated_data["name"],
                system_id=data.validated_data["system_id"],
                idempotency_key=idempotency_key_from(request),
            )
            return Response(_campaign_payload(campaign, CampaignMembership.Role.OWNER), status=201)

        return idempotent_response(request=request, scope="campaigns.create", handler=handler)


class CampaignDetailApi(APIView):
    @extend_schema(responses=MyCampaignOutput)
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        return Response(_campaign_payload(membership.campaign, membership.role))

    @extend_schema(
        request=CampaignNameInput,
        responses=MyCampaignOutput,
        description="Rename the campaign (owner or GM); the name is trimmed. The same name again"
        " changes nothing.",
    )
    def patch(self, request, campaign_id):
        # The role first: a player is refused alike, whatever body.
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        data = CampaignNameInput(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = campaign_rename(
            campaign=membership.campaign, actor=request.user, name=data.validated_data["name"]
        )
        return Response(_campaign_payload(campaign, membership.role))


class CampaignArchiveApi(APIView):
    @extend_schema(request=None, responses=MyCampaignOutput)
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        campaign = campaign_archive(campaign=membership.campaign, actor=request.user)
        return Response(_campaign_payload(campaign, membership.role))


class CampaignRestoreApi(APIView):
    @extend_schema(request=None, responses=MyCampaignOutput)
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        campaign = campaign_restore(campaign=membership.campaign, actor=request.user)
        return Response(_campaign_payload(campaign, membership.role))


# -- members ---------------------------------------------------------------------------------


class MemberListApi(APIView):
    @extend_schema(responses=MemberOutput(many=True))
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        members = selectors.campaign_members(campaign=membership.campaign)
        return Response(MemberOutput(members, many=True).data)


class RoleInput(StrictInput):
    role = serializers.CharField(max_length=10)


class MemberRoleApi(APIView):
    # The role is granted on the domain server (schema: 502, 503).
    upstream_methods = ("PATCH",)

    @extend_schema(request=RoleInput, responses=MemberOutput)
    def patch(self, request, campaign_id, user_id):
        # The role first: anyone but the owner is refused alike, whatever user id or body.
        membership = campaign_access(campaign_id=campaign_id, user=request.user, own=True)
        data = RoleInput(data=request.data)
        data.is_valid(raise_exception=True)
        changed = membership_change_role(
            campaign=membership.campaign,
            actor=request.user,
            user=_user(user_id),
            role=data.validated_data["role"],
        )
        return Response(MemberOutput(changed).data)


class MemberDetailApi(APIView):
    # The domain server revokes the member (schema: 502, 503).
    upstream_methods = ("DELETE",)

    # 200 with the ended membership, not drf-spectacular's default 204 for DELETE.
    @extend_schema(responses={200: MemberOutput})
    def delete(self, request, campaign_id, user_id):
        """Remove a member (owner/GM), or leave: a member deleting their own membership."""
        leaving = user_id == request.user.pk
        # Removing someone else: the role before the user, so a player is refused alike
        # whoever the id names.
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=not leaving)
        if leaving:
            ended = membership_leave(campaign=membership.campaign, user=request.user)
        else:
            ended = membership_remove(
                campaign=membership.campaign, actor=request.user, user=_user(user_id)
            )
        return Response(MemberOutput(ended).data)


# -- invites ---------------------------------------------------------------------------------


class InviteCreateInput(StrictInput):
    mode = serializers.ChoiceField(choices=CampaignInvite.Mode.choices)
    role = serializers.ChoiceField(
        choices=[CampaignMembership.Role.PLAYER, CampaignMembership.Role.OBSERVER],
        default=CampaignMembership.Role.PLAYER,
    )
    expires_in_hours = serializers.IntegerField(min_value=1, max_value=30 * 24)
    max_uses = serializers.IntegerField(min_value=1, max_value=MAX_USES)


class InviteCreatedOutput(InviteOutput):
    token = serializers.CharField(
        allow_null=True, help_text="The invite token; null on an Idempotency-Key replay."
    )
    url = serializers.CharField(
        allow_null=True, help_text="The invite link; null on an Idempotency-Key replay."
    )
    message = serializers.CharField(
        required=False, help_text="On a replay: why the link is withheld and what to do."
    )


LINK_SHOWN_ONCE = gettext_lazy(
    "The invite link was shown once, when the invite was created, and is not stored. If it "
    "was lost, revoke this invite and create another."
)


def _link_withheld(body: dict) -> dict:
    """What the idempotency store keeps of a new invite: the raw token never reaches it."""
    return {**body, "token": None, "url": None, "message": str(LINK_SHOWN_ONCE)}


class InviteListCreateApi(APIView):
    @extend_schema(responses=InviteOutput(many=True))
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        invites = CampaignInvite.objects.filter(campaign=membership.campaign)
        return Response(InviteOutput(invites, many=True).data)

    @extend_schema(
        request=InviteCreateInput,
        parameters=idempotency_parameters(required=False),
        responses={201: InviteCreatedOutput},
    )
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)

        def handler():
            data = InviteCreateInput(data=request.data)
            data.is_valid(raise_exception=True)
            invite, token = invite_create(
                campaign=membership.campaign,
                actor=request.user,
                mode=data.validated_data["mode"],
                role=data.validated_data["role"],
                expires_in=timedelta(hours=data.validated_data["expires_in_hours"]),
                max_uses=data.validated_data["max_uses"],
            )
            body = dict(InviteOutput(invite).data)
            body["token"] = token
            body["url"] = request.build_absolute_uri(f"/invites/{token}")
            return Response(body, status=201)

        return idempotent_response(
            request=request,
            scope="campaigns.invite",
            handler=handler,
            required=False,
            stored_body=_link_withheld,
        )


class InviteDetailApi(APIView):
    # 200 with the revoked invite, not drf-spectacular's default 204 for DELETE.
    @extend_schema(responses={200: InviteOutput})
    def delete(self, request, campaign_id, invite_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        invite = CampaignInvite.objects.filter(pk=invite_id, campaign=membership.campaign).first()
        if invite is None:
            raise NotFound(
                _("Invite not found."),
                code="invite_not_found",
                recovery=_("Check the invite id in the campaign's invite list."),
            )
        return Response(InviteOutput(invite_revoke(invite=invite, actor=request.user)).data)


class InviteAcceptInput(StrictInput):
    token = serializers.CharField(max_length=200)
    message = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class InviteAcceptOutput(serializers.Serializer):
    campaign_id = serializers.UUIDField()
    campaign_name = serializers.CharField()
    status = serializers.CharField()  # "member" or "pending"
    role = serializers.CharField()
    join_request_id = serializers.UUIDField(allow_null=True)


class InviteAcceptApi(APIView):
    # An auto-join invite grants membership on the domain server (schema: 502, 503).
    upstream_methods = ("POST",)

    @extend_schema(request=InviteAcceptInput, responses=InviteAcceptOutput)
    def post(self, request):
        data = InviteAcceptInput(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = invite_accept(
            token=data.validated_data["token"],
            user=request.user,
            message=data.validated_data["message"],
        )
        member = outcome.membership
        return Response(
            InviteAcceptOutput(
                {
                    "campaign_id": outcome.campaign.id,
                    "campaign_name": outcome.campaign.name,
                    "status": "member" if member else "pending",
                    "role": member.role if member else outcome.join_request.role,
                    "join_request_id": None if member else outcome.join_request.id,
                }
            ).data
        )


# -- join requests ---------------------------------------------------------------------------


class JoinRequestListApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                OpenApiParameter.QUERY,
                enum=JoinRequest.Status.values,
                description="Only the join requests in this state; all when left out.",
            )
        ],
        responses=JoinRequestOutput(many=True),
    )
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        requests = JoinRequest.objects.select_related("user").filter(campaign=membership.campaign)
        status = request.query_params.get("status")
        if status:
            if status not in JoinRequest.Status.values:
                raise ValidationFailed(
                    _("status is one of %(values)s.")
                    % {"values": ", ".join(JoinRequest.Status.values)},
                    details={"fields": {"status": [_("Not a join request status.")]}},
                )
            requests = requests.filter(status=status)
        return Response(JoinRequestOutput(requests, many=True).data)


class DecisionInput(StrictInput):
    decision = serializers.ChoiceField(choices=["approve", "reject"])


class JoinRequestDecisionApi(APIView):
    # An approval grants membership on the domain server (schema: 502, 503).
    upstream_methods = ("POST",)

    @extend_schema(request=DecisionInput, responses=JoinRequestOutput)
    def post(self, request, campaign_id, join_request_id):
        # The role first: a player is refused alike whether the request id exists or not.
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        join_request = (
            JoinRequest.objects.select_related("campaign", "user")
            .filter(pk=join_request_id, campaign=membership.campaign)
            .first()
        )
        if join_request is None:
            raise NotFound(
                _("Join request not found."),
                code="join_request_not_found",
                recovery=_("Check the id in the campaign's join request list."),
            )
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        decided = join_request_decide(
            join_request=join_request,
            actor=request.user,
            decision=data.validated_data["decision"],
        )
        return Response(JoinRequestOutput(decided).data)


# -- characters and bindings -----------------------------------------------------------------


# The character body is the campaign's game system's character form (apps/domains/plugins),
# which the service validates; these serializers only document it, and a test keeps their
# fields equal to the forms'.


class Dnd5eCharacterInput(StrictInput):
    """A dnd5e character: a class template, or all six ability scores (not both)."""

    name = serializers.CharField(max_length=80)
    template = serializers.ChoiceField(
        choices=list(TEMPLATES),
        required=False,
        allow_blank=True,
        help_text="A class template; leave it out to send all six ability scores instead.",
    )
    level = serializers.IntegerField(min_value=1, max_value=20)

    def get_fields(self):
        fields = super().get_fields()
        for ability in ABILITIES:
            fields[ability] = serializers.IntegerField(
                min_value=1, max_value=30, required=False, help_text="Without a template."
            )
        return fields


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "Comma-separated, e.g. `brave, ex-soldier`."},
            {
                "type": "array",
                "items": {"type": "string", "maxLength": MAX_TAG_LENGTH},
                "maxItems": MAX_TAGS,
            },
        ]
    }
)
class TagsField(serializers.Field):
    """Narrative tags: one comma-separated string or a list of strings."""


class NarrativeCharacterInput(StrictInput):
    """A narrative character: a name and short tags."""

    name = serializers.CharField(max_length=80)
    tags = TagsField(required=False)


CHARACTER_INPUTS = [Dnd5eCharacterInput, NarrativeCharacterInput]


def _character_fields(data: Any, declared: Any) -> Any:
    """The body as the character form takes it: a list of tags becomes their comma-separated
    text. Raises ValidationFailed for a field the form does not declare (as StrictInput
    refuses one) or a list the text could not carry."""
    unknown = sorted(set(data) - set(declared)) if isinstance(data, Mapping) else []
    if unknown:
        raise ValidationFailed(
            _("The character has invalid fields."),
            details={"fields": {name: [_("Unknown field.")] for name in unknown}},
        )
    tags = data.get("tags") if isinstance(data, Mapping) else None
    if not isinstance(tags, list):
        return data
    if not all(isinstance(tag, str) for tag in tags):
        problem = _("Send tags as a list of text values or as one comma-separated text.")
    elif any("," in tag for tag in tags):
        problem = _("A tag in a list cannot contain a comma.")
    else:
        return {**data, "tags": ", ".join(tags)}
    raise ValidationFailed(
        _("The character has invalid fields."), details={"fields": {"tags": [problem]}}
    )


class CharacterCreateApi(APIView):
    # The character is created on the domain server (schema: 502, 503).
    upstream_methods = ("POST",)

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="CharacterInput",
            serializers=CHARACTER_INPUTS,
            resource_type_field_name=None,
            many=False,
        ),
        description="Create a character with the fields of the campaign's game system:"
        " Dnd5eCharacterInput for dnd5e, NarrativeCharacterInput for narrative.",
        parameters=idempotency_parameters(required=False),
        responses={201: BindingOutput},
    )
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)

        def handler():
            binding = character_create_for(
                campaign=membership.campaign,
                user=request.user,
                form_data=_character_fields(
                    request.data, character_form_for(campaign=membership.campaign).fields
                ),
                idempotency_key=idempotency_key_from(request, required=False),
            )
            return Response(BindingOutput(binding).data, status=201)

        return idempotent_response(
            request=request, scope="campaigns.character", handler=handler, required=False
        )


class BindingListApi(APIView):
    @extend_schema(responses=BindingOutput(many=True))
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        bindings = selectors.bindings_for(campaign=membership.campaign)
        if not membership.is_manager:
            bindings = bindings.filter(user=request.user)
        return Response(BindingOutput(bindings, many=True).data)


class BindingInput(StrictInput):
    can_control = serializers.BooleanField(default=True)
    can_view_private = serializers.BooleanField(default=True)


class BindingApi(APIView):
    # Control is assigned on the domain server (schema: 502, 503).
    upstream_methods = ("PUT", "DELETE")

    @extend_schema(request=BindingInput, responses=BindingOutput)
    def put(self, request, campaign_id, character_id, user_id):
        # The role first: a player is refused alike whatever user id or body.
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        data = BindingInput(data=request.data)
        data.is_valid(raise_exception=True)
        binding = binding_set(
            campaign=membership.campaign,
            actor=request.user,
            user=_user(user_id),
            character_id=character_id,
            **data.validated_data,
        )
        return Response(BindingOutput(binding).data)

    # 200 with the removed binding, not drf-spectacular's default 204 for DELETE.
    @extend_schema(responses={200: BindingOutput})
    def delete(self, request, campaign_id, character_id, user_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        binding = binding_remove(
            campaign=membership.campaign,
            actor=request.user,
            user=_user(user_id),
            character_id=character_id,
        )
        return Response(BindingOutput(binding).data)
