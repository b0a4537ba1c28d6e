import io
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_create
from apps.core.models import AuditEvent
from apps.saga.mcp_http import SagaMCPMount

PASSWORD = "s3cret-passw0rd!"
NEW_PASSWORD = "brand-new-passw0rd"


def mcp_status(raw: str) -> tuple[int, str]:
    """What an MCP client sending this token is answered: status and error code, if any."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp/saga",
        "headers": [(b"host", b"localhost"), (b"authorization", f"Bearer {raw}".encode())],
    }
    async_to_sync(SagaMCPMount(None))(scope, receive, send)
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    return sent[0]["status"], body["error"]["code"]


def reset_password_by_email(email, mailoutbox):
    client = Client()
    assert client.post("/accounts/password/reset/", {"email": email}).status_code == 302
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mailoutbox[-1].body)
    page = client.get(link.group(1), follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link.group(1)
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302


@pytest.mark.django_db(transaction=True)
def test_an_api_token_made_before_a_password_reset_is_refused_after_it(make_user, mailoutbox):
    user = make_user("forgot@example.test")
    _token, raw = api_token_create(user=user, name="laptop")
    # Known and accepted: only the missing MCP server lifespan stops it here.
    assert mcp_status(raw) == (503, "unavailable")
    reset_password_by_email(user.email, mailoutbox)
    assert mcp_status(raw) == (401, "not_authenticated")
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 0


@pytest.mark.django_db
def test_changing_the_password_revokes_every_api_token(make_user):
    user = make_user("pw@example.test")
    api_token_create(user=user, name="laptop")
    api_token_create(user=user, name="ci")
    other = make_user("other@example.test")
    api_token_create(user=other, name="theirs")
    client = Client()
    assert client.post(
        "/accounts/login/", {"login": user.email, "password": PASSWORD}
    ).status_code == 302  # fmt: skip
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 0
    assert ApiToken.objects.filter(user=other, revoked_at__isnull=True).count() == 1
    event = AuditEvent.objects.get(action="auth.password_changed", actor=user)
    assert event.details["tokens_revoked"] == 2


@pytest.mark.django_db
def test_staff_setting_a_users_password_revokes_their_api_tokens(make_user):
    user = make_user("member@example.test")
    api_token_create(user=user, name="laptop")
    staff = Client()
    staff.force_login(make_user("root@example.test", is_staff=True, is_superuser=True))
    response = staff.post(
        f"/admin/accounts/user/{user.id}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 0


def test_an_operator_setting_a_password_from_the_command_line_revokes_the_users_api_tokens(
    make_user, monkeypatch
):
    from django.core.management import call_command

    from apps.accounts.management.commands.changepassword import Command

    user = make_user("cli@example.test")
    api_token_create(user=user, name="laptop")
    other = make_user("bystander@example.test")
    api_token_create(user=other, name="theirs")
    monkeypatch.setattr(Command, "_get_pass", lambda self, prompt="": NEW_PASSWORD)
    call_command("changepassword", "cli@example.test", stdout=io.StringIO())
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 0
    assert ApiToken.objects.filter(user=other, revoked_at__isnull=True).count() == 1
