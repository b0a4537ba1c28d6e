"""PATCH /api/campaigns/{id} renames the campaign, with the API's error envelope for refusals."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services.campaigns import campaign_archive
from apps.campaigns.services.membership import membership_change_role
from apps.core.models import AuditEvent
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

FIX_FIELDS = "Fix the fields named in details.fields and send the request again."


def _url(campaign) -> str:
    return f"/api/campaigns/{campaign.id}"


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def _unchanged(campaign) -> None:
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


def test_the_owner_renames_the_campaign_and_gets_it_back(domains, api_client, campaign, gm):
    api_client.force_authenticate(gm)

    response = api_client.patch(_url(campaign), {"name": " Tomb of Annihilation "}, format="json")

    assert response.status_code == 200
    campaign.refresh_from_db()
    assert campaign.name == "Tomb of Annihilation"
    assert response.json() == {
        "id": str(campaign.id),
        "name": "Tomb of Annihilation",
        "system_id": "dnd5e",
        "status": "active",
        "phase": campaign.phase,
        "owner_id": str(gm.id),
        "authority_revision": campaign.authority_revision,
        "created_at": campaign.created_at.isoformat().replace("+00:00", "Z"),
        "role": "owner",
    }
    assert api_client.get(_url(campaign)).json()["name"] == "Tomb of Annihilation"
    assert list(
        AuditEvent.objects.filter(action="campaign.rename").values_list("actor_id", "details")
    ) == [(gm.id, {"from": "The Sunless Citadel", "to": "Tomb of Annihilation"})]


def test_a_gm_who_is_not_the_owner_renames_it(domains, api_client, campaign, gm, make_user):
    co_gm = make_user("gwen@example.test", display_name="Gwen GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    api_client.force_authenticate(co_gm)

    response = api_client.patch(_url(campaign), {"name": "Out of the Abyss"}, format="json")

    assert response.status_code == 200
    assert (response.json()["name"], response.json()["role"]) == ("Out of the Abyss", "gm")
    assert Campaign.objects.get(pk=campaign.pk).name == "Out of the Abyss"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        pytest.param({"name": "   "}, {"name": ["This field may not be blank."]}, id="blank"),
        pytest.param(
            {"name": "W" * 121},
            {"name": ["Ensure this field has no more than 120 characters."]},
            id="too-long",
        ),
        pytest.param({}, {"name": ["This field is required."]}, id="missing"),
        pytest.param({"name": None}, {"name": ["This field may not be null."]}, id="null"),
        pytest.param(
            {"name": "Fine", "status": "archived"}, {"status": ["Unknown field."]}, id="unknown"
        ),
    ],
)
def test_an_invalid_body_names_the_field_and_changes_nothing(
    domains, api_client, campaign, gm, body, fields
):
    api_client.force_authenticate(gm)

    assert _error(api_client.patch(_url(campaign), body, format="json"), 400) == {
        "code": "invalid_request",
        "message": "The request has invalid fields.",
        "retryable": False,
        "recovery": FIX_FIELDS,
        "details": {"fields": fields},
    }
    _unchanged(campaign)


def test_a_name_of_invisible_characters_is_refused_as_at_creation(
    domains, api_client, campaign, gm
):
    api_client.force_authenticate(gm)

    response = api_client.patch(_url(campaign), {"name": "\u200b\u2060"}, format="json")

    assert _error(response, 400) == {
        "code": "invalid_request",
        "message": "A campaign name needs a visible character.",
        "retryable": False,
        "recovery": "Correct the highlighted fields and try again.",
        "details": {"fields": {"name": ["Enter a name that shows."]}},
    }
    _unchanged(campaign)


@pytest.mark.parametrize("role", ["player", "observer"])
def test_a_member_who_is_not_a_gm_is_refused_whatever_the_body(
    domains, api_client, campaign, gm, player, role
):
    join(campaign, gm, player, role=role)
    api_client.force_authenticate(player)

    for body in ({"name": "Mine now"}, {"name": ""}, {"bogus": 1}):
        assert _error(api_client.patch(_url(campaign), body, format="json"), 403) == {
            "code": "permission_denied",
            "message": "Only the campaign owner or a GM can do that.",
            "retryable": False,
            "recovery": "Ask the campaign owner or a GM.",
            "details": {},
        }
    _unchanged(campaign)


def test_someone_outside_the_campaign_is_told_it_is_not_found(
    domains, api_client, campaign, make_user
):
    api_client.force_authenticate(make_user("sam@example.test"))

    response = api_client.patch(_url(campaign), {"name": "Mine now"}, format="json")

    assert _error(response, 404)["code"] == "campaign_not_found"
    _unchanged(campaign)


def test_signed_out_is_401(domains, api_client, campaign):
    response = api_client.patch(_url(campaign), {"name": "Mine now"}, format="json")

    assert _error(response, 401)["code"] == "not_authenticated"
    _unchanged(campaign)


def test_an_archived_campaign_keeps_its_name(domains, api_client, campaign, gm):
    campaign_archive(campaign=campaign, actor=gm)
    api_client.force_authenticate(gm)

    response = api_client.patch(_url(campaign), {"name": "Rime of the Frostmaiden"}, format="json")

    assert _error(response, 409) == {
        "code": "campaign_archived",
        "message": "This campaign is archived.",
        "retryable": False,
        "recovery": "Archived campaigns are read-only until the owner restores them in the "
        "settings.",
        "details": {},
    }
    _unchanged(campaign)


def test_the_schema_documents_the_rename(domains):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    patch = schema["paths"]["/api/campaigns/{campaign_id}"]["patch"]
    body = patch["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/CampaignNameInput"}
    name_input = schema["components"]["schemas"]["CampaignNameInput"]
    assert name_input["required"] == ["name"]
    assert name_input["properties"]["name"]["maxLength"] == 120
    ok = patch["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/MyCampaignOutput"}
