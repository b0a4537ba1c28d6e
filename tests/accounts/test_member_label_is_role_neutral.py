"""Someone without a display name is shown under a role-neutral name and a code: a game master
or an observer is not "Player 3F2A9C" to the table, and no one may take that name for their own."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

NEUTRAL_NAME = (
    "Names like “Member 3F2A9C” are for members who have not chosen one; choose another"
    " display name."
)


def test_someone_without_a_display_name_is_shown_as_a_member_with_a_code(make_user):
    gm = make_user("gm@example.test")

    assert gm.label == f"Member {gm.id.hex[:6].upper()}"


def test_no_one_may_take_the_neutral_name_a_member_is_shown_under(make_user):
    quiet = make_user("quiet@example.test")
    mimic = Client()
    mimic.force_login(make_user("mimic@example.test", display_name="Mimic"))

    refused = {
        name: mimic.post("/account/display-name", {"display_name": name})
        .context["display_name_form"]
        .errors
        for name in (quiet.label, f" member-{quiet.id.hex[:6]} ", f"Player {quiet.id.hex[:6]}")
    }

    assert refused == {
        quiet.label: {"display_name": [NEUTRAL_NAME]},
        f" member-{quiet.id.hex[:6]} ": {"display_name": [NEUTRAL_NAME]},
        f"Player {quiet.id.hex[:6]}": {"display_name": [NEUTRAL_NAME]},
    }
