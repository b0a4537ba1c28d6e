"""The staff grant form answers a user id that is not one (a hand-edited "Grant credits to this
user" link, or a tampered form) with a field error, not with a server error."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("bad", ["not-a-uuid", "123"])
def test_a_malformed_user_id_is_a_form_error_not_a_server_error(staff_client, bad):
    client, _ = staff_client
    page = client.get(f"/admin/quota/quotagrant/add/?user={bad}")
    assert page.status_code == 200
    response = client.post(
        "/admin/quota/quotagrant/add/",
        {"user": bad, "amount": "10", "expires_at_0": "", "expires_at_1": "", "note": ""},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"user": [f"“{bad}” is not a valid UUID."]}
