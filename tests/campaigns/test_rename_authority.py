"""Renaming a campaign renames it on its rules server first: campaign_get (what a game master
reads) names it as the web app does, and a refusal there leaves the old name everywhere."""

from __future__ import annotations

import pytest
from django.db import connection

from apps.campaigns.models import Campaign
from apps.campaigns.services import authority
from apps.campaigns.services.campaigns import campaign_rename
from apps.core.models import AuditEvent
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from tests.campaigns.conftest import domain_view

pytestmark = pytest.mark.django_db


def _domain_name(campaign, requester) -> str:
    return domain_view(campaign, requester).structured["campaign"]["name"]


def test_the_rules_server_names_the_campaign_by_its_new_name(domains, campaign, gm):
    before = campaign.authority_revision

    renamed = campaign_rename(campaign=campaign, actor=gm, name="  Tomb of Annihilation ")

    assert _domain_name(campaign, gm) == "Tomb of Annihilation"
    stored = Campaign.objects.get(pk=campaign.pk)
    assert (stored.name, stored.authority_revision) == ("Tomb of Annihilation", before + 1)
    receipt = stored.authority_receipt
    assert (receipt["previous_revision"], receipt["changed_scopes"], receipt["entity_ids"]) == (
        before,
        ["campaign"],
        [str(campaign.id)],
    )
    assert (renamed.name, renamed.authority_revision) == ("Tomb of Annihilation", before + 1)


def test_a_rename_after_a_write_the_projection_missed_still_reaches_the_rules_server(
    domains, campaign, gm
):
    # A roll the projection has not heard of yet: the rename's revision is stale once.
    domain_call(
        system_id="dnd5e",
        tool="dice_roll",
        arguments={
            "expression": "1d6",
            "expected_revision": campaign.authority_revision,
            "idempotency_key": "unseen-roll",
        },
        requester=gm,
        campaign_id=str(campaign.id),
    )

    campaign_rename(campaign=campaign, actor=gm, name="Out of the Abyss")

    assert _domain_name(campaign, gm) == "Out of the Abyss"
    stored = Campaign.objects.get(pk=campaign.pk)
    assert (stored.name, stored.authority_revision) == ("Out of the Abyss", 3)


def test_a_rules_server_refusal_leaves_the_old_name_everywhere(domains, campaign, gm, monkeypatch):
    real = authority.domain_call

    def refused(**kwargs):
        if kwargs["tool"] == "campaign_rename":
            raise DomainError(
                "the rules server said no", domain_code="invalid_request", system_id="dnd5e",
                tool="campaign_rename", retryable=False, recovery="fix the arguments and retry",
            )  # fmt: skip
        return real(**kwargs)

    monkeypatch.setattr(authority, "domain_call", refused)
    before = Campaign.objects.get(pk=campaign.pk)

    with pytest.raises(DomainError) as caught:
        campaign_rename(campaign=campaign, actor=gm, name="Rime of the Frostmaiden")

    assert (caught.value.domain_code, caught.value.message) == (
        "invalid_request",
        "the rules server said no",
    )
    after = Campaign.objects.get(pk=campaign.pk)
    assert (after.name, after.authority_revision, after.updated_at) == (
        "The Sunless Citadel",
        before.authority_revision,
        before.updated_at,
    )
    assert _domain_name(campaign, gm) == "The Sunless Citadel"
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


def test_the_same_name_again_does_not_call_the_rules_server(domains, campaign, gm, monkeypatch):
    calls = []
    monkeypatch.setattr(authority, "domain_call", lambda **kw: calls.append(kw))

    campaign_rename(campaign=campaign, actor=gm, name="The Sunless Citadel")

    assert calls == []


@pytest.mark.django_db(transaction=True)
def test_no_transaction_is_open_while_the_rules_server_renames(domains, campaign, gm, monkeypatch):
    real = authority.domain_call
    atomic_during_call = []

    def watched(**kwargs):
        atomic_during_call.append((kwargs["tool"], connection.in_atomic_block))
        return real(**kwargs)

    monkeypatch.setattr(authority, "domain_call", watched)

    campaign_rename(campaign=campaign, actor=gm, name="Storm King's Thunder")

    assert atomic_during_call == [("campaign_rename", False)]
    assert Campaign.objects.get(pk=campaign.pk).name == "Storm King's Thunder"
