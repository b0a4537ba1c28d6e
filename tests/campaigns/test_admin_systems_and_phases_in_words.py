"""The campaign admin names a campaign's game system as players choose it ("D&D 5e (SRD 5.1)",
not "dnd5e") and its phase with a capital ("Combat", not "combat"), in the list's columns, its
filters and the campaign's page. A system this server no longer runs reads as its code."""

import re

import pytest
from django.test import Client

from apps.campaigns.models import Campaign, CampaignMembership

pytestmark = pytest.mark.django_db

_CELL = re.compile(r'<t[dh] class="field-(\w+)[^"]*">(.*?)</t[dh]>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def _column(html, name):
    return [_TAGS.sub("", text).strip() for field, text in _CELL.findall(html) if field == name]


def _filters(html):
    """{filter title: [choice, ...]} of the list's filter sidebar."""
    sidebar = html.split('id="changelist-filter"', 1)[1]
    shown = {}
    for details in re.findall(r"<details\b.*?</details>", sidebar, re.S):
        title = _TAGS.sub("", re.search(r"<summary>(.*?)</summary>", details, re.S).group(1))
        choices = re.findall(r"<li\b.*?</li>", details, re.S)
        shown[" ".join(title.split())] = [_TAGS.sub("", c).strip() for c in choices]
    return shown


@pytest.fixture
def staff(make_user, settings):
    settings.SAGASMITH_DOMAINS = {
        "dnd5e": {"url": "http://127.0.0.1:1/mcp"},
        "narrative": {"url": "http://127.0.0.1:2/mcp"},
    }
    client = Client()
    client.force_login(make_user("ops@example.test", is_staff=True, is_superuser=True))
    return client


def _campaign(owner, name, system_id, phase):
    campaign = Campaign.objects.create(name=name, system_id=system_id, owner=owner, phase=phase)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    return campaign


def test_the_campaign_list_names_systems_and_phases_in_words(staff, make_user):
    owner = make_user("gm@example.test")
    _campaign(owner, "Ashfall", "dnd5e", "combat")
    _campaign(owner, "Briar Vale", "narrative", "lobby")
    _campaign(owner, "Old Tomb", "retired", "short_rest")

    page = staff.get("/admin/campaigns/campaign/?o=1").content.decode()
    assert _column(page, "name") == ["Ashfall", "Briar Vale", "Old Tomb"]
    assert _column(page, "system") == [
        "D&amp;D 5e (SRD 5.1)",
        "Narrative (system-neutral)",
        "retired",
    ]
    assert _column(page, "campaign_phase") == ["Combat", "Lobby", "Short rest"]
    filters = _filters(page)
    assert filters["By system"] == [
        "All", "D&amp;D 5e (SRD 5.1)", "Narrative (system-neutral)", "retired",
    ]  # fmt: skip
    assert filters["By phase"] == ["All", "Combat", "Lobby", "Short rest"]

    filtered = staff.get("/admin/campaigns/campaign/?system_id=dnd5e").content.decode()
    assert _column(filtered, "name") == ["Ashfall"]
    filtered = staff.get("/admin/campaigns/campaign/?phase=short_rest").content.decode()
    assert _column(filtered, "name") == ["Old Tomb"]


def test_the_campaign_page_names_its_system_and_phase_in_words_in_their_place(staff, make_user):
    campaign = _campaign(make_user("gm@example.test"), "Ashfall", "dnd5e", "combat")
    response = staff.get(f"/admin/campaigns/campaign/{campaign.pk}/change/")
    fields = [
        (field.field["name"], str(field.field["label"]), field.contents())
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
    ]
    names = [name for name, _label, _contents in fields]
    assert "system_id" not in names and "phase" not in names
    assert names[names.index("system") - 1] == "name"
    assert names[names.index("campaign_phase") - 1] == "authority_receipt"
    shown = {name: (label, contents) for name, label, contents in fields}
    assert shown["system"] == ("system", "D&amp;D 5e (SRD 5.1)")
    assert shown["campaign_phase"] == ("phase", "Combat")
