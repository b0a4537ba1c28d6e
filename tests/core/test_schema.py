"""The OpenAPI schema documents the §8 error envelope once and references it for the usual
error statuses of every operation."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from apps.core.errors import error_envelope

ERROR_REF = {"$ref": "#/components/schemas/ErrorEnvelope"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def error_statuses(operation):
    return sorted(
        status
        for status, response in operation["responses"].items()
        if response.get("content", {}).get("application/json", {}).get("schema") == ERROR_REF
    )


def test_the_envelope_is_one_component(schema):
    schemas = schema["components"]["schemas"]
    envelope = schemas["ErrorEnvelope"]
    assert envelope["required"] == ["error"]
    assert envelope["properties"]["error"] == {"$ref": "#/components/schemas/Error"}
    error = schemas["Error"]
    keys = set(error_envelope(code="x", message="x")["error"])
    assert set(error["properties"]) == keys
    assert sorted(error["required"]) == sorted(keys)
    assert error["properties"]["retryable"]["type"] == "boolean"
    assert error["properties"]["details"]["type"] == "object"


def test_every_signed_in_operation_documents_its_errors(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if {} in operation.get("security", []):
                continue
            statuses = error_statuses(operation)
            assert {"401", "403", "429"} <= set(statuses), (method, path)
            assert ("404" in statuses) == ("{" in path), (method, path)
            assert ("409" in statuses) == (method != "get"), (method, path)


@pytest.mark.parametrize(
    ("path", "method", "statuses"),
    [
        ("/api/campaigns/{campaign_id}/invites", "post",
         ["400", "401", "403", "404", "409", "413", "415", "429"]),
        ("/api/campaigns", "get", ["401", "403", "429"]),
        ("/api/usage/ledger", "get", ["400", "401", "403", "429"]),
        ("/api/campaigns/{campaign_id}/room/messages", "post",
         ["400", "401", "402", "403", "404", "409", "413", "415", "429", "502", "503"]),
        ("/api/campaigns/{campaign_id}/room/messages", "get",
         ["400", "401", "403", "404", "429"]),
        ("/api/campaigns/{campaign_id}/room/actions", "post",
         ["400", "401", "402", "403", "404", "409", "413", "415", "429", "502", "503"]),
        ("/api/campaigns/{campaign_id}/room/panel", "get",
         ["400", "401", "403", "404", "429", "502", "503"]),
        ("/api/campaigns/{campaign_id}/room/jobs", "get", ["401", "403", "404", "429"]),
        ("/api/health", "get", []),  # open to everyone and not throttled
    ],
)  # fmt: skip
def test_error_statuses_follow_what_an_operation_takes(schema, path, method, statuses):
    assert error_statuses(schema["paths"][path][method]) == statuses


def test_a_message_posted_as_an_action_answers_with_its_job(schema):
    responses = schema["paths"]["/api/campaigns/{campaign_id}/room/messages"]["post"]["responses"]
    job = {"$ref": "#/components/schemas/JobOutput"}
    assert responses["202"]["content"]["application/json"]["schema"] == job
    assert "text" in schema["components"]["schemas"]["JobOutput"]["required"]


def test_an_action_offers_only_the_audiences_it_takes(schema):
    action = schema["components"]["schemas"]["ActionInput"]["properties"]["audience"]
    ref = action["allOf"][0]["$ref"] if "allOf" in action else action["$ref"]
    assert schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"] == ["public", "gm"]


def test_429_names_retry_after(schema):
    throttled = schema["paths"]["/api/campaigns"]["get"]["responses"]["429"]
    assert throttled["headers"]["Retry-After"]["schema"] == {"type": "integer"}


def test_exactly_the_operations_that_wait_on_a_domain_server_list_502_and_503(schema):
    upstream = {
        (method, path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if {"502", "503"} <= set(error_statuses(operation))
    }
    assert upstream == {
        ("post", "/api/campaigns"),
        ("post", "/api/campaigns/{campaign_id}/characters"),
        ("put", "/api/campaigns/{campaign_id}/characters/{character_id}/bindings/{user_id}"),
        ("delete", "/api/campaigns/{campaign_id}/characters/{character_id}/bindings/{user_id}"),
        ("post", "/api/campaigns/{campaign_id}/join-requests/{join_request_id}/decision"),
        ("delete", "/api/campaigns/{campaign_id}/members/{user_id}"),
        ("patch", "/api/campaigns/{campaign_id}/members/{user_id}/role"),
        ("post", "/api/campaigns/{campaign_id}/room/actions"),
        ("post", "/api/campaigns/{campaign_id}/room/messages"),
        ("get", "/api/campaigns/{campaign_id}/room/panel"),
        ("post", "/api/invites/accept"),
    }


def test_the_schema_is_generated_without_a_warning_and_leaves_the_docs_page_out():
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]

    assert (GENERATOR_STATS._warn_cache, GENERATOR_STATS._error_cache) == ({}, {})
    assert [p for p in paths if p.startswith("/api/docs")] == []
