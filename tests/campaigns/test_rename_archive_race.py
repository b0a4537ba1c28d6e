"""A campaign archived while its rules server renames it: the rules server has taken the new name,
so the site takes it too (the rename counts as done just before the archive) instead of keeping
the old one and telling the GM the name stayed when the rules server says otherwise."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services import campaigns
from apps.campaigns.services.campaigns import campaign_archive, campaign_rename
from apps.core.models import AuditEvent
from apps.projections.models import OutboxEvent
from tests.campaigns.conftest import domain_view

pytestmark = pytest.mark.django_db


def test_a_campaign_archived_while_the_rules_server_renames_it_takes_the_new_name(
    domains, campaign, gm, monkeypatch
):
    real = campaigns.authority_write

    def renamed_then_archived(**kwargs):
        result = real(**kwargs)
        campaign_archive(campaign=Campaign.objects.get(pk=campaign.pk), actor=gm)
        return result

    monkeypatch.setattr(campaigns, "authority_write", renamed_then_archived)

    renamed = campaign_rename(campaign=campaign, actor=gm, name="Rime of the Frostmaiden")

    stored = Campaign.objects.get(pk=campaign.pk)
    served = domain_view(campaign, gm).structured["campaign"]["name"]
    assert (renamed.name, stored.name, served) == ("Rime of the Frostmaiden",) * 3
    assert (stored.status, stored.name_revision) == ("archived", stored.authority_revision)
    assert list(
        AuditEvent.objects.filter(subject_id=str(campaign.id))
        .exclude(action="campaign.create")
        .order_by("id")
        .values_list("action", "details")
    ) == [
        ("campaign.archive", {}),
        ("campaign.rename", {"from": "The Sunless Citadel", "to": "Rime of the Frostmaiden"}),
    ]
    assert list(
        OutboxEvent.objects.filter(event_type="campaign.renamed").values_list(
            "payload__name", flat=True
        )
    ) == ["Rime of the Frostmaiden"]
