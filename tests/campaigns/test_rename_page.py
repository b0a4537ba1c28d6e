"""The settings page's Name form: the current name to edit, a rename, and refusals on the field."""

from __future__ import annotations

import re

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services.campaigns import campaign_archive
from apps.campaigns.services.membership import membership_change_role
from apps.core.models import AuditEvent
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

NAME_FIELD = re.compile(
    r'<div class="form-field"><label for="id_name">Campaign name</label>(.*?)</div>', re.S
)


def _messages(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in response.context["messages"]]


def _name_field(html: str) -> str:
    found = NAME_FIELD.search(html)
    assert found, html
    return found.group(1)


def _name_form(html: str) -> str:
    found = re.search(r'<form [^>]*action="/campaigns/[^"]+/settings/name".*?</form>', html, re.S)
    assert found, html
    return found.group(0)


def test_the_settings_page_shows_the_current_name_in_the_name_form(domains, client, campaign, gm):
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()

    form = _name_form(html)
    assert 'method="post"' in form
    assert 'name="csrfmiddlewaretoken"' in form
    assert 'id="h-name">Name</h2>' in html
    field = _name_field(html)
    assert re.search(
        r'<input type="text" name="name" value="The Sunless Citadel" maxlength="120" required'
        r' id="id_name">',
        field,
    ), field
    assert "<button" in form and "Save name</button>" in form


def test_posting_a_name_renames_and_returns_to_the_settings_with_a_message(
    domains, client, campaign, gm
):
    client.force_login(gm)
    response = client.post(
        f"/campaigns/{campaign.id}/settings/name", {"name": "  Tomb of Annihilation "}, follow=True
    )

    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
    assert _messages(response) == [("success", "Campaign renamed to “Tomb of Annihilation”.")]
    assert Campaign.objects.get(pk=campaign.pk).name == "Tomb of Annihilation"
    html = response.content.decode()
    assert "<h1>Tomb of Annihilation " in html
    assert 'value="Tomb of Annihilation"' in _name_field(html)
    assert AuditEvent.objects.filter(action="campaign.rename").count() == 1


def test_a_gm_who_is_not_the_owner_renames_from_the_page(domains, client, campaign, gm, make_user):
    co_gm = make_user("gwen@example.test", display_name="Gwen GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    client.force_login(co_gm)

    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Out of the Abyss"})

    assert response.status_code == 302
    assert response.url == f"/campaigns/{campaign.id}/settings"
    assert Campaign.objects.get(pk=campaign.pk).name == "Out of the Abyss"


def test_the_same_name_again_says_so_and_records_nothing(domains, client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        f"/campaigns/{campaign.id}/settings/name", {"name": "The Sunless Citadel"}, follow=True
    )

    assert _messages(response) == [
        ("info", "The campaign is already called “The Sunless Citadel”.")
    ]
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


@pytest.mark.parametrize(
    ("name", "error"),
    [
        pytest.param("   ", "This field is required.", id="blank"),
        pytest.param(
            "W" * 121, "Ensure this value has at most 120 characters (it has 121).", id="too-long"
        ),
        pytest.param("\u200b\u2060", "Enter a name that shows.", id="invisible"),
    ],
)
def test_a_refused_name_comes_back_on_the_field_as_entered(
    domains, client, campaign, gm, name, error
):
    client.force_login(gm)
    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": name})

    assert response.status_code == 200
    assert response.context["name_form"].errors == {"name": [error]}
    assert _messages(response) == []
    html = response.content.decode()
    field = _name_field(html)
    assert f'<ul class="errorlist" id="id_name_error"><li>{error}</li></ul>' in field
    assert 'aria-invalid="true"' in field
    assert 'aria-describedby="id_name_error"' in field
    assert f'value="{name}"' in field
    assert "data-focus-error" in _name_form(html)
    # The heading and the title still carry the name the campaign has.
    assert "<h1>The Sunless Citadel " in html
    assert "<title>The Sunless Citadel settings" in html
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


def test_a_name_only_the_service_refuses_still_shows_on_the_field(
    domains, client, campaign, gm, monkeypatch
):
    from apps.campaigns import views
    from apps.core.errors import ValidationFailed

    def refuse(**kwargs):
        raise ValidationFailed("Refused.", details={"fields": {"name": ["Not that one."]}})

    monkeypatch.setattr(views, "campaign_rename", refuse)
    client.force_login(gm)
    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Fine"})

    assert response.status_code == 200
    assert response.context["name_form"].errors == {"name": ["Not that one."]}
    assert _messages(response) == []


@pytest.mark.parametrize("role", ["player", "observer"])
def test_a_member_who_is_not_a_gm_is_refused_and_nothing_changes(
    domains, client, campaign, gm, player, role
):
    join(campaign, gm, player, role=role)
    client.force_login(player)

    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Mine now"})

    assert response.status_code == 302
    assert response.url == f"/campaigns/{campaign.id}/settings"
    followed = client.get(response.url, follow=True)
    assert _messages(followed) == [
        ("error", "Only the campaign owner or a GM can do that."),
        ("error", "Only the owner or a GM can manage this campaign."),
    ]
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


def test_someone_outside_the_campaign_gets_the_404_page(domains, client, campaign, make_user):
    client.force_login(make_user("sam@example.test"))

    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Mine now"})

    assert response.status_code == 404
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"


def test_renaming_takes_a_post_with_the_csrf_token(domains, campaign, gm):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)

    assert client.get(f"/campaigns/{campaign.id}/settings/name").status_code == 405
    refused = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Forged"})
    assert refused.status_code == 403
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"


def test_an_archived_campaign_offers_no_name_form_and_refuses_a_rename(
    domains, client, campaign, gm
):
    campaign_archive(campaign=campaign, actor=gm)
    client.force_login(gm)

    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert "settings/name" not in html
    assert 'id="h-name"' not in html

    for name in ("Rime of the Frostmaiden", "   "):
        response = client.post(
            f"/campaigns/{campaign.id}/settings/name", {"name": name}, follow=True
        )
        assert response.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
        assert _messages(response) == [("error", "This campaign is archived.")]
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert not AuditEvent.objects.filter(action="campaign.rename").exists()


def test_the_create_page_names_a_campaign_just_made_by_its_new_name(domains, client, gm):
    client.force_login(gm)
    client.post(
        "/campaigns/new",
        {"name": "Lost Mine of Phandelver", "system_id": "dnd5e", "form_token": "a" * 32},
    )
    made = Campaign.objects.get(owner=gm)
    client.post(f"/campaigns/{made.id}/settings/name", {"name": "Dragon of Icespire Peak"})

    html = client.get("/campaigns/new").content.decode()

    assert re.search(
        r'id="just-created">You created <a href="/campaigns/[^"]+/">Dragon of Icespire Peak</a>',
        html,
    ), html
