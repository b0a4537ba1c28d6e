"""Record every bound character's controller as its domain server names it."""

import uuid

from django.core.management.base import BaseCommand, CommandError

from apps.campaigns.models import Campaign
from apps.campaigns.services.characters import controls_reconcile
from apps.core.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Read each bound character's controller from its domain server and make the bindings' "
        "control follow it (for bindings made before control was recorded)."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign_ids", nargs="*", help="Only these campaigns (default: all)")

    def handle(self, *args, campaign_ids, **options):
        campaigns = Campaign.objects.select_related("owner").order_by("created_at")
        for campaign_id in campaign_ids:
            try:
                uuid.UUID(campaign_id)
            except ValueError:
                raise CommandError(f"Not a campaign id: {campaign_id}") from None
        if campaign_ids:
            campaigns = campaigns.filter(pk__in=campaign_ids)
        failed = 0
        for campaign in campaigns.filter(bindings__isnull=False).distinct():
            try:
                read, changed = controls_reconcile(campaign=campaign)
            except ApplicationError as exc:
                failed += 1
                self.stderr.write(f"{campaign.id} {campaign.name}: {exc.message}")
                continue
            self.stdout.write(
                f"{campaign.id} {campaign.name}: {read} characters read, {changed} bindings changed"
            )
        if failed:
            raise CommandError(f"{failed} campaigns could not be read; run again later.")
