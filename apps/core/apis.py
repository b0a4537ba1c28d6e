from django.conf import settings
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .middleware import policy_directive, policy_with
from .selectors import readiness_report


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []

    @extend_schema(
        responses=inline_serializer("Health", {"status": serializers.CharField()}),
    )
    def get(self, request):
        return Response({"status": "ok"})


class ReadyApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []

    @extend_schema(
        responses={
            200: inline_serializer(
                "Ready", {"status": serializers.CharField(), "components": serializers.DictField()}
            )
        },
    )
    def get(self, request):
        ok, components = readiness_report()
        if ok:
            return Response({"status": "ready", "components": components})
        return Response(
            {
                "error": {
                    "code": "not_ready",
                    "message": "One or more components are unavailable.",
                    "retryable": True,
                    "recovery": "Check the failing components and try again.",
                    "details": {"components": components},
                }
            },
            status=503,
        )


class ApiDocsView(SpectacularSwaggerSplitView):
    """The API docs page. Its setup script is served as a file, as the site's policy needs;
    Swagger UI adds <style> elements as it renders, which only this page allows."""

    @extend_schema(exclude=True)  # a page, not an operation (as the view it extends)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy:
            styles = policy_directive(policy, "style-src")
            if styles is None:  # styles fall back to default-src
                styles = policy_directive(policy, "default-src") or "'self'"
            response["Content-Security-Policy"] = policy_with(
                policy, style_src=f"{styles} 'unsafe-inline'".strip()
            )
        return response
