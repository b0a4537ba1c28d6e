"""The OpenAPI schema says what the campaign endpoints take and return."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from apps.domains.plugins.dnd5e import Dnd5eCharacterForm
from apps.domains.plugins.narrative import NarrativeCharacterForm

C = "/api/campaigns/{campaign_id}"


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def component(schema, ref_holder):
    name = ref_holder["$ref"].rsplit("/", 1)[1]
    return schema["components"]["schemas"][name]


def body_schema(operation, status):
    return operation["responses"][status]["content"]["application/json"]["schema"]


def header(operation, name):
    found = [p for p in operation.get("parameters", []) if (p["in"], p["name"]) == ("header", name)]
    return found[0] if found else None


@pytest.mark.parametrize(
    ("path", "required"),
    [
        ("/api/campaigns", True),
        (f"{C}/characters", False),
        (f"{C}/invites", False),
        (f"{C}/room/messages", True),
        (f"{C}/room/actions", True),
    ],
)
def test_idempotency_key_is_documented_where_it_is_read(schema, path, required):
    key = header(schema["paths"][path]["post"], "Idempotency-Key")
    assert key is not None
    assert key.get("required", False) is required
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (8, 160)


def test_my_campaigns_are_flat_campaigns_with_a_role(schema):
    listed = body_schema(schema["paths"]["/api/campaigns"]["get"], "200")
    assert listed["type"] == "array"
    item = component(schema, listed["items"])
    assert "campaign" not in item["properties"]
    assert {"id", "name", "system_id", "role"} <= set(item["properties"])
    assert "role" in item["required"]
    # The other campaign answers carry the role too.
    for path, method, status in [
        ("/api/campaigns", "post", "201"),
        (C, "get", "200"),
        (f"{C}/archive", "post", "200"),
        (f"{C}/restore", "post", "200"),
    ]:
        assert body_schema(schema["paths"][path][method], status) == listed["items"]


@pytest.mark.parametrize(
    ("path", "output"),
    [
        (f"{C}/invites/{{invite_id}}", "InviteOutput"),
        (f"{C}/members/{{user_id}}", "MemberOutput"),
        (f"{C}/characters/{{character_id}}/bindings/{{user_id}}", "BindingOutput"),
    ],
)
def test_deletes_document_their_200_body(schema, path, output):
    responses = schema["paths"][path]["delete"]["responses"]
    assert "204" not in responses
    assert body_schema(schema["paths"][path]["delete"], "200") == {
        "$ref": f"#/components/schemas/{output}"
    }


def test_character_body_is_one_of_the_systems_forms(schema):
    operation = schema["paths"][f"{C}/characters"]["post"]
    proxy = component(schema, operation["requestBody"]["content"]["application/json"]["schema"])
    variants = {ref["$ref"].rsplit("/", 1)[1]: component(schema, ref) for ref in proxy["oneOf"]}
    assert set(variants) == {"Dnd5eCharacterInput", "NarrativeCharacterInput"}
    # The documented fields are the forms' fields, and required where the form requires them.
    for name, form in [
        ("Dnd5eCharacterInput", Dnd5eCharacterForm()),
        ("NarrativeCharacterInput", NarrativeCharacterForm()),
    ]:
        assert set(variants[name]["properties"]) == set(form.fields), name
        assert variants[name]["required"] == sorted(n for n, f in form.fields.items() if f.required)
    tags = variants["NarrativeCharacterInput"]["properties"]["tags"]
    assert [variant["type"] for variant in tags["oneOf"]] == ["string", "array"]
    assert tags["oneOf"][1]["items"]["type"] == "string"


def test_role_change_requires_the_role(schema):
    operation = schema["paths"][f"{C}/members/{{user_id}}/role"]["patch"]
    body = operation["requestBody"]
    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RoleInput"
    }
    assert component(schema, body["content"]["application/json"]["schema"])["required"] == ["role"]
    assert "PatchedRoleInput" not in schema["components"]["schemas"]


def test_join_request_status_filter_is_documented(schema):
    parameters = schema["paths"][f"{C}/join-requests"]["get"]["parameters"]
    status = next(p for p in parameters if (p["in"], p["name"]) == ("query", "status"))
    assert status.get("required", False) is False
    assert sorted(status["schema"]["enum"]) == ["approved", "pending", "rejected"]


def test_invite_created_says_the_link_may_be_withheld(schema):
    created = component(schema, body_schema(schema["paths"][f"{C}/invites"]["post"], "201"))
    assert created["properties"]["token"]["nullable"] is True
    assert created["properties"]["url"]["nullable"] is True
    assert "message" in created["properties"]
    assert "message" not in created["required"]
