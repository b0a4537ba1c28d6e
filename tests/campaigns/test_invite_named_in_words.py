"""Staff read a campaign invite's name (its page's heading, the breadcrumbs, the history) as the
accounts invites read: with a capital, a short id, and its mode and uses in words, not
"invite <full UUID> (auto_join)"."""

from apps.campaigns.models import CampaignInvite


def test_a_campaign_invite_is_named_with_a_capital_and_its_mode_and_uses_in_words():
    request = CampaignInvite(mode=CampaignInvite.Mode.REQUEST, max_uses=3, used_count=1)
    auto = CampaignInvite(mode=CampaignInvite.Mode.AUTO_JOIN, max_uses=1, used_count=0)
    assert str(request) == f"Invite {str(request.pk)[:8]} (request to join, 1 of 3 used)"
    assert str(auto) == f"Invite {str(auto.pk)[:8]} (joins automatically, 0 of 1 used)"
