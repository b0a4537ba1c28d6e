import pytest

from apps.core.models import IdempotencyRecord
from tests.core import urls_for_tests

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.urls_for_tests")]

ENVELOPE_KEYS = {"code", "message", "retryable", "recovery", "details"}


def envelope(response, status):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == ENVELOPE_KEYS
    return body["error"]


@pytest.fixture
def signed_in(api_client, user):
    api_client.force_login(user)
    return api_client


def test_400_validation_lists_fields(signed_in):
    err = envelope(
        signed_in.post(
            "/api/test/echo", {"name": "x" * 11}, format="json", HTTP_IDEMPOTENCY_KEY="key-00001"
        ),
        400,
    )
    assert err["code"] == "invalid_request"
    assert err["details"] == {
        "fields": {"name": ["Ensure this field has no more than 10 characters."]}
    }
    assert err["recovery"] == ("Fix the fields named in details.fields and send the request again.")


def test_401_when_signed_out(api_client):
    response = api_client.post("/api/test/echo", {}, format="json")
    err = envelope(response, 401)
    assert (err["code"], err["message"], err["recovery"]) == (
        "not_authenticated",
        "Authentication credentials were not provided.",
        "Sign in, then try again.",
    )
    assert response.has_header("WWW-Authenticate") is False
    # Another scheme (or a bearer header without a token) is not mistaken for an API token.
    for auth in ("Basic dXNlcjpwdw==", "Bearer ", "Token abc"):
        err = envelope(api_client.get("/api/test/echo", HTTP_AUTHORIZATION=auth), 401)
        assert err["code"] == "not_authenticated"


TOKEN_NOT_ACCEPTED = {
    "code": "token_not_accepted_here",
    "message": "Personal API tokens are accepted only by the Saga MCP endpoint (/mcp/saga);"
    " the API uses your signed-in browser session.",
    "retryable": False,
    "recovery": "Call the API from a signed-in browser session, or send the token to /mcp/saga.",
    "details": {"token_endpoint": "/mcp/saga"},
}


def test_401_for_a_personal_api_token_says_where_tokens_work(api_client, user):
    from apps.accounts.services import api_token_create

    _token, raw = api_token_create(user=user, name="cli")
    for auth in (f"Bearer {raw}", f"bearer {raw}", "Bearer not-a-real-token"):
        response = api_client.get("/api/test/echo", HTTP_AUTHORIZATION=auth)
        assert envelope(response, 401) == TOKEN_NOT_ACCEPTED
        # The API has no bearer scheme to offer, so no challenge inviting a retry with it.
        assert response.has_header("WWW-Authenticate") is False
    # On a real endpoint too, and a write is refused before the idempotency key is looked at.
    assert envelope(api_client.get("/api/usage/balance", HTTP_AUTHORIZATION=f"Bearer {raw}"),
                    401) == TOKEN_NOT_ACCEPTED  # fmt: skip
    assert envelope(api_client.post("/api/test/echo", {"name": "a"}, format="json",
                                    HTTP_AUTHORIZATION=f"Bearer {raw}"),
                    401) == TOKEN_NOT_ACCEPTED  # fmt: skip
    assert IdempotencyRecord.objects.count() == 0


def test_an_endpoint_open_to_everyone_ignores_a_bearer_header(api_client):
    response = api_client.get("/api/test/open", HTTP_AUTHORIZATION="Bearer whatever")
    assert (response.status_code, response.json()) == (200, {"signed_in": False})


def test_a_signed_in_session_still_works_with_a_stray_bearer_header(signed_in):
    response = signed_in.post(
        "/api/test/echo", {"name": "a"}, format="json",
        HTTP_IDEMPOTENCY_KEY="key-00001", HTTP_AUTHORIZATION="Bearer whatever",
    )  # fmt: skip
    assert response.status_code == 201


def test_402_quota(signed_in):
    err = envelope(signed_in.post("/api/test/quota", {}, format="json"), 402)
    assert err == {
        "code": "quota_exceeded",
        "message": "You have 0 credits left; this needs 1.",
        "retryable": False,
        "recovery": "Ask staff for a quota grant or wait for your plan's next grant.",
        "details": {},
    }


def test_403_csrf_for_session_clients(user):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    err = envelope(
        client.post(
            "/api/test/echo", {"name": "a"}, format="json", HTTP_IDEMPOTENCY_KEY="key-00001"
        ),
        403,
    )
    assert err["code"] == "permission_denied"
    assert "CSRF" in err["message"]
    assert err["recovery"] == "Reload the page to get a fresh CSRF token, then try again."


def test_403_csrf_outside_drf_says_to_reload(user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    # Plain Django views under /api/ (here the JSON 404) are guarded by the CSRF middleware.
    err = envelope(client.post("/api/does-not-exist", {}), 403)
    assert (err["code"], err["recovery"]) == (
        "csrf_failed",
        "Reload the page to get a fresh CSRF token, then try again.",
    )


def test_404_from_a_lookup_says_what_to_check(signed_in):
    err = envelope(signed_in.get("/api/test/missing"), 404)
    assert (err["code"], err["message"]) == ("not_found", "Not found.")
    assert err["recovery"] == (
        "Check the id in the address; what it names may have been deleted, or you may not"
        " have access to it."
    )


def test_404_unknown_api_path(signed_in):
    err = envelope(signed_in.get("/api/does-not-exist"), 404)
    assert err["code"] == "not_found"
    assert err["recovery"] == "Check the address against the API documentation at /api/docs/."


def test_405_wrong_method(signed_in):
    err = envelope(signed_in.delete("/api/test/echo"), 405)
    assert err["code"] == "method_not_allowed"


def test_500_unexpected(signed_in):
    signed_in.raise_request_exception = False
    err = envelope(signed_in.get("/api/test/boom"), 500)
    assert err["code"] == "internal"
    assert err["retryable"] is True
    assert "boom" not in err["message"]


def test_request_id_on_every_response(signed_in):
    response = signed_in.get("/api/health")
    assert len(response["X-Request-ID"]) == 32
    echoed = signed_in.get("/api/health", HTTP_X_REQUEST_ID="client-req-123")
    assert echoed["X-Request-ID"] == "client-req-123"
    assert signed_in.get("/api/nope")["X-Request-ID"]


def test_idempotent_replay_and_conflict(signed_in):
    urls_for_tests.EchoApi.calls = 0
    first = signed_in.post(
        "/api/test/echo", {"name": "ash"}, format="json", HTTP_IDEMPOTENCY_KEY="same-key-1"
    )
    again = signed_in.post(
        "/api/test/echo", {"name": "ash"}, format="json", HTTP_IDEMPOTENCY_KEY="same-key-1"
    )
    assert first.status_code == 201
    assert again.status_code == 201
    assert again.json() == first.json() == {"name": "ash", "call": 1}
    assert again["Idempotent-Replay"] == "true"
    assert urls_for_tests.EchoApi.calls == 1

    err = envelope(
        signed_in.post(
            "/api/test/echo", {"name": "briar"}, format="json", HTTP_IDEMPOTENCY_KEY="same-key-1"
        ),
        409,
    )
    assert err["code"] == "idempotency_conflict"
    assert urls_for_tests.EchoApi.calls == 1
    assert IdempotencyRecord.objects.count() == 1


def test_a_replay_returns_the_stored_body_without_the_secret(signed_in):
    urls_for_tests.SecretApi.calls = 0

    def post():
        return signed_in.post(
            "/api/test/secret", {}, format="json", HTTP_IDEMPOTENCY_KEY="secret-key-1"
        )

    first = post()
    assert (first.status_code, first.json()) == (201, {"id": 1, "secret": "s3cret-1"})
    record = IdempotencyRecord.objects.get()
    assert (record.status_code, record.response_body) == (201, {"id": 1, "secret": None})
    again = post()
    assert (again.status_code, again.json(), again["Idempotent-Replay"]) == (
        201,
        {"id": 1, "secret": None},
        "true",
    )
    assert urls_for_tests.SecretApi.calls == 1


def test_idempotency_key_required_and_bounded(signed_in):
    assert envelope(signed_in.post("/api/test/echo", {"name": "a"}, format="json"), 400) == {
        "code": "idempotency_key_required",
        "message": "The Idempotency-Key header is required for this request.",
        "retryable": False,
        "recovery": "Send a unique Idempotency-Key header (8 to 160 characters).",
        "details": {"header": "Idempotency-Key"},
    }
    # The header is not a form field: the message and recovery talk about the header.
    for key in ("short", "k" * 7, "k" * 161, "k" * 200):
        err = envelope(
            signed_in.post("/api/test/echo", {"name": "a"}, format="json",
                           HTTP_IDEMPOTENCY_KEY=key),
            400,
        )  # fmt: skip
        assert err == {
            "code": "idempotency_key_invalid",
            "message": "The Idempotency-Key header must be 8 to 160 characters.",
            "retryable": False,
            "recovery": "Send a unique key of 8 to 160 characters with each new request;"
            " reuse it only to retry the same request.",
            "details": {"header": "Idempotency-Key"},
        }
    for key in ("k" * 8, "k" * 160):
        response = signed_in.post(
            "/api/test/echo", {"name": "a"}, format="json", HTTP_IDEMPOTENCY_KEY=key
        )
        assert response.status_code == 201
    assert IdempotencyRecord.objects.count() == 2


def test_idempotency_key_with_a_control_character_names_the_header(rf, user):
    from apps.core.errors import ValidationFailed
    from apps.core.idempotency import idempotency_key_from

    request = rf.post("/api/test/echo", HTTP_IDEMPOTENCY_KEY="key-0000\x07")
    with pytest.raises(ValidationFailed) as caught:
        idempotency_key_from(request)
    assert caught.value.as_envelope()["error"] == {
        "code": "idempotency_key_invalid",
        "message": "The Idempotency-Key header must contain only printable characters.",
        "retryable": False,
        "recovery": "Send a unique key of 8 to 160 characters with each new request;"
        " reuse it only to retry the same request.",
        "details": {"header": "Idempotency-Key"},
    }


def test_failed_request_does_not_burn_the_key(signed_in):
    urls_for_tests.EchoApi.calls = 0
    bad = signed_in.post(
        "/api/test/echo", {"name": "x" * 20}, format="json", HTTP_IDEMPOTENCY_KEY="retry-key-1"
    )
    assert bad.status_code == 400
    assert IdempotencyRecord.objects.count() == 0


def test_unfinished_idempotency_record_is_taken_over_once_abandoned(signed_in):
    from datetime import timedelta

    from django.utils import timezone

    from apps.core.idempotency import IN_PROGRESS_ABANDONED_AFTER

    urls_for_tests.EchoApi.calls = 0

    def echo():
        return signed_in.post(
            "/api/test/echo", {"name": "ash"}, format="json", HTTP_IDEMPOTENCY_KEY="dead-key-1"
        )

    assert echo().status_code == 201
    # The process died after the record committed and before the handler's result was stored.
    IdempotencyRecord.objects.update(status_code=None, response_body=None)
    err = envelope(echo(), 409)  # younger than the bound: the first attempt may still run
    assert (err["code"], err["retryable"]) == ("idempotency_in_progress", True)
    assert urls_for_tests.EchoApi.calls == 1

    stale = timezone.now() - IN_PROGRESS_ABANDONED_AFTER - timedelta(seconds=1)
    IdempotencyRecord.objects.update(updated_at=stale)
    retry = echo()
    assert (retry.status_code, retry.json()) == (201, {"name": "ash", "call": 2})
    assert retry.has_header("Idempotent-Replay") is False
    record = IdempotencyRecord.objects.get()
    assert (record.status_code, record.response_body) == (201, {"name": "ash", "call": 2})
    replay = echo()
    assert (replay.status_code, replay.json(), replay["Idempotent-Replay"]) == (
        201,
        {"name": "ash", "call": 2},
        "true",
    )
    assert urls_for_tests.EchoApi.calls == 2


def test_idempotency_take_over_lets_one_retry_win(user):
    from datetime import timedelta

    from django.utils import timezone

    from apps.core.idempotency import IN_PROGRESS_ABANDONED_AFTER, idempotency_record_take_over

    record = IdempotencyRecord.objects.create(
        user=user, scope="test.echo", key="dead-key-2", request_hash="0" * 64
    )
    stale = timezone.now() - IN_PROGRESS_ABANDONED_AFTER - timedelta(seconds=1)
    IdempotencyRecord.objects.filter(pk=record.pk).update(updated_at=stale)
    first, second = IdempotencyRecord.objects.get(), IdempotencyRecord.objects.get()
    assert idempotency_record_take_over(record=first) is True
    assert idempotency_record_take_over(record=second) is False
    assert IdempotencyRecord.objects.get().updated_at == first.updated_at > stale


def test_idempotency_is_per_user(api_client, make_user):
    urls_for_tests.EchoApi.calls = 0
    for u in (make_user(), make_user()):
        api_client.force_login(u)
        response = api_client.post(
            "/api/test/echo", {"name": "a"}, format="json", HTTP_IDEMPOTENCY_KEY="shared-key"
        )
        assert response.status_code == 201
    assert urls_for_tests.EchoApi.calls == 2


def test_throttle_429_with_retry_after(signed_in):
    assert signed_in.get("/api/test/throttled").status_code == 200
    assert signed_in.get("/api/test/throttled").status_code == 200
    response = signed_in.get("/api/test/throttled")
    err = envelope(response, 429)
    assert err["code"] == "throttled"
    assert err["retryable"] is True
    assert 1 <= int(response["Retry-After"]) <= 60
    assert err["details"] == {"retry_after": int(response["Retry-After"])}


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/health" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    # Its scripts come from this site's static files: the page works without a CDN.
    html = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn." not in html and "//unpkg" not in html


def test_400_for_json_nested_too_deeply(signed_in):
    body = "[" * 5000 + "]" * 5000
    err = envelope(
        signed_in.post("/api/test/echo", body, content_type="application/json",
                       HTTP_IDEMPOTENCY_KEY="key-00001"),
        400,
    )  # fmt: skip
    assert (err["code"], err["message"]) == (
        "invalid_request",
        "JSON parse error - the body is nested too deeply.",
    )


def test_413_for_a_body_over_the_upload_limit(signed_in, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    err = envelope(
        signed_in.post("/api/test/echo", {"name": "x" * 2000}, format="json",
                       HTTP_IDEMPOTENCY_KEY="key-00001"),
        413,
    )  # fmt: skip
    assert err == {
        "code": "payload_too_large",
        "message": "The request body is too large.",
        "retryable": False,
        "recovery": "Send a smaller request.",
        "details": {},
    }


def test_400_for_too_many_query_parameters(signed_in):
    query = "&".join(f"x{i}=1" for i in range(1200))
    err = envelope(signed_in.get(f"/api/test/echo?{query}"), 400)
    assert (err["code"], err["message"]) == ("invalid_request", "The request is malformed.")


def test_a_format_query_parameter_is_ignored(signed_in):
    response = signed_in.post(
        "/api/test/echo?format=xml", {"name": "a"}, format="json",
        HTTP_IDEMPOTENCY_KEY="key-00001",
    )  # fmt: skip
    assert (response.status_code, response.json()["name"]) == (201, "a")


def test_400_envelope_for_a_host_not_allowed(signed_in, settings):
    settings.ALLOWED_HOSTS = ["play.example.com"]
    err = envelope(signed_in.get("/api/test/echo", HTTP_HOST="evil.example"), 400)
    assert err["code"] == "invalid_request"


def test_an_unknown_api_path_is_the_json_404_with_debug_on_too(signed_in, settings):
    settings.DEBUG = True
    for path in ("/api/does-not-exist", "/api/campaigns/not-a-uuid", "/api/campaigns/"):
        err = envelope(signed_in.get(path), 404)
        assert err["code"] == "not_found"
    for page in ("/api/docs", "/api/schema"):
        response = signed_in.get(page)
        assert (response.status_code, response["Location"]) == (301, f"{page}/")


def test_a_form_only_address_opened_as_a_page_says_so(client, user):
    client.force_login(user)
    response = client.get("/account/sessions/end-others")
    assert (response.status_code, response["Allow"]) == (405, "POST")
    page = response.content.decode()
    assert "This address only takes a submitted form" in page
    assert "Sign out" in page  # the signed-in navigation
    assert (response["X-Frame-Options"], response["X-Content-Type-Options"]) == ("DENY", "nosniff")


def test_a_page_asked_with_a_trailing_slash_it_does_not_take_is_sent_to_its_address(client, user):
    """APPEND_SLASH adds a missing slash; the other way round was a 404 ("/campaigns/new/")."""
    client.force_login(user)
    moved = client.get("/campaigns/new/?system=dnd5e")
    assert (moved.status_code, moved["Location"]) == (301, "/campaigns/new?system=dnd5e")
    assert client.get(moved["Location"]).status_code == 200
    # Only what exists moves; a form is never redirected (its body would be lost); the API
    # answers as it does.
    assert client.get("/campaigns/nothing-here/").status_code == 404
    assert client.post("/campaigns/new/", {}).status_code == 404
    assert client.get("/api/usage/balance/").status_code == 404

    # A path that starts "//" would, without its slash, send the browser to another site.
    from django.test import RequestFactory

    from apps.core.middleware import _without_trailing_slash

    request = RequestFactory().get("/campaigns/new/")
    assert _without_trailing_slash(request) == "/campaigns/new"
    request.path = request.path_info = "//campaigns/new/"
    assert _without_trailing_slash(request) is None
