"""OpenAPI schema: the project's AutoSchema (the §8 error responses on every operation) and the
shared declarations views use (the Idempotency-Key header)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter, extend_schema_serializer
from rest_framework import serializers

from .idempotency import HEADER, MAX_LEN, MIN_LEN

REPLAY_HEADER = "Idempotent-Replay"
UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


@extend_schema_serializer(component_name="Error")
class ErrorOutput(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable code, e.g. invalid_request.")
    message = serializers.CharField(help_text="What went wrong, for people.")
    retryable = serializers.BooleanField(help_text="Whether the same request may succeed later.")
    recovery = serializers.CharField(help_text="What to do next.")
    details = serializers.DictField(
        help_text="Machine-readable specifics, e.g. `fields` (field name -> messages) for 400."
    )


@extend_schema_serializer(component_name="ErrorEnvelope")
class ErrorEnvelopeOutput(serializers.Serializer):
    error = ErrorOutput()


class StrictInput(serializers.Serializer):
    """A request body's fields: one the serializer does not declare is refused with the rest,
    not ignored (a misspelt "audiance" would otherwise post to everyone)."""

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        refused = {name: [_("Unknown field.")] for name in unknown}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({**exc.detail, **refused}) from exc
        if refused:
            raise serializers.ValidationError(refused)
        return value


# Status -> when it happens; which operations list which status is decided in error_statuses.
ERROR_DESCRIPTIONS = {
    "400": "Invalid input: `details.fields` names the fields (or `details.header` the header).",
    "401": "Not signed in.",
    "403": "Your role does not allow this, or the CSRF token is missing or stale.",
    "404": "Not found, or not visible to you.",
    "402": "Not enough quota: `recovery` says what to do.",
    "409": "Conflict: the state changed, or an Idempotency-Key was reused for another request.",
    "413": "The request body is too large.",
    "415": "The body is not application/json.",
    "429": "Too many requests: wait `Retry-After` seconds.",
    "502": "A game system's server failed or answered outside its contract.",
    "503": "A game system's server could not be reached: `retryable`, try again shortly.",
}


def idempotency_parameters(*, required: bool) -> list[OpenApiParameter]:
    """The Idempotency-Key request header and the Idempotent-Replay response header."""
    usage = "Required." if required else "Optional; without it a retry may do the work twice."
    return [
        OpenApiParameter(
            HEADER,
            {"type": "string", "minLength": MIN_LEN, "maxLength": MAX_LEN},
            OpenApiParameter.HEADER,
            required=required,
            description=(
                f"{usage} A unique key per new request ({MIN_LEN} to {MAX_LEN} printable"
                " characters); resend the same key only to retry the same request, which then"
                " returns the first response instead of doing the work again."
            ),
        ),
        OpenApiParameter(
            REPLAY_HEADER,
            str,
            OpenApiParameter.HEADER,
            response=True,
            description="`true` when this is the stored response of an earlier request with"
            " the same Idempotency-Key.",
        ),
    ]


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's AutoSchema, plus the error responses an operation can give, each the
    one ErrorEnvelope component: declared here once rather than on every view."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        envelope = self.resolve_serializer(ErrorEnvelopeOutput, "response").ref
        responses = operation["responses"]
        for status in error_statuses(operation, self.method, self.view):
            # A view's own declaration of a status wins.
            responses.setdefault(
                status,
                {
                    "description": ERROR_DESCRIPTIONS[status],
                    "content": {"application/json": {"schema": envelope}},
                },
            )
            if status == "429":
                responses[status].setdefault(
                    "headers",
                    {
                        "Retry-After": {
                            "schema": {"type": "integer"},
                            "description": "Seconds to wait before trying again.",
                        }
                    },
                )
        return operation


def error_statuses(operation: dict, method: str, view) -> list[str]:
    """The error statuses an operation can answer with, from what it takes and who may call."""
    statuses = []
    takes_input = "requestBody" in operation or any(
        p["in"] != "path" for p in operation.get("parameters", [])
    )
    has_path_ids = any(p["in"] == "path" for p in operation.get("parameters", []))
    # {} in the security list means anonymous callers are let in (health, ready).
    signed_in_only = {} not in operation.get("security", [{}])
    if takes_input:
        statuses.append("400")
    if signed_in_only:
        statuses += ["401", "403"]
    if method in UNSAFE_METHODS and getattr(view, "charges_quota", False):
        statuses.append("402")
    if has_path_ids:
        statuses.append("404")
    if method in UNSAFE_METHODS:
        statuses.append("409")
    if "requestBody" in operation:
        statuses += ["413", "415"]
    if view.throttle_classes:
        statuses.append("429")
    # A view that may wait on a domain server (architecture §8: 502/503 upstream) names the
    # methods that do in `upstream_methods`.
    if method in getattr(view, "upstream_methods", ()):
        statuses += ["502", "503"]
    return statuses
