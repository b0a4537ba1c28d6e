"""Django's HTTP views as the ASGI application serves them: WSGI on a fixed pool of threads."""

import asyncio
import re
import threading

import httpx2
import pytest
from django.core.signals import request_started
from django.core.wsgi import get_wsgi_application

from apps.accounts.models import UserSession
from sagasmith_web.routing import build_application, wsgi_over_asgi

pytestmark = pytest.mark.django_db(transaction=True)

CLIENT_IP = "203.0.113.7"


def asgi_client(app) -> httpx2.AsyncClient:
    transport = httpx2.ASGITransport(app=app, client=(CLIENT_IP, 51234))
    return httpx2.AsyncClient(transport=transport, base_url="http://localhost")


@pytest.fixture
def request_threads():
    seen: list[int] = []

    def record(**kwargs):
        seen.append(threading.get_ident())

    request_started.connect(record)
    yield seen
    request_started.disconnect(record)


async def test_requests_share_a_fixed_pool_of_threads(settings, request_threads):
    settings.WEB_HTTP_THREADS = 3
    app = build_application(wsgi_over_asgi(get_wsgi_application()))
    async with asgi_client(app) as client:
        responses = await asyncio.gather(*(client.get("/api/health") for _ in range(24)))

    assert [r.status_code for r in responses] == [200] * 24
    assert [r.json() for r in responses] == [{"status": "ok"}] * 24
    assert len(request_threads) == 24
    assert 1 <= len(set(request_threads)) <= 3
    assert threading.get_ident() not in request_threads  # never on the event loop


async def test_sign_in_through_the_served_application(make_user):
    from sagasmith_web.asgi import application

    await asyncio.to_thread(make_user, "pool@example.test")
    async with asgi_client(application) as client:
        page = await client.get("/accounts/login/", headers={"X-Request-ID": "req-pool-1"})
        assert page.status_code == 200
        assert page.headers["X-Request-ID"] == "req-pool-1"
        token = client.cookies["csrftoken"]
        assert re.search(r'name="csrfmiddlewaretoken"', page.text)

        credentials = {"login": "pool@example.test", "password": "s3cret-passw0rd!"}
        refused = await client.post("/accounts/login/", data=credentials)
        assert refused.status_code == 403  # no CSRF token

        signed_in = await client.post(
            "/accounts/login/",
            data={**credentials, "csrfmiddlewaretoken": token},
            headers={"Referer": "http://localhost/accounts/login/"},
        )
        assert signed_in.status_code == 302
        balance = await client.get("/api/usage/balance")
        assert balance.status_code == 200

    sessions = await asyncio.to_thread(
        lambda: list(UserSession.objects.values_list("user__email", "ip_address"))
    )
    assert sessions == [("pool@example.test", CLIENT_IP)]


def test_a_header_name_with_an_underscore_is_dropped():
    from sagasmith_web.asgi import application

    async def run():
        async with asgi_client(application) as client:
            return await client.get("/api/health", headers={"X_Request_ID": "req-spoofed"})

    response = asyncio.run(run())
    assert response.status_code == 200
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


async def test_a_chunked_sign_in_reaches_the_view(make_user):
    from sagasmith_web.asgi import application

    await asyncio.to_thread(make_user, "chunked@example.test")
    async with asgi_client(application) as client:
        await client.get("/accounts/login/")
        form = (
            f"login=chunked%40example.test&password=s3cret-passw0rd%21"
            f"&csrfmiddlewaretoken={client.cookies['csrftoken']}"
        ).encode()

        async def chunks():
            for start in range(0, len(form), 16):
                yield form[start : start + 16]

        signed_in = await client.post(
            "/accounts/login/",
            content=chunks(),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": "http://localhost/accounts/login/",
            },
        )
    assert signed_in.status_code == 302, signed_in.text[:300]


async def test_a_body_larger_than_one_replayed_chunk_arrives_whole(make_user):
    from sagasmith_web.asgi import application

    await asyncio.to_thread(make_user, "large@example.test")
    async with asgi_client(application) as client:
        await client.get("/accounts/login/")
        padding = "x" * 200_000  # about three replayed chunks before the token
        form = (
            f"remember_me_not_a_field={padding}&login=large%40example.test"
            f"&password=s3cret-passw0rd%21&csrfmiddlewaretoken={client.cookies['csrftoken']}"
        )
        signed_in = await client.post(
            "/accounts/login/",
            content=form.encode(),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": "http://localhost/accounts/login/",
            },
        )
    assert signed_in.status_code == 302, signed_in.text[:300]


async def test_a_stalled_upload_holds_no_thread(settings):
    settings.WEB_HTTP_THREADS = 1
    app = build_application(wsgi_over_asgi(get_wsgi_application()))
    never = asyncio.Event()

    async def stalled_receive():
        await never.wait()
        return {"type": "http.disconnect"}

    async def ignore(message):
        pass

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/accounts/login/", "raw_path": b"/accounts/login/",
        "query_string": b"", "root_path": "", "client": (CLIENT_IP, 1), "server": ("localhost", 80),
        "headers": [(b"host", b"localhost"), (b"content-length", b"100")],
    }  # fmt: skip
    stalled = asyncio.create_task(app(scope, stalled_receive, ignore))
    try:
        async with asgi_client(app) as client:
            health = await asyncio.wait_for(client.get("/api/health"), timeout=10)
        assert health.status_code == 200
        assert not stalled.done()
    finally:
        never.set()
        await asyncio.wait_for(stalled, timeout=10)
