"""Thin Celery tasks: ids in, one service call, explicit time limits."""

from __future__ import annotations

from celery import shared_task

from apps.campaigns.models import Campaign
from apps.campaigns.services.authority import campaign_refresh
from apps.domains.errors import DomainUnavailable

REREAD_RETRIES = 8


@shared_task(name="campaigns.campaign_reread", bind=True, max_retries=REREAD_RETRIES,
             time_limit=120, soft_time_limit=100, ignore_result=True)  # fmt: skip
def campaign_reread(self, campaign_id: str) -> None:
    """Read the campaign's revision and phase from its domain server again, as its owner: a
    publication that changed the phase could not read it. While the domain is unreachable,
    tried again with a growing delay (2 s, 4 s, ... up to a minute)."""
    campaign = Campaign.objects.select_related("owner").filter(pk=campaign_id).first()
    if campaign is None:
        return
    try:
        campaign_refresh(campaign=campaign, requester=campaign.owner)
    except DomainUnavailable as exc:  # a timeout too
        raise self.retry(exc=exc, countdown=min(60, 2 ** (self.request.retries + 1))) from exc
