"""Two renames that overlap: the rules server applies them in one order, and the site keeps the
name of the later one there, whichever of the two commits last here, so the two never disagree."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services import campaigns
from apps.campaigns.services.campaigns import campaign_rename
from tests.campaigns.conftest import domain_view

pytestmark = pytest.mark.django_db


def test_the_earlier_rename_committing_last_does_not_undo_the_later_one(
    domains, campaign, gm, monkeypatch
):
    real = campaigns.authority_write
    overtaken = []

    def write_then_overtaken(**kwargs):
        result = real(**kwargs)
        if not overtaken:
            overtaken.append(True)
            # A second rename (another tab, another GM) reaches the rules server after this
            # one and commits here before this one does.
            campaign_rename(campaign=campaign, actor=gm, name="Second")
        return result

    monkeypatch.setattr(campaigns, "authority_write", write_then_overtaken)
    campaign_rename(campaign=campaign, actor=gm, name="First")

    served = domain_view(campaign, gm).structured["campaign"]["name"]
    assert (Campaign.objects.get(pk=campaign.pk).name, served) == ("Second", "Second")
