"""Campaign create/list/detail/archive against a live dnd5e server."""

from __future__ import annotations

import re

import pytest

from apps.campaigns.models import Campaign, CampaignMembership
from apps.campaigns.services.campaigns import campaign_create
from apps.core.models import AuditEvent, IdempotencyRecord
from tests.campaigns.conftest import domain_members, domain_view, join

pytestmark = pytest.mark.django_db


def test_create_via_api_stores_projection_and_replays(domains, api_client, gm):
    api_client.force_authenticate(gm)
    body = {"name": "Lost Mine", "system_id": "dnd5e"}
    first = api_client.post("/api/campaigns", body, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    assert first.status_code == 201, first.json()
    data = first.json()
    campaign = Campaign.objects.get()
    assert data["id"] == str(campaign.id)
    assert data["role"] == "owner"
    assert campaign.name == "Lost Mine"
    assert campaign.owner == gm
    assert campaign.phase == "lobby"
    assert campaign.authority_revision == 1
    assert campaign.authority_receipt["authority_revision"] == 1
    assert campaign.authority_receipt["previous_revision"] == 0
    assert campaign.authority_receipt["changed_scopes"] == ["campaign", "membership", "phase"]
    assert list(campaign.memberships.values_list("user__email", "role", "status")) == [
        ("gm@example.test", "owner", "active")
    ]
    # The domain server is the authority: it knows the requester as the owner.
    assert domain_members(campaign, gm) == {f"user:{gm.pk}": "owner"}

    again = api_client.post("/api/campaigns", body, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    assert again.status_code == 201
    assert again["Idempotent-Replay"] == "true"
    assert again.json() == data
    assert Campaign.objects.count() == 1
    assert AuditEvent.objects.filter(action="campaign.create").count() == 1


def test_retry_after_lost_response_reaches_same_domain_campaign(domains, gm):
    # The API record is gone (say the worker crashed after the domain committed): the derived
    # domain key replays, so the same campaign comes back, never a second one.
    first = campaign_create(owner=gm, name="Keep", system_id="dnd5e", idempotency_key="k-123456")
    Campaign.objects.all().delete()
    second = campaign_create(owner=gm, name="Keep", system_id="dnd5e", idempotency_key="k-123456")
    assert second.id == first.id
    assert second.authority_revision == 1
    assert domain_view(second, gm).structured["authority_revision"] == 1


def test_random_seed_is_secret_keyed_and_stable_across_retries(domains, gm, monkeypatch, settings):
    from apps.campaigns.services import campaigns as service
    from domain_servers.common.random_stream import derive_seed, seed_fingerprint

    sent = []
    real_call = service.domain_call

    def spy(**kwargs):
        sent.append(kwargs["arguments"].get("random_seed"))
        return real_call(**kwargs)

    monkeypatch.setattr(service, "domain_call", spy)
    first = campaign_create(owner=gm, name="Dice", system_id="dnd5e", idempotency_key="seed-1")
    Campaign.objects.all().delete()
    second = campaign_create(owner=gm, name="Dice", system_id="dnd5e", idempotency_key="seed-1")
    # The retry sent the very same request, so the domain replayed instead of conflicting.
    assert (second.id, second.authority_revision) == (first.id, 1)
    seed = sent[0]
    assert sent == [seed, seed]
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    # Not the public derivation from the campaign id that any member knows.
    public = derive_seed("dnd5e", str(first.id))
    assert seed != public
    stream = domain_view(second, gm).structured["campaign"]["random_stream"]
    assert stream["seed_fingerprint"] == seed_fingerprint(seed)
    assert stream["seed_fingerprint"] != seed_fingerprint(public)
    # Keyed by the server secret: another deployment's seeds differ.
    settings.SECRET_KEY = "another-deployment-secret"  # noqa: S105
    assert service.campaign_random_seed(campaign_id=first.id) != seed


def test_create_requires_key_and_known_system(domains, api_client, gm):
    api_client.force_authenticate(gm)
    no_key = api_client.post("/api/campaigns", {"name": "X", "system_id": "dnd5e"}, format="json")
    assert no_key.status_code == 400
    assert no_key.json()["error"]["code"] == "idempotency_key_required"
    unknown = api_client.post(
        "/api/campaigns", {"name": "X", "system_id": "gurps"}, format="json",
        HTTP_IDEMPOTENCY_KEY="create-2",
    )  # fmt: skip
    assert unknown.status_code == 400
    assert unknown.json()["error"]["details"] == {
        "fields": {"system_id": ["Unknown game system gurps."]}
    }
    assert Campaign.objects.count() == 0
    assert IdempotencyRecord.objects.count() == 0


def test_create_when_domain_down_stores_nothing(domains, api_client, gm, settings):
    from tests.domains.conftest import domains_setting

    settings.SAGASMITH_DOMAINS = domains_setting("http://127.0.0.1:9/mcp", timeout=2)
    api_client.force_authenticate(gm)
    response = api_client.post(
        "/api/campaigns", {"name": "X", "system_id": "dnd5e"}, format="json",
        HTTP_IDEMPOTENCY_KEY="create-3",
    )  # fmt: skip
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "domain_unavailable"
    assert error["retryable"] is True
    # No internal address, no system id.
    assert error["message"] == "The D&D 5e (SRD 5.1) rules server is unavailable."
    assert Campaign.objects.count() == 0
    assert CampaignMembership.objects.count() == 0
    assert IdempotencyRecord.objects.count() == 0


def test_list_detail_and_404_for_outsiders(domains, api_client, campaign, gm, player, make_user):
    api_client.force_authenticate(gm)
    listed = api_client.get("/api/campaigns").json()
    assert [(c["id"], c["role"]) for c in listed] == [(str(campaign.id), "owner")]
    detail = api_client.get(f"/api/campaigns/{campaign.id}")
    assert detail.status_code == 200
    assert detail.json()["system_id"] == "dnd5e"
    # The last write's receipt (its audience, entities and idempotency key) is not for members.
    assert sorted(detail.json()) == [
        "authority_revision", "created_at", "id", "name", "owner_id", "phase", "role",
        "status", "system_id",
    ]  # fmt: skip

    api_client.force_authenticate(make_user("stranger@example.test"))
    assert api_client.get("/api/campaigns").json() == []
    hidden = api_client.get(f"/api/campaigns/{campaign.id}")
    assert hidden.status_code == 404
    assert hidden.json()["error"]["code"] == "campaign_not_found"


def test_archive_is_owner_only(domains, api_client, campaign, gm, player):
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    denied = api_client.post(f"/api/campaigns/{campaign.id}/archive")
    assert denied.status_code == 403
    campaign.refresh_from_db()
    assert campaign.status == "active"

    api_client.force_authenticate(gm)
    done = api_client.post(f"/api/campaigns/{campaign.id}/archive")
    assert done.status_code == 200
    assert done.json()["status"] == "archived"
    again = api_client.post(f"/api/campaigns/{campaign.id}/archive")
    assert again.status_code == 200
    assert AuditEvent.objects.filter(action="campaign.archive").count() == 1
    # Archived campaigns take no new invites.
    invite = api_client.post(
        f"/api/campaigns/{campaign.id}/invites",
        {"mode": "request", "expires_in_hours": 1, "max_uses": 1}, format="json",
    )  # fmt: skip
    assert invite.status_code == 409
    assert invite.json()["error"]["code"] == "campaign_archived"
