"""Staff read an invite's name (its page's heading, the breadcrumbs, the history) as a
sentence starts, with its uses in words: "Invite 1a2b3c4d (0 of 1 used)", not "invite … (0/1)"."""

import pytest

from apps.accounts.services import registration_invite_create

pytestmark = pytest.mark.django_db


def test_an_invite_is_named_with_a_capital_and_its_uses_in_words(db):
    invite, _raw = registration_invite_create(created_by=None, max_uses=3)
    assert str(invite) == f"Invite {str(invite.pk)[:8]} (0 of 3 used)"
