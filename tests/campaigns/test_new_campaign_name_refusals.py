"""The new-campaign form shows the service's refusal of a name on the Name field, as the settings
rename form does; a refusal that is not about a field stays above the form."""

from __future__ import annotations

import re

import pytest

from apps.campaigns.models import Campaign

pytestmark = pytest.mark.django_db

ONE_LINE = "Use one line of text, without control or direction characters."


def _token(client) -> str:
    html = client.get("/campaigns/new").content.decode()
    return re.search(r'name="form_token" value="([0-9a-f]{32})"', html).group(1)


@pytest.mark.parametrize("name", ["Ash\u202ekcatta", "Ash\u2028Grove", "Ash\x07Grove"])
def test_a_name_the_service_refuses_is_shown_on_the_name_field(domains, client, gm, name):
    client.force_login(gm)
    data = {"name": name, "system_id": "dnd5e", "form_token": _token(client)}

    response = client.post("/campaigns/new", data)

    assert response.status_code == 200
    form = response.context["form"]
    assert (form.errors, form.non_field_errors()) == ({"name": [ONE_LINE]}, [])
    html = response.content.decode()
    assert re.search(
        r'<label for="id_name">Campaign name</label>\s*'
        r'<ul class="errorlist" id="id_name_error"><li>' + re.escape(ONE_LINE) + r"</li></ul>\s*"
        r'<input type="text" name="name" id="id_name" maxlength="120" required value="[^"]*"'
        r' aria-invalid="true" aria-describedby="id_name_error">',
        html,
    ), html
    assert Campaign.objects.count() == 0


def test_a_refusal_that_is_not_about_the_name_stays_above_the_form(domains, client, gm):
    client.force_login(gm)
    token = _token(client)
    client.post("/campaigns/new", {"name": "Tomb", "system_id": "dnd5e", "form_token": token})

    # The same form sent again with another name: its key already made "Tomb".
    response = client.post(
        "/campaigns/new", {"name": "Crypt", "system_id": "dnd5e", "form_token": token}
    )

    assert response.status_code == 200
    tomb = Campaign.objects.get()
    # The page's words, not the API's ("idempotency key"): the form already made "Tomb".
    form = response.context["form"]
    assert form.errors == {
        "__all__": [
            f'This form already created <a href="/campaigns/{tomb.id}/">Tomb</a>. Open it, or'
            ' start <a href="/campaigns/new">a new form</a> to create another campaign.'
        ]
    }
    assert (
        '<ul class="errorlist nonfield"><li>This form already created'
        f' <a href="/campaigns/{tomb.id}/">Tomb</a>.'
    ) in response.content.decode()
    assert list(Campaign.objects.values_list("name", flat=True)) == ["Tomb"]
