"""Staff read a membership, a join request and an actor binding by name (the campaign page's
member rows, the request's and binding's headings and breadcrumbs) as invites are named: with a
capital, a short id and what it is in words, not "<user UUID> player in <campaign UUID>"."""

from apps.campaigns.models import ActorBinding, CampaignMembership, JoinRequest


def test_campaign_rows_are_named_in_words_with_a_short_id():
    membership = CampaignMembership(role="player", status="removed")
    request = JoinRequest(role="player", status="pending")
    named = ActorBinding(character_id="pc-1", character_name="Ash Emberhand")
    unnamed = ActorBinding(character_id="pc-2")
    assert str(membership) == f"Membership {str(membership.pk)[:8]} (Player, Removed)"
    assert str(request) == f"Join request {str(request.pk)[:8]} (pending)"
    assert str(named) == f"Binding {str(named.pk)[:8]} (Ash Emberhand)"
    assert str(unnamed) == f"Binding {str(unnamed.pk)[:8]} (pc-2)"
