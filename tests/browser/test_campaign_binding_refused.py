"""A refused character binding on the settings page, in a real browser at a phone's width: the
refusal is said in the binding form, with the focus there and the choices as made."""

from __future__ import annotations

import os

import pytest

from tests.browser.test_campaign_settings_confirmations import _gm_campaign, _gm_page
from tests.domains.conftest import domain_env  # noqa: F401  (a live dnd5e server)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_refused_binding_is_said_in_its_form_with_the_choices_kept(
    browser,
    live_server,
    make_user,
    domain_env,  # noqa: F811
):
    from apps.campaigns.models import ActorBinding
    from apps.campaigns.services.characters import character_create_for
    from tests.campaigns.conftest import join

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm, campaign = _gm_campaign(make_user)
    olly = make_user("olly@example.test", display_name="Olly Observer")
    join(campaign, gm, olly, role="observer")
    # A character to bind: with none in the campaign, the settings page offers no binding form.
    pat = make_user("pat@example.test", display_name="Pat Player")
    join(campaign, gm, pat)
    lidda = character_create_for(
        campaign=campaign, user=pat, form_data={"name": "Lidda", "template": "rogue", "level": 1}
    )
    with _gm_page(browser, live_server.url) as page:
        page.goto(f"{live_server.url}/campaigns/{campaign.id}/settings")
        page.select_option("#id_bind_user", str(olly.id))
        page.select_option("#id_bind_character", lidda.character_id)
        page.uncheck("#id_bind_private")
        # Exactly "Bind": Pat's row has an "Unbind" button too.
        page.click("main button:text-is('Bind')")
        page.wait_for_selector("#binding-error")
        assert page.inner_text("#binding-error") == (
            "Observers cannot control characters; bind without control."
        )
        assert page.evaluate("document.activeElement.id") == "binding-error"
        assert page.locator(".flash__item").count() == 0
        # As chosen, to change only what the refusal names.
        assert page.input_value("#id_bind_user") == str(olly.id)
        assert page.input_value("#id_bind_character") == lidda.character_id
        assert page.is_checked("#id_bind_control") is True
        assert page.is_checked("#id_bind_private") is False
    # Pat's own binding alone: Olly got none.
    assert ActorBinding.objects.filter(campaign=campaign, user=olly).count() == 0
    assert ActorBinding.objects.filter(campaign=campaign).count() == 1
