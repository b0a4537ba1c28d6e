import pytest
from django.contrib.messages import get_messages
from django.test import Client

from apps.accounts.models import User
from tests.accounts.test_registration import signup

pytestmark = pytest.mark.django_db

RESERVED_NAME = "The room shows its own messages under this name; choose another display name."
INVISIBLE_NAME = "A display name needs a visible character."
NEUTRAL_NAME = (
    "Names like “Member 3F2A9C” are for members who have not chosen one; choose another"
    " display name."
)
HIDDEN_CHARACTER = (
    "A display name cannot hold control or hidden formatting characters (such as"
    " line breaks or text-direction marks)."
)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_without_a_display_name_is_not_shown_by_their_email(make_user):
    user = make_user("alice.smith@example.test")
    assert user.label == f"Member {user.id.hex[:6].upper()}"


def test_the_account_page_sets_the_display_name_other_players_see(make_user):
    user = make_user("alice.smith@example.test")
    client = signed_in(user)
    page = client.get("/account/")
    assert page.context["display_name_form"]["display_name"].value() == ""
    response = client.post("/account/display-name", {"display_name": "  Ilsa the Bold  "})
    assert (response.status_code, response["Location"]) == (302, "/account/")
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Display name saved."]
    user.refresh_from_db()
    assert (user.display_name, user.label) == ("Ilsa the Bold", "Ilsa the Bold")
    assert client.get("/account/").context["display_name_form"]["display_name"].value() == (
        "Ilsa the Bold"
    )


@pytest.mark.parametrize(
    ("display_name", "error"),
    [
        ("", "This field is required."),
        ("   ", "This field is required."),
        ("x" * 81, "Ensure this value has at most 80 characters (it has 81)."),
        ("\u200b\u200b", INVISIBLE_NAME),
        ("Ilsa\x00", "Null characters are not allowed."),
        ("Ilsa\nthe Bold", HIDDEN_CHARACTER),
        ("Ilsa\u202eevil", HIDDEN_CHARACTER),
        ("Il\u200bsa", HIDDEN_CHARACTER),
        ("Game Master", RESERVED_NAME),
    ],
)
def test_the_account_page_refuses_a_display_name_that_shows_nothing_or_hides_characters(
    make_user, display_name, error
):
    user = make_user("pat@example.test", display_name="Pat")
    response = signed_in(user).post("/account/display-name", {"display_name": display_name})
    assert response.status_code == 200
    assert response.context["display_name_form"].errors == {"display_name": [error]}
    user.refresh_from_db()
    assert user.display_name == "Pat"


def test_a_display_name_joining_emoji_is_kept(make_user):
    user = make_user("fam@example.test")
    family = "Fam \U0001f468\u200d\U0001f469\u200d\U0001f467"
    response = signed_in(user).post("/account/display-name", {"display_name": family})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == family


def test_sign_up_refuses_a_display_name_with_a_text_direction_mark(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    response = signup(client, "new@example.test", display_name="Ilsa\u202eevil")
    assert response.status_code == 200
    assert response.context["form"].errors == {"display_name": [HIDDEN_CHARACTER]}
    assert not User.objects.exists()


def test_a_player_cannot_take_the_neutral_name_another_player_is_shown_under(make_user):
    quiet = make_user("quiet@example.test")
    user = make_user("mimic@example.test", display_name="Mimic")
    response = signed_in(user).post("/account/display-name", {"display_name": quiet.label})
    assert response.status_code == 200
    assert response.context["display_name_form"].errors == {"display_name": [NEUTRAL_NAME]}
    lookalike = f" player-{quiet.id.hex[:6]} "
    response = signed_in(user).post("/account/display-name", {"display_name": lookalike})
    assert response.context["display_name_form"].errors == {"display_name": [NEUTRAL_NAME]}
    response = signed_in(user).post("/account/display-name", {"display_name": "Player One"})
    assert response.status_code == 302
