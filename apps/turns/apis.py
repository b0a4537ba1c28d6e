"""Room turn API: post an action, read a job, cancel a job, read the per-viewer panel."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.campaigns.selectors import membership_for
from apps.core.errors import NotFound
from apps.core.idempotency import idempotency_key_from
from apps.core.request_context import request_traceparent
from apps.core.schema import StrictInput, idempotency_parameters
from apps.core.throttling import WRITE_LIMITED
from apps.rooms.models import MAX_BODY_LENGTH, Message
from apps.turns.panels import panel_for_viewer
from apps.turns.selectors import active_jobs_for_viewer, turn_job_for_viewer
from apps.turns.services import job_view, turn_action_submit, turn_cancel
from apps.turns.services.jobs import TURN_TASKS


def _membership_or_404(request, campaign_id):
    membership = membership_for(campaign_id=campaign_id, user=request.user)
    if membership is None:
        raise NotFound(_("No such campaign room."))
    membership.user = request.user
    return membership


class ActionInput(StrictInput):
    body = serializers.CharField(max_length=MAX_BODY_LENGTH, trim_whitespace=True)
    base_revision = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    # Any audience passes here: the submit refuses a private one with a reason to act on.
    audience = serializers.ChoiceField(
        choices=[Message.Audience.PUBLIC, Message.Audience.GM],
        default=Message.Audience.PUBLIC,
        error_messages={
            "invalid_choice": _(
                "An action goes to everyone (public) or to the GM only (gm); send private "
                "words as a chat message."
            )
        },
    )
    character_id = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default="",
        help_text="Act as this character of yours (one you control); left out: your first.",
    )  # fmt: skip
    task = serializers.ChoiceField(
        choices=TURN_TASKS, default=TURN_TASKS[0],
        help_text="narration (owner or GM): the body is the GM's narration, posted as such, "
                  "and the game master applies what it says with the narration tools.",
    )  # fmt: skip


class JobErrorOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    retryable = serializers.BooleanField()
    recovery = serializers.CharField()


class JobOutput(serializers.Serializer):
    id = serializers.UUIDField()
    campaign_id = serializers.UUIDField()
    requester_id = serializers.UUIDField()
    trigger_message_id = serializers.UUIDField()
    text = serializers.CharField()
    task = serializers.CharField(help_text="action, or narration for a GM's narration turn.")
    status = serializers.CharField()
    attempt = serializers.IntegerField()
    max_attempts = serializers.IntegerField()
    cancel_requested = serializers.BooleanField()
    base_revision = serializers.IntegerField(allow_null=True)
    result_revision = serializers.IntegerField(allow_null=True)
    tools = serializers.ListField(child=serializers.CharField())
    charged = serializers.IntegerField(allow_null=True)
    error = JobErrorOutput(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    updated_at = serializers.CharField(
        allow_null=True, help_text="Moves on with every change of the job."
    )
    finished_at = serializers.CharField(allow_null=True)


class RoomActionsApi(APIView):
    throttle_classes = WRITE_LIMITED
    throttle_scope = "messages"
    charges_quota = True  # an action reserves quota (schema: 402)
    # A base_revision ahead of the room is read back from the domain (schema: 502, 503).
    upstream_methods = ("POST",)

    @extend_schema(
        request=ActionInput,
        parameters=idempotency_parameters(required=True),
        responses={202: JobOutput, 200: JobOutput},
    )
    def post(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        key = idempotency_key_from(request)
        payload = ActionInput(data=request.data)
        payload.is_valid(raise_exception=True)
        return action_submitted(request, membership, payload.validated_data, key=key)


def action_submitted(request, membership, data, *, key: str) -> Response:
    """Submit an action (`body`, `audience`, optional `base_revision` and `character_id`) and
    answer with its job: 202 for a new one, 200 with Idempotent-Replay for a repeated key. Both
    action endpoints answer through here."""
    job, created = turn_action_submit(
        membership=membership,
        text=data["body"],
        idempotency_key=key,
        base_revision=data.get("base_revision"),
        audience=data["audience"],
        character_id=data.get("character_id") or "",
        traceparent=request_traceparent(request),
        task=data.get("task") or TURN_TASKS[0],
    )
    response = Response(
        job_view(job), status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
    )
    if not created:
        response["Idempotent-Replay"] = "true"
    return response


class RoomJobsApi(APIView):
    @extend_schema(
        # The operationId a list response gave it before the body was declared as an object.
        operation_id="campaigns_room_jobs_list",
        responses=inline_serializer(
            "RoomJobList",
            {
                "results": JobOutput(many=True),
                "has_more": serializers.BooleanField(
                    help_text="More active jobs than the oldest ones listed."
                ),
            },
        ),
    )
    def get(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        jobs, more = active_jobs_for_viewer(campaign_id=campaign_id, membership=membership)
        return Response({"results": [job_view(job) for job in jobs], "has_more": more})


class RoomJobApi(APIView):
    @extend_schema(responses=JobOutput)
    def get(self, request, campaign_id, job_id):
        membership = _membership_or_404(request, campaign_id)
        job = turn_job_for_viewer(campaign_id=campaign_id, job_id=job_id, membership=membership)
        if job is None:
            raise NotFound(_("No such turn."))
        return Response(job_view(job))


class RoomJobCancelApi(APIView):
    @extend_schema(request=None, responses=JobOutput)
    def post(self, request, campaign_id, job_id):
        membership = _membership_or_404(request, campaign_id)
        job = turn_job_for_viewer(campaign_id=campaign_id, job_id=job_id, membership=membership)
        if job is None:
            raise NotFound(_("No such turn."))
        return Response(job_view(turn_cancel(job=job, membership=membership)))


class RoomPanelApi(APIView):
    # The character card is read through the domain (schema: 502, 503).
    upstream_methods = ("GET",)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "character",
                str,
                OpenApiParameter.QUERY,
                required=False,
                description="The card to show: one of your characters (the one you act as); "
                "left out or not yours: your first.",
            )  # fmt: skip
        ],
        responses=inline_serializer(
            "RoomPanel",
            {
                "campaign_id": serializers.UUIDField(),
                "system_id": serializers.CharField(),
                "phase": serializers.CharField(),
                "character_creation_open": serializers.BooleanField(),
                "authority_revision": serializers.IntegerField(),
                "role": serializers.CharField(),
                "audience": serializers.CharField(),
                "panels": serializers.DictField(),
                "character": serializers.DictField(allow_null=True),
                "jobs": JobOutput(many=True),
                "jobs_has_more": serializers.BooleanField(),
                "jobs_read_at": serializers.CharField(),
            },
        ),
    )
    def get(self, request, campaign_id):
        membership = _membership_or_404(request, campaign_id)
        character_id = request.query_params.get("character", "")[:64]
        return Response(panel_for_viewer(membership=membership, character_id=character_id))
