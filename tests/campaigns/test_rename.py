"""Renaming a campaign: who may, which names it takes (those of creation), and archived ones."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services.campaigns import campaign_archive, campaign_rename
from apps.campaigns.services.membership import membership_change_role
from apps.core.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from apps.core.models import AuditEvent
from tests.campaigns.conftest import domain_view, join

pytestmark = pytest.mark.django_db

LENGTH_FIELDS = {"fields": {"name": ["1 to 120 characters."]}}


def _renames() -> list[tuple]:
    return list(
        AuditEvent.objects.filter(action="campaign.rename").values_list(
            "actor_id", "subject_type", "subject_id", "details"
        )
    )


def test_the_owner_renames_the_campaign_and_the_audit_log_records_it(domains, campaign, gm):
    renamed = campaign_rename(campaign=campaign, actor=gm, name="Tomb of Annihilation")

    assert renamed.name == "Tomb of Annihilation"
    assert Campaign.objects.get(pk=campaign.pk).name == "Tomb of Annihilation"
    assert _renames() == [
        (
            gm.id,
            "campaign",
            str(campaign.id),
            {"from": "The Sunless Citadel", "to": "Tomb of Annihilation"},
        )
    ]


def test_a_gm_who_is_not_the_owner_renames_the_campaign(domains, campaign, gm, make_user):
    co_gm = make_user("gwen@example.test", display_name="Gwen GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")

    campaign_rename(campaign=campaign, actor=co_gm, name="Out of the Abyss")

    assert Campaign.objects.get(pk=campaign.pk).name == "Out of the Abyss"
    assert [actor for actor, *_rest in _renames()] == [co_gm.id]


def test_the_new_name_is_trimmed_as_at_creation(domains, campaign, gm):
    renamed = campaign_rename(campaign=campaign, actor=gm, name="  \tStorm King's Thunder \n")

    assert renamed.name == "Storm King's Thunder"
    assert Campaign.objects.get(pk=campaign.pk).name == "Storm King's Thunder"


def test_a_name_of_exactly_120_characters_is_taken(domains, campaign, gm):
    campaign_rename(campaign=campaign, actor=gm, name="W" * 120)

    assert Campaign.objects.get(pk=campaign.pk).name == "W" * 120


@pytest.mark.parametrize(
    ("name", "message", "details"),
    [
        pytest.param("", "A campaign name needs 1 to 120 characters.", LENGTH_FIELDS, id="empty"),
        pytest.param(
            "  \t ", "A campaign name needs 1 to 120 characters.", LENGTH_FIELDS, id="blank"
        ),
        pytest.param(
            "W" * 121, "A campaign name needs 1 to 120 characters.", LENGTH_FIELDS, id="too-long"
        ),
        pytest.param(
            "\u200b\u2060",
            "A campaign name needs a visible character.",
            {"fields": {"name": ["Enter a name that shows."]}},
            id="invisible",
        ),
    ],
)
def test_a_name_creation_refuses_is_refused_and_nothing_changes(
    domains, campaign, gm, name, message, details
):
    with pytest.raises(ValidationFailed) as refused:
        campaign_rename(campaign=campaign, actor=gm, name=name)

    assert (refused.value.code, refused.value.message) == ("invalid_request", message)
    assert refused.value.details == details
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renames() == []


@pytest.mark.parametrize("role", ["player", "observer"])
def test_a_member_who_is_not_a_gm_is_refused_whatever_the_name(domains, campaign, gm, player, role):
    join(campaign, gm, player, role=role)

    for name in ("Hoard of the Dragon Queen", ""):
        with pytest.raises(PermissionDenied) as refused:
            campaign_rename(campaign=campaign, actor=player, name=name)
        assert refused.value.message == "Only the campaign owner or a GM can do that."

    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renames() == []


def test_someone_outside_the_campaign_is_told_it_is_not_found(domains, campaign, make_user):
    stranger = make_user("sam@example.test")

    with pytest.raises(NotFound) as refused:
        campaign_rename(campaign=campaign, actor=stranger, name="Mine now")

    assert refused.value.code == "campaign_not_found"
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renames() == []


def test_an_archived_campaign_keeps_its_name_as_its_other_settings(domains, campaign, gm):
    campaign_archive(campaign=campaign, actor=gm)

    with pytest.raises(Conflict) as refused:
        campaign_rename(campaign=campaign, actor=gm, name="Rime of the Frostmaiden")

    assert (refused.value.code, refused.value.message) == (
        "campaign_archived",
        "This campaign is archived.",
    )
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renames() == []


def test_the_same_name_again_changes_nothing_and_records_nothing(domains, campaign, gm):
    before = Campaign.objects.get(pk=campaign.pk).updated_at

    renamed = campaign_rename(campaign=campaign, actor=gm, name=" The Sunless Citadel ")

    assert renamed.name == "The Sunless Citadel"
    assert Campaign.objects.get(pk=campaign.pk).updated_at == before
    assert _renames() == []


def test_a_campaign_archived_after_the_role_check_keeps_its_name(
    domains, campaign, gm, monkeypatch
):
    from apps.campaigns.services import campaigns as service

    checked = service.campaign_access

    def archived_right_after(**kwargs):
        membership = checked(**kwargs)
        campaign_archive(campaign=campaign, actor=gm)
        return membership

    monkeypatch.setattr(service, "campaign_access", archived_right_after)

    with pytest.raises(Conflict) as refused:
        campaign_rename(campaign=campaign, actor=gm, name="Rime of the Frostmaiden")

    assert (refused.value.code, refused.value.message) == (
        "campaign_archived",
        "This campaign was archived meanwhile: its name stays.",
    )
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renames() == []
    # Nor was the rules server asked.
    assert domain_view(campaign, gm).structured["campaign"]["name"] == "The Sunless Citadel"
