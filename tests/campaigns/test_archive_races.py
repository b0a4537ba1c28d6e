"""A campaign archived while a character write waits on the rules server: nothing new is
bound in the read-only campaign, and what the rules server already did is still mirrored."""

from __future__ import annotations

import pytest

from apps.campaigns.models import ActorBinding, Campaign
from apps.campaigns.services import characters
from apps.campaigns.services.campaigns import campaign_archive
from apps.core.errors import Conflict
from apps.domains.client import domain_call, principal_for
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

LIDDA = {"name": "Lidda", "template": "rogue", "level": 1}


def _archive_after(monkeypatch, name, gm):
    """Make the service's call `name` archive the campaign once the rules server answered."""
    real = getattr(characters, name)

    def then_archived(*args, **kwargs):
        result = real(*args, **kwargs)
        campaign_id = kwargs["campaign"].pk if "campaign" in kwargs else args[0].pk
        campaign_archive(campaign=Campaign.objects.get(pk=campaign_id), actor=gm)
        return result

    monkeypatch.setattr(characters, name, then_archived)


def _bindings(campaign):
    return sorted(
        ActorBinding.objects.filter(campaign=campaign, status="active").values_list(
            "user__email", "character_id", "can_control"
        )
    )


def _lidda_and_a_friend(campaign, gm, player, make_user):
    """The player has made Lidda in the campaign; a friend has joined it too."""
    friend = make_user("friend@example.test")
    join(campaign, gm, player)
    join(campaign, gm, friend)
    lidda = characters.character_create_for(campaign=campaign, user=player, form_data=LIDDA)
    return friend, lidda


def test_a_character_made_while_the_campaign_is_archived_is_refused_and_not_bound(
    domains, campaign, gm, player, monkeypatch
):
    join(campaign, gm, player)
    _archive_after(monkeypatch, "authority_write", gm)
    with pytest.raises(Conflict) as refused:
        characters.character_create_for(campaign=campaign, user=player, form_data=LIDDA)
    assert (refused.value.code, refused.value.message) == (
        "campaign_archived",
        "This campaign was archived meanwhile: no new characters.",
    )
    assert _bindings(campaign) == []


def test_a_binding_made_while_the_campaign_is_archived_is_refused_and_not_saved(
    domains, campaign, gm, player, make_user, monkeypatch
):
    friend, lidda = _lidda_and_a_friend(campaign, gm, player, make_user)
    _archive_after(monkeypatch, "_character_read", gm)
    with pytest.raises(Conflict) as refused:
        characters.binding_set(
            campaign=campaign, actor=gm, user=friend, character_id=lidda.character_id,
            can_control=False,
        )  # fmt: skip
    assert (refused.value.code, refused.value.message) == (
        "campaign_archived",
        "This campaign was archived meanwhile: the binding was not saved.",
    )
    assert _bindings(campaign) == [("player@example.test", "pc-1", True)]


def test_control_the_rules_server_moved_before_an_archive_is_still_recorded_without_a_binding(
    domains, campaign, gm, player, make_user, monkeypatch
):
    friend, lidda = _lidda_and_a_friend(campaign, gm, player, make_user)
    _archive_after(monkeypatch, "_controller_assign", gm)
    with pytest.raises(Conflict) as refused:
        characters.binding_set(
            campaign=campaign, actor=gm, user=friend, character_id=lidda.character_id
        )
    assert refused.value.code == "campaign_archived"
    controller = domain_call(
        system_id="dnd5e", tool="character_get", arguments={"character_id": "pc-1"},
        requester=gm, campaign_id=str(campaign.id),
    ).structured["character"]["controller"]  # fmt: skip
    assert controller == principal_for(friend)
    # The player's binding follows the rules server: they no longer control Lidda.
    assert _bindings(campaign) == [("player@example.test", "pc-1", False)]


def test_a_join_request_filed_while_the_campaign_is_archived_is_refused_not_left_waiting(
    domains, campaign, gm, player, monkeypatch
):
    from datetime import timedelta

    from apps.campaigns.models import CampaignInvite, JoinRequest
    from apps.campaigns.services import invites

    invite, token = invites.invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    real = invites.invite_problem

    def archived_after_the_check(checked):
        problem = real(checked)
        campaign_archive(campaign=Campaign.objects.get(pk=campaign.pk), actor=gm)
        return problem

    monkeypatch.setattr(invites, "invite_problem", archived_after_the_check)
    with pytest.raises(Conflict) as refused:
        invites.invite_accept(token=token, user=player)
    assert (refused.value.code, refused.value.message, refused.value.recovery) == (
        "campaign_archived",
        "This campaign is archived.",
        # Not dead: restoring the campaign revives the link.
        "The link works again if the campaign's owner restores it before the link expires.",
    )
    assert list(JoinRequest.objects.values_list("user__email", "status")) == []
    assert CampaignInvite.objects.get(pk=invite.pk).used_count == 0
