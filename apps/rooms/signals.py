"""Room sockets follow the account: sessions ended elsewhere close theirs at once."""

from django.dispatch import receiver

from apps.accounts.events import sessions_ended
from apps.campaigns.models import CampaignMembership
from apps.campaigns.services.access import SIGNED_OUT, member_access_changed


@receiver(sessions_ended)
def _close_sockets_of_ended_sessions(sender, user, **kwargs):
    # Each open room socket re-reads its session on this event; the heartbeat would only
    # notice within its interval, and a signed-out tab must not read on until then.
    campaigns = CampaignMembership.objects.filter(
        user=user, status=CampaignMembership.Status.ACTIVE
    ).values_list("campaign_id", flat=True)
    for campaign_id in campaigns:
        member_access_changed(campaign_id=campaign_id, user=user, reason=SIGNED_OUT)
