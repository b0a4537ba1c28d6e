"""A campaign's creation retried after it was renamed (the browser's Back to the sent form, an
API client's retry) is the same request: it answers with the campaign as it is now, not "this
idempotency key already created a different campaign"; another name under that key still is."""

from __future__ import annotations

import pytest

from apps.campaigns.services.campaigns import campaign_create, campaign_rename
from apps.core.errors import IdempotencyConflict

pytestmark = pytest.mark.django_db


def _create(gm, name):
    return campaign_create(owner=gm, name=name, system_id="dnd5e", idempotency_key="create-0001")


def test_the_creation_retried_after_two_renames_answers_with_the_campaign_as_it_is_now(domains, gm):
    created = _create(gm, "Curse of Strahd")
    campaign_rename(campaign=created, actor=gm, name="Strahd Returns")
    campaign_rename(campaign=created, actor=gm, name="Strahd, Again")

    again = _create(gm, "  Curse of Strahd ")

    assert (again.pk, again.name) == (created.pk, "Strahd, Again")


def test_another_name_under_that_key_is_still_a_different_campaign(domains, gm):
    created = _create(gm, "Curse of Strahd")
    campaign_rename(campaign=created, actor=gm, name="Strahd Returns")

    for name in ("Strahd Returns", "Tomb of Annihilation"):
        with pytest.raises(IdempotencyConflict):
            _create(gm, name)
