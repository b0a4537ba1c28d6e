"""Test-only endpoints that exercise the API conventions (mounted by tests, not by the site)."""

from django.http import Http404
from django.urls import include, path
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from apps.core.errors import QuotaExceeded
from apps.core.idempotency import idempotent_response


class EchoSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=10)


class EchoApi(APIView):
    def post(self, request):
        def handler():
            data = EchoSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            EchoApi.calls += 1
            return Response({"name": data.validated_data["name"], "call": EchoApi.calls}, 201)

        return idempotent_response(request=request, scope="test.echo", handler=handler)

    calls = 0


class SecretApi(APIView):
    """A response holding a secret shown once: the idempotency store keeps it withheld."""

    def post(self, request):
        def handler():
            SecretApi.calls += 1
            return Response({"id": SecretApi.calls, "secret": f"s3cret-{SecretApi.calls}"}, 201)

        return idempotent_response(
            request=request,
            scope="test.secret",
            handler=handler,
            stored_body=lambda body: {**body, "secret": None},
        )

    calls = 0


class MissingApi(APIView):
    """What get_object_or_404 raises when nothing matches."""

    def get(self, request):
        raise Http404("No IdempotencyRecord matches the given query.")


class QuotaApi(APIView):
    def post(self, request):
        raise QuotaExceeded("You have 0 credits left; this needs 1.")


class OpenApi(APIView):
    """Open to everyone, with the default authenticators (the site's own open endpoints opt
    out of authentication altogether)."""

    permission_classes = [AllowAny]

    def get(self, request):
        return Response({"signed_in": request.user.is_authenticated})


class BoomApi(APIView):
    def get(self, request):
        raise RuntimeError("boom")


class TightThrottle(UserRateThrottle):
    rate = "2/min"


class ThrottledApi(APIView):
    throttle_classes = [TightThrottle]

    def get(self, request):
        return Response({"ok": True})


urlpatterns = [
    path("api/test/echo", EchoApi.as_view()),
    path("api/test/quota", QuotaApi.as_view()),
    path("api/test/secret", SecretApi.as_view()),
    path("api/test/missing", MissingApi.as_view()),
    path("api/test/boom", BoomApi.as_view()),
    path("api/test/open", OpenApi.as_view()),
    path("api/test/throttled", ThrottledApi.as_view()),
    path("", include("sagasmith_web.urls")),
]
handler400 = "apps.core.exceptions.handler400"
handler404 = "apps.core.exceptions.handler404"
handler500 = "apps.core.exceptions.handler500"
