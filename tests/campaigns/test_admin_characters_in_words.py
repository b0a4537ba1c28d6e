"""The actor binding admin heads the character's id "Character", not "Character id"; and a
character's control reads as a sentence a GM understands ("Ana controls Thorin (revision 3)"),
not "pc-1 -> <user UUID> @3"."""

import re

import pytest
from django.test import Client

from apps.campaigns.models import ActorBinding, Campaign, CharacterControl

pytestmark = pytest.mark.django_db

_TAGS = re.compile(r"<[^>]+>")


@pytest.fixture
def staff(make_user):
    client = Client()
    client.force_login(make_user("ops@example.test", is_staff=True, is_superuser=True))
    return client


def test_the_binding_list_heads_the_character_in_words(staff, make_user):
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    ActorBinding.objects.create(
        campaign=campaign, user=owner, character_id="pc-1", character_name="Thorin"
    )
    html = staff.get("/admin/campaigns/actorbinding/").content.decode()
    headings = [
        _TAGS.sub("", h).strip()
        for h in re.findall(r'<th scope="col" class="[^"]*column-\w+[^"]*">(.*?)</th>', html, re.S)
    ]
    assert headings == [
        "Campaign", "User", "Character", "Character name", "Can control", "Can view private",
        "Status",
    ]  # fmt: skip


def test_a_character_control_reads_as_who_controls_whom(make_user):
    owner = make_user("gm@example.test", display_name="Gail")
    ana = make_user("ana@example.test", display_name="Ana")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    ActorBinding.objects.create(
        campaign=campaign, user=ana, character_id="pc-1", character_name="Thorin"
    )
    named = CharacterControl.objects.create(
        campaign=campaign, character_id="pc-1", controller=ana, revision=3
    )
    unnamed = CharacterControl(campaign=campaign, character_id="pc-2", controller=None, revision=7)
    assert str(named) == "Ana controls Thorin (revision 3)"
    assert str(unnamed) == "The GM alone controls pc-2 (revision 7)"
