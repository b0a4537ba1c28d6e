"""Room HTTP API: list entries, post a message (Idempotency-Key), mark read."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.campaigns.selectors import membership_for
from apps.core.errors import NotFound, ValidationFailed
from apps.core.idempotency import (
    HEADER,
    idempotency_key_conflict,
    idempotency_key_from,
    idempotent_response,
)
from apps.core.schema import StrictInput, idempotency_parameters
from apps.core.throttling import WRITE_LIMITED
from apps.turns.apis import JobOutput, action_submitted
from apps.turns.selectors import turn_key_used

from .models import (
    MAX_BODY_LENGTH,
    MAX_PRIVATE_RECIPIENTS,
    POST_SCOPE,
    RESERVED_CLIENT_ID_PREFIXES,
    Message,
)
from .selectors import (
    DEFAULT_PAGE,
    MAX_PAGE,
    room_for_campaign,
    room_message_page_for_viewer,
    room_messages_before_for_viewer,
)
from .selectors import serialize_entry as _serialize
from .services import room_mark_read, room_message_post


def _membership_or_404(request, campaign_id):
    membership = membership_for(campaign_id=campaign_id, user=request.user)
    if membership is None:
        # 404, not 403: a non-member learns nothing about the campaign.
        raise NotFound(_("No such campaign room."))
    membership.user = request.user  # the same row: spares a query when posting
    return membership


class PersonOutput(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()


class EntryOutput(serializers.Serializer):
    id = serializers.UUIDField()
    sequence = serializers.IntegerField()
    kind = serializers.CharField()
    mode = serializers.CharField()
    event_type = serializers.CharField()
    body = serializers.CharField()
    data = serializers.DictField()
    audience = serializers.CharField()
    recipients = PersonOutput(many=True)
    sender = PersonOutput(allow_null=True)
    client_message_id = serializers.CharField(allow_null=True)
    created_at = serializers.CharField()


class ListInput(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, default=0)
    before = serializers.IntegerField(
        min_value=1, required=False,
        help_text="Page backwards instead: the newest entries before this sequence (and "
                  "after `after`); has_more then says whether older ones exist.",
    )  # fmt: skip
    limit = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=DEFAULT_PAGE)


class ListOutput(serializers.Serializer):
    results = EntryOutput(many=True)
    next_after = serializers.IntegerField()
    has_more = serializers.BooleanField()


class PostInput(StrictInput):
    body = serializers.CharField(max_length=MAX_BODY_LENGTH, trim_whitespace=True)
    mode = serializers.ChoiceField(choices=Message.Mode.values, default=Message.Mode.CHAT)
    audience = serializers.ChoiceField(
        choices=Message.Audience.values, default=Message.Audience.PUBLIC
    )
    recipients = serializers.ListField(
        child=serializers.UUIDField(), max_length=MAX_PRIVATE_RECIPIENTS, default=list
    )
    client_message_id = serializers.CharField(
        max_length=160, required=False,
        help_text="Defaults to the Idempotency-Key. Ids starting with 'turn:' or 'turn#' are "
                  "the room's own (an action's message).",
    )  # fmt: skip

    def validate_client_message_id(self, value: str) -> str:
        if value.startswith(RESERVED_CLIENT_ID_PREFIXES):
            raise serializers.ValidationError(
                _("Ids starting with 'turn:' or 'turn#' are reserved for actions.")
            )
        return value

    base_revision = serializers.IntegerField(
        min_value=0, required=False, allow_null=True,
        help_text="mode=action only: the campaign revision the action was based on.",
    )  # fmt: skip
    character_id = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default="",
        help_text="mode=action only: act as this character of yours (one you control).",
    )  # fmt: skip


class ReadInput(StrictInput):
    sequence = serializers.IntegerField(min_value=0)


class ReadOutput(serializers.Serializer):
    last_read_sequence = serializers.IntegerField()


class RoomMessagesApi(APIView):
    throttle_classes = WRITE_LIMITED
    throttle_scope = "messages"
    charges_quota = True  # mode=action reserves quota (schema: 402)
    upstream_methods = ("POST",)  # mode=action, as POST room/actions (schema: 502, 503)

    @extend_schema(parameters=[ListInput], responses=ListOutput)
    def get(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        params = ListInput(data=request.query_params)
        if not params.is_valid():
            raise ValidationFailed(
                _("Invalid paging parameters."),
                recovery=_("Fix the query parameters named in details.fields and ask again."),
                details={"fields": params.errors},
            )
        after, limit = params.validated_data["after"], params.validated_data["limit"]
        before = params.validated_data.get("before")
        room = room_for_campaign(campaign_id=campaign_id)
        if room is None:
            messages, has_more = [], False
        elif before is not None:
            messages, has_more = room_messages_before_for_viewer(
                room=room, viewer_membership=membership, before=before, limit=limit, after=after
            )
        else:
            messages, has_more = room_message_page_for_viewer(
                room=room, viewer_membership=membership, after=after, limit=limit
            )
        page = [_serialize(m) for m in messages]
        body = {
            "results": page,
            "next_after": page[-1]["sequence"] if page else after,
            "has_more": has_more,
        }
        return Response(body)

    @extend_schema(
        request=PostInput,
        parameters=idempotency_parameters(required=True),
        responses={
            201: EntryOutput,
            200: OpenApiResponse(
                EntryOutput,
                description="A chat message already posted with this client message id.",
            ),
            202: OpenApiResponse(
                JobOutput, description="mode=action: the queued turn (as POST room/actions)."
            ),
        },
    )
    def post(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        payload = PostInput(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        key = idempotency_key_from(request)
        # Chat and actions keep their results apart (stored response, job); an action's job
        # is written with a hold on its key among the chat responses (POST_SCOPE), so one key
        # is one request here and on room/actions, whichever came first.
        if data["mode"] == Message.Mode.ACTION:
            return _action_post(request, membership, data, key)
        # A job from before actions held their key has no hold: its key is looked up.
        if turn_key_used(user=request.user, idempotency_key=key):
            raise idempotency_key_conflict(key)
        # The client message id defaults to the Idempotency-Key: one id for both layers.
        cmid = data.get("client_message_id") or key
        if cmid.startswith(RESERVED_CLIENT_ID_PREFIXES):
            raise ValidationFailed(
                _("An Idempotency-Key for a chat message may not start with 'turn:' or 'turn#'."),
                code="idempotency_key_invalid",
                recovery=_("Send the message with another key, or name a client_message_id."),
                details={"header": HEADER},
            )

        def handler():
            message, created = room_message_post(
                membership=membership,
                body=data["body"],
                mode=data["mode"],
                audience=data["audience"],
                recipient_ids=data["recipients"],
                client_message_id=cmid,
            )
            return Response(
                _serialize(message),
                status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            )

        return idempotent_response(request=request, scope=POST_SCOPE, handler=handler)


def _action_post(request, membership, data, key: str) -> Response:
    """An action posted here is a turn (architecture §5): the message, the queued job and the
    reservation, exactly as `POST .../room/actions` makes them; the reply is the job (202)."""
    if data["recipients"]:
        problem = _("An action goes to everyone or to the GM only, not to chosen members.")
        raise ValidationFailed(
            problem,
            code="invalid_audience",
            recovery=_("Send private words as a chat message."),
            details={"fields": {"recipients": [problem]}},
        )
    return action_submitted(request, membership, data, key=key)


class RoomReadApi(APIView):
    @extend_schema(request=ReadInput, responses=ReadOutput)
    def post(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        payload = ReadInput(data=request.data)
        payload.is_valid(raise_exception=True)
        value = room_mark_read(membership=membership, sequence=payload.validated_data["sequence"])
        return Response({"last_read_sequence": value})


__all__ = ["HEADER", "RoomMessagesApi", "RoomReadApi"]
