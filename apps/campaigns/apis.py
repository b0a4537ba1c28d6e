"""Campaign API: thin views, input/output serializers, then a service or selector call."""

from __future__ import annotations

from datetime import timedelta

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import User
from apps.core.errors import NotFound, ValidationFailed
from apps.core.idempotency import idempotency_key_from, idempotent_response
from apps.domains.registry import domain_registry

from . import selectors
from .models import CampaignInvite, CampaignMembership, JoinRequest
from .services.access import campaign_access
from .services.campaigns import campaign_archive, campaign_create
from .services.characters import binding_remove, binding_set, character_create_for
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


class MyCampaignOutput(serializers.Serializer):
    campaign = CampaignOutput()
    role = serializers.CharField()


class MemberOutput(serializers.Serializer):
    user_id = serializers.UUIDField()
    label = serializers.CharField(source="user.label")
    role = serializers.CharField()
    status = serializers.CharField()
    joined_at = serializers.DateTimeField(source="created_at")


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
        raise NotFound("That user is not a member of this campaign.", code="member_not_found")
    return user


# -- campaigns -------------------------------------------------------------------------------


class CampaignCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    system_id = serializers.CharField(max_length=64)

    def validate_system_id(self, value: str) -> str:
        if value not in domain_registry().plugins:
            raise serializers.ValidationError(
                _("Unknown game system %(system)s.") % {"system": value}
            )
        return value


class CampaignListCreateApi(APIView):
    @extend_schema(responses=MyCampaignOutput(many=True))
    def get(self, request):
        memberships = selectors.campaigns_for_user(user=request.user)
        return Response([_campaign_payload(m.campaign, m.role) for m in memberships])

    @extend_schema(request=CampaignCreateInput, responses={201: CampaignOutput})
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
    @extend_schema(responses=CampaignOutput)
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        return Response(_campaign_payload(membership.campaign, membership.role))


class CampaignArchiveApi(APIView):
    @extend_schema(request=None, responses=CampaignOutput)
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        campaign = campaign_archive(campaign=membership.campaign, actor=request.user)
        return Response(_campaign_payload(campaign, membership.role))


# -- members ---------------------------------------------------------------------------------


class MemberListApi(APIView):
    @extend_schema(responses=MemberOutput(many=True))
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        members = selectors.campaign_members(campaign=membership.campaign)
        return Response(MemberOutput(members, many=True).data)


class RoleInput(serializers.Serializer):
    role = serializers.CharField(max_length=10)


class MemberRoleApi(APIView):
    @extend_schema(request=RoleInput, responses=MemberOutput)
    def patch(self, request, campaign_id, user_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
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
    @extend_schema(responses=MemberOutput)
    def delete(self, request, campaign_id, user_id):
        """Remove a member (owner/GM), or leave: a member deleting their own membership."""
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        if user_id == request.user.pk:
            ended = membership_leave(campaign=membership.campaign, user=request.user)
        else:
            ended = membership_remove(
                campaign=membership.campaign, actor=request.user, user=_user(user_id)
            )
        return Response(MemberOutput(ended).data)


# -- invites ---------------------------------------------------------------------------------


class InviteCreateInput(serializers.Serializer):
    mode = serializers.ChoiceField(choices=CampaignInvite.Mode.choices)
    role = serializers.ChoiceField(
        choices=[CampaignMembership.Role.PLAYER, CampaignMembership.Role.OBSERVER],
        default=CampaignMembership.Role.PLAYER,
    )
    expires_in_hours = serializers.IntegerField(min_value=1, max_value=30 * 24)
    max_uses = serializers.IntegerField(min_value=1, max_value=MAX_USES)


class InviteCreatedOutput(InviteOutput):
    token = serializers.CharField()
    url = serializers.CharField()


class InviteListCreateApi(APIView):
    @extend_schema(responses=InviteOutput(many=True))
    def get(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        invites = CampaignInvite.objects.filter(campaign=membership.campaign)
        return Response(InviteOutput(invites, many=True).data)

    @extend_schema(request=InviteCreateInput, responses={201: InviteCreatedOutput})
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
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


class InviteDetailApi(APIView):
    @extend_schema(responses=InviteOutput)
    def delete(self, request, campaign_id, invite_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user, manage=True)
        invite = get_object_or_404(CampaignInvite, pk=invite_id, campaign=membership.campaign)
        return Response(InviteOutput(invite_revoke(invite=invite, actor=request.user)).data)


class InviteAcceptInput(serializers.Serializer):
    token = serializers.CharField(max_length=200)
    message = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class InviteAcceptOutput(serializers.Serializer):
    campaign_id = serializers.UUIDField()
    campaign_name = serializers.CharField()
    status = serializers.CharField()  # "member" or "pending"
    role = serializers.CharField()
    join_request_id = serializers.UUIDField(allow_null=True)


class InviteAcceptApi(APIView):
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
    @extend_schema(responses=JoinRequestOutput(many=True))
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


class DecisionInput(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approve", "reject"])


class JoinRequestDecisionApi(APIView):
    @extend_schema(request=DecisionInput, responses=JoinRequestOutput)
    def post(self, request, campaign_id, join_request_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        join_request = get_object_or_404(
            JoinRequest.objects.select_related("campaign", "user"),
            pk=join_request_id,
            campaign=membership.campaign,
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


class CharacterCreateApi(APIView):
    @extend_schema(request=dict, responses={201: BindingOutput})
    def post(self, request, campaign_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)

        def handler():
            binding = character_create_for(
                campaign=membership.campaign,
                user=request.user,
                form_data=request.data,
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


class BindingInput(serializers.Serializer):
    can_control = serializers.BooleanField(default=True)
    can_view_private = serializers.BooleanField(default=True)


class BindingApi(APIView):
    @extend_schema(request=BindingInput, responses=BindingOutput)
    def put(self, request, campaign_id, character_id, user_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
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

    @extend_schema(responses=BindingOutput)
    def delete(self, request, campaign_id, character_id, user_id):
        membership = campaign_access(campaign_id=campaign_id, user=request.user)
        binding = binding_remove(
            campaign=membership.campaign,
            actor=request.user,
            user=_user(user_id),
            character_id=character_id,
        )
        return Response(BindingOutput(binding).data)
