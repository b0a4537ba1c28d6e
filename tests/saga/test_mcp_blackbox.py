"""Black-box: drive only the four tools through a real MCP client over stdio and HTTP."""

import asyncio
import functools
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
import uvicorn
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from apps.accounts.services import api_token_create
from apps.saga.models import Saga, SagaEvent
from apps.saga.services import saga_replay
from domain_servers.common.testing import listening_socket
from tests.saga.conftest import postgres_or_skip, simple_plan

ROOT = Path(settings.BASE_DIR) if hasattr(settings, "BASE_DIR") else Path.cwd()
STDIO_EMAIL = "stdio@example.com"

pytestmark = pytest.mark.django_db(transaction=True)


def _manage(env, *args, timeout=120):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _base_env(database_url):
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "tests.saga.settings_scripted"
    env["DATABASE_URL"] = database_url
    return env


@pytest.fixture(scope="session")
def sqlite_stdio_db(tmp_path_factory):
    """A migrated file database the stdio subprocess can open (the SQLite test DB is in memory)."""
    path = tmp_path_factory.mktemp("saga-stdio") / "db.sqlite3"
    env = _base_env(f"sqlite:///{path}")
    done = _manage(env, "migrate", "--noinput")
    assert done.returncode == 0, done.stderr
    made = _manage(
        env,
        "shell",
        "-c",
        "from apps.accounts.models import User; "
        f"User.objects.create_user(email='{STDIO_EMAIL}', password='x-12345678')",
    )
    assert made.returncode == 0, made.stderr
    return env


@pytest.fixture
def stdio_env(django_user_model, request):
    """Env for subprocesses: PostgreSQL uses the live test DB; SQLite a migrated file DB."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        django_user_model.objects.create_user(email=STDIO_EMAIL, password="x-12345678")
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        return _base_env(
            f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
    return request.getfixturevalue("sqlite_stdio_db")


@pytest.fixture
def http_server(scripted_roles):
    from django.core.asgi import get_asgi_application

    from sagasmith_web.routing import build_application

    # Served on a socket bound here: no other process can take the port before the server runs.
    listener = listening_socket()
    port = listener.getsockname()[1]
    config = uvicorn.Config(
        build_application(get_asgi_application()), lifespan="on", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}/mcp/saga"
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


def _create_user(model, **kwargs):
    """A user who accepted the current terms: the endpoint refuses anyone else."""
    from django.conf import settings

    return model.objects.create_user(
        terms_version=settings.SAGASMITH_TERMS_VERSION,
        privacy_version=settings.SAGASMITH_PRIVACY_VERSION,
        **kwargs,
    )


def http_client(url, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(streamable_http_client(url, http_client=create_mcp_http_client(headers=headers)))


def stdio_client(env):
    return Client(
        StdioServerParameters(
            command=sys.executable,
            args=["manage.py", "saga_mcp", "--transport", "stdio", "--user", STDIO_EMAIL],
            env={k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")},
            cwd=str(ROOT),
        )
    )


class Tools:
    def __init__(self, client):
        self.client = client

    async def __call__(self, name, **args):
        result = await self.client.call_tool(name, args)
        assert result.content and result.content[0].text.strip()
        return result.is_error, result.structured_content

    async def ok(self, name, **args):
        is_error, data = await self(name, **args)
        assert not is_error, data
        return data


async def scenario_auto_run(tools):
    start = await tools.ok("saga_start", goal="Write two parts", profile="generic")
    assert start["status"] == "plan_required" and "planPrompt" in start
    sid = start["sagaId"]
    out = await tools.ok("saga_advance", sagaId=sid, planYaml=simple_plan(2))
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-01")
    assert "Saga: " + sid in out["workerContext"]
    out = await tools.ok(
        "saga_advance",
        sagaId=sid,
        workerFinished=True,
        artifacts=[{"path": "part1.md", "content": "one"}],
    )
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-02")
    out = await tools.ok(
        "saga_advance",
        sagaId=sid,
        workerFinished=True,
        artifacts=[{"path": "part2.md", "content": "two"}],
    )
    assert (out["nextAction"], out["reason"], out["details"]) == (
        "terminated",
        "completed",
        "All 2 stages passed",
    )
    status = await tools.ok("saga_status", sagaId=sid)
    assert (status["cursor"], status["totalStages"], status["termination"]["reason"]) == (
        2,
        2,
        "completed",
    )
    return sid


async def scenario_deep_run(tools):
    sid = (await tools.ok("saga_start", goal="Survey", profile="research"))["sagaId"]
    await tools.ok("saga_advance", sagaId=sid, planYaml=simple_plan(2, "deep"))
    for n in (1, 2):
        out = await tools.ok(
            "saga_advance",
            sagaId=sid,
            workerFinished=True,
            artifacts=[{"path": f"part{n}.md", "content": f"body {n}"}],
        )
        assert out["nextAction"] == "eval_deep_required"
        assert f"body {n}" in out["evalPrompt"]
        out = await tools.ok(
            "saga_advance",
            sagaId=sid,
            evalResult={"passed": True, "score": 4, "issues": [], "escalate": False},
        )
    assert (out["nextAction"], out["reason"]) == ("terminated", "completed")
    return sid


async def scenario_recovery_to_termination(tools):
    sid = (await tools.ok("saga_start", goal="Fail", profile="generic"))["sagaId"]
    await tools.ok("saga_advance", sagaId=sid, planYaml=simple_plan(1))
    actions = []
    for _ in range(5):
        out = await tools.ok("saga_advance", sagaId=sid, workerFinished=True)
        actions.append(out["nextAction"])
    assert actions == [
        "revision_queued",
        "revision_queued",
        "revision_queued",
        "worker_mode_queued",
        "terminated",
    ]
    assert out["reason"] == "worker_unrecoverable"


async def scenario_escalation_and_resume(tools):
    sid = (await tools.ok("saga_start", goal="Review", profile="review"))["sagaId"]
    await tools.ok("saga_advance", sagaId=sid, planYaml=simple_plan(1, "deep"))
    await tools.ok(
        "saga_advance",
        sagaId=sid,
        workerFinished=True,
        artifacts=[{"path": "part1.md", "content": "r"}],
    )
    out = await tools.ok(
        "saga_advance",
        sagaId=sid,
        evalResult={
            "passed": False,
            "score": None,
            "issues": ["source is private"],
            "escalate": True,
        },
    )
    assert out["nextAction"] == "await_human" and "验收标准无法达成" in out["diagnostic"]
    out = await tools.ok("saga_advance", sagaId=sid, humanInput="Review the public part only.")
    assert out["nextAction"] == "worker_mode_queued"
    assert "Review the public part only." in out["workerContext"]
    await tools.ok(
        "saga_advance",
        sagaId=sid,
        workerFinished=True,
        artifacts=[{"path": "part1.md", "content": "r2"}],
    )
    out = await tools.ok("saga_advance", sagaId=sid, evalResult={"passed": True, "score": 5})
    assert out["reason"] == "completed"


async def scenario_cancel(tools):
    sid = (await tools.ok("saga_start", goal="Cancel me", profile="generic"))["sagaId"]
    out = await tools.ok("saga_cancel", sagaId=sid, reason="not needed")
    assert out == {"sagaId": sid, "status": "cancelled", "reason": "not needed"}
    is_error, data = await tools("saga_cancel", sagaId=sid)
    assert is_error and data["error"]["code"] == "saga_terminated"
    assert data["error"]["message"] == f"Saga {sid} already terminated: aborted_by_user"


async def scenario_clarification(tools):
    out = await tools.ok("saga_start", goal="[clarify] plan a trip", profile="research")
    assert (out["nextAction"], out["questions"], out["round"], out["limit"]) == (
        "clarification_needed",
        ["Question 1?"],
        0,
        2,
    )
    sid = out["sagaId"]
    out = await tools.ok("saga_advance", sagaId=sid, humanInput="Japan")
    assert (out["questions"], out["round"]) == (["Question 2?"], 1)
    out = await tools.ok("saga_advance", sagaId=sid, humanInput="Spring")
    assert out["nextAction"] == "await_human" and "planYaml" in out["diagnostic"]


async def scenario_bad_input(tools):
    is_error, data = await tools("saga_start", goal="x", profile="poetry")
    assert is_error and data["error"]["code"] == "unknown_profile"
    sid = (await tools.ok("saga_start", goal="Bad input", profile="generic"))["sagaId"]
    is_error, data = await tools("saga_advance", sagaId=sid, planYaml="no stages here")
    assert is_error and data["error"]["code"] == "invalid_plan"
    await tools.ok("saga_advance", sagaId=sid, planYaml=simple_plan(1))
    is_error, data = await tools(
        "saga_advance",
        sagaId=sid,
        workerFinished=True,
        artifacts=[{"path": "../escape.md", "content": "x"}],
    )
    assert is_error and data["error"]["code"] == "invalid_artifact"
    is_error, data = await tools("saga_status", sagaId="saga-0-missing")
    assert is_error and data["error"]["code"] == "saga_not_found"
    status = await tools.ok("saga_status", sagaId=sid)
    assert (status["transition"], status["recoveryAttempts"]) == ("worker_mode_injected", {})


async def run_all(tools):
    auto = await scenario_auto_run(tools)
    deep = await scenario_deep_run(tools)
    await scenario_recovery_to_termination(tools)
    await scenario_escalation_and_resume(tools)
    await scenario_cancel(tools)
    await scenario_clarification(tools)
    await scenario_bad_input(tools)
    return auto, deep


async def test_stdio_end_to_end(stdio_env):
    async with stdio_client(stdio_env) as client:
        names = sorted(t.name for t in (await client.list_tools()).tools)
        assert names == ["saga_advance", "saga_cancel", "saga_start", "saga_status"]
        auto, deep = await run_all(Tools(client))
    for saga_id in (auto, deep):
        replay = await anyio.to_thread.run_sync(
            lambda sid=saga_id: _manage(stdio_env, "saga_replay", sid)
        )
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert "rebuilt state matches the stored state" in replay.stdout


async def test_http_end_to_end(http_server, django_user_model):
    user = await sync_to_async(_create_user)(
        django_user_model, email="http@example.com", password="x-12345678"
    )
    _, raw = await sync_to_async(api_token_create)(user=user, name="test")
    async with http_client(http_server, raw) as client:
        auto, deep = await run_all(Tools(client))
    for saga_id in (auto, deep):
        saga = await Saga.objects.aget(key=saga_id)
        report = await sync_to_async(saga_replay)(saga=saga)
        assert report["differences"] == []
        assert report["eventCount"] == saga.last_sequence


async def test_http_rejects_missing_or_bad_token(http_server):
    import httpx2

    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    async with httpx2.AsyncClient() as raw_client:
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}):
            response = await raw_client.post(http_server, json=body, headers=headers)
            assert response.status_code == 401
            # The code the rest of the API uses.
            assert response.json()["error"]["code"] == "not_authenticated"
            assert response.headers["www-authenticate"] == 'Bearer realm="saga"'
            # As every response of the site: its request id, new or the client's own.
            assert len(response.headers["x-request-id"]) == 32
        echoed = await raw_client.post(
            http_server, json=body, headers={"X-Request-ID": "mcp-req-0001"}
        )
        assert echoed.headers["x-request-id"] == "mcp-req-0001"


async def test_http_calls_count_against_the_per_user_api_limit(
    http_server, django_user_model, monkeypatch
):
    import httpx2
    from django.core.cache import cache
    from django.test import Client as DjangoClient

    from apps.core.throttling import UserRateThrottle

    await sync_to_async(cache.clear)()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min"})
    user = await sync_to_async(_create_user)(
        django_user_model, email="busy@example.com", password="x-12345678"
    )
    _, raw = await sync_to_async(api_token_create)(user=user, name="test")
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Authorization": f"Bearer {raw}"}
    async with httpx2.AsyncClient() as raw_client:
        statuses = [
            (await raw_client.post(http_server, json=body, headers=headers)).status_code
            for _ in range(3)
        ]
        limited = await raw_client.post(http_server, json=body, headers=headers)
    # The first three reach the MCP app (no session yet: it answers them itself); the fourth
    # is over the limit.
    assert 429 not in statuses
    assert limited.status_code == 429
    error = limited.json()["error"]
    assert (error["code"], error["retryable"]) == ("throttled", True)
    assert 0 < int(limited.headers["retry-after"]) <= 60
    assert error["details"] == {"retry_after": int(limited.headers["retry-after"])}
    assert len(limited.headers["x-request-id"]) == 32

    # One window for the user across the site's API and this endpoint.
    def site_call():
        client = DjangoClient()
        client.force_login(user)
        return client.get("/api/campaigns").status_code

    assert await sync_to_async(site_call)() == 429


async def test_http_refuses_a_user_with_newer_terms_to_accept(
    http_server, django_user_model, settings
):
    import httpx2

    user = await sync_to_async(_create_user)(
        django_user_model, email="terms@example.com", password="x-12345678"
    )
    _, raw = await sync_to_async(api_token_create)(user=user, name="test")
    settings.SAGASMITH_TERMS_VERSION = "a-newer-version"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    async with httpx2.AsyncClient() as raw_client:
        response = await raw_client.post(
            http_server, json=body, headers={"Authorization": f"Bearer {raw}"}
        )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "terms_not_accepted"


async def test_http_other_users_saga_is_not_found(http_server, django_user_model):
    create = sync_to_async(functools.partial(_create_user, django_user_model))
    owner, intruder = await create(email="o@example.com"), await create(email="i@example.com")
    _, owner_token = await sync_to_async(api_token_create)(user=owner, name="t")
    _, intruder_token = await sync_to_async(api_token_create)(user=intruder, name="t")
    async with http_client(http_server, owner_token) as client:
        sid = (await Tools(client).ok("saga_start", goal="Mine", profile="generic"))["sagaId"]
    version = (await Saga.objects.aget(key=sid)).version
    async with http_client(http_server, intruder_token) as client:
        tools = Tools(client)
        for name, args in (
            ("saga_status", {}),
            ("saga_cancel", {}),
            ("saga_advance", {"planYaml": simple_plan(1)}),
        ):
            is_error, data = await tools(name, sagaId=sid, **args)
            assert is_error and data["error"]["code"] == "saga_not_found"
    saga = await Saga.objects.aget(key=sid)
    assert (saga.version, saga.state["termination"], saga.state["plan"]) == (version, None, None)


async def test_http_two_concurrent_advances_both_apply(http_server, django_user_model):
    postgres_or_skip()
    user = await sync_to_async(_create_user)(django_user_model, email="c@example.com")
    _, raw = await sync_to_async(api_token_create)(user=user, name="t")
    async with http_client(http_server, raw) as a, http_client(http_server, raw) as b:
        sid = (await Tools(a).ok("saga_start", goal="[clarify] race", profile="research"))["sagaId"]
        first, second = await asyncio.gather(
            Tools(a).ok("saga_advance", sagaId=sid, humanInput="answer A"),
            Tools(b).ok("saga_advance", sagaId=sid, humanInput="answer B"),
        )
    saga = await Saga.objects.aget(key=sid)
    answers = sorted(h["answer"] for h in saga.state["clarificationHistory"])
    assert answers == ["answer A", "answer B"]
    assert saga.state["clarificationRound"] == 2
    sequences = [
        s
        async for s in SagaEvent.objects.filter(saga=saga)
        .order_by("sequence")
        .values_list("sequence", flat=True)
    ]
    assert sequences == list(range(1, saga.last_sequence + 1))
    types = [t async for t in SagaEvent.objects.filter(saga=saga).values_list("type", flat=True)]
    assert types.count("clarification_answered") == 2
    assert sorted([first["nextAction"], second["nextAction"]]) == [
        "await_human",
        "clarification_needed",
    ]


async def _raw_post(url, head_lines, body_parts):
    """POST over a bare socket, sending body_parts as given; returns (status, headers, body).

    The body may be left unfinished: a server that waits for the rest times out here.
    """
    import json
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        head = [f"POST {parts.path} HTTP/1.1", f"Host: {parts.netloc}", *head_lines, "", ""]
        writer.write("\r\n".join(head).encode())
        for part in body_parts:
            writer.write(part)
        await writer.drain()
        raw_head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        lines = raw_head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {
            k.strip().lower(): v.strip()
            for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)
        }
        body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
        return status, headers, json.loads(body)
    finally:
        writer.close()


def _json_headers(token, *extra):
    return [
        f"Authorization: Bearer {token}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        *extra,
    ]


async def test_http_refuses_a_declared_body_over_the_limit_without_reading_it(
    http_server, django_user_model
):
    from apps.saga.mcp_http import max_request_body_bytes

    user = await sync_to_async(_create_user)(django_user_model, email="big@example.com")
    _, raw = await sync_to_async(api_token_create)(user=user, name="t")
    limit = await sync_to_async(max_request_body_bytes)()
    # The largest call that can succeed stores the saga's whole artifact allowance, each
    # character possibly escaped in JSON, plus room for the plan and other fields.
    assert limit == 2 * 20 * 1_048_576 + 4 * 1_048_576
    # Only the head is sent: the answer comes without waiting for the body.
    status, headers, body = await _raw_post(
        http_server, _json_headers(raw, f"Content-Length: {limit + 1}"), []
    )
    assert status == 413
    assert body["error"] == {
        "code": "request_too_large",
        "message": f"The request body is larger than {limit} bytes.",
        "retryable": False,
        "recovery": "Send fewer or smaller artifacts per call.",
        "details": {"limit": limit},
    }
    assert len(headers["x-request-id"]) == 32


async def test_http_refuses_a_chunked_body_once_it_passes_the_limit(
    http_server, django_user_model, settings
):
    settings.SAGASMITH_SAGA_MAX_REQUEST_BYTES = 1000
    user = await sync_to_async(_create_user)(django_user_model, email="chunky@example.com")
    _, raw = await sync_to_async(api_token_create)(user=user, name="t")
    chunk = b"x" * 600
    # Two chunks (1200 bytes) and no final chunk: the server must stop counting at the limit.
    status, _headers, body = await _raw_post(
        http_server,
        _json_headers(raw, "Transfer-Encoding: chunked"),
        [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 2,
    )
    assert status == 413
    assert body["error"]["code"] == "request_too_large"
    assert body["error"]["details"] == {"limit": 1000}


async def test_http_serves_a_chunked_body_exactly_at_the_limit(
    http_server, django_user_model, settings
):
    import json

    user = await sync_to_async(_create_user)(django_user_model, email="fits@example.com")
    _, raw = await sync_to_async(api_token_create)(user=user, name="t")
    payload = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        }
    ).encode()
    settings.SAGASMITH_SAGA_MAX_REQUEST_BYTES = len(payload)
    half = len(payload) // 2
    status, _headers, body = await _raw_post(
        http_server,
        _json_headers(raw, "Transfer-Encoding: chunked"),
        [
            b"%x\r\n%s\r\n" % (half, payload[:half]),
            b"%x\r\n%s\r\n" % (len(payload) - half, payload[half:]),
            b"0\r\n\r\n",
        ],
    )
    assert status == 200
    assert (body["id"], body["result"]["serverInfo"]["name"]) == (7, "sagasmith-saga")


def test_a_content_length_of_non_ascii_digits_is_read_as_undeclared():
    import io

    from asgiref.sync import async_to_sync

    from apps.core.request_body import declared_length, receive_body

    async def receive():
        return {"type": "http.request", "body": b"{}", "more_body": False}

    # "²" is a digit to str.isdigit() but not a number int() reads.
    declared = declared_length([(b"content-length", "\u00b2".encode())])
    body = io.BytesIO()
    size = async_to_sync(receive_body)(receive, body, limit=10, seconds=5, declared=declared)
    assert (declared, size, body.getvalue()) == (None, 2, b"{}")
