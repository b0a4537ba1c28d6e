import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as dj_settings
from django.db import transaction
from django.utils import timezone

from apps.accounts.services import user_sessions_end
from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.dispatch import publish_events
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_dispatch_pending
from apps.rooms.consumers import (
    CLOSE_ACCESS_REVOKED,
    CLOSE_BAD_REQUEST,
    CLOSE_NOT_FOUND,
    CLOSE_TERMS_NOT_ACCEPTED,
    CLOSE_UNAUTHENTICATED,
)
from apps.rooms.models import Presence
from apps.rooms.services import room_message_post
from apps.turns.models import RoomTurnJob
from apps.turns.projections import state_changed_emit
from apps.turns.services.jobs import job_update_announced, job_view
from sagasmith_web.routing import build_application

from .factories import (
    ORIGIN,
    WebsocketCommunicator,
    change_role,
    make_campaign,
    remove_member,
    socket_app,
)

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_user):
    owner, p1 = make_user(), make_user()
    campaign, ms = make_campaign(owner, (p1, Role.PLAYER))
    return campaign, ms[0], ms[1]


async def open_socket(campaign, user, after=0, app=None):
    comm = WebsocketCommunicator(
        app or socket_app(), f"/ws/rooms/{campaign.id}/?after={after}", headers=[ORIGIN]
    )
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


async def frames_until_caught_up(comm):
    """Entries sent before `caught_up`; presence and hello frames are skipped."""
    seqs = []
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "entry":
            seqs.append(frame["entry"]["sequence"])
        elif frame["type"] == "caught_up":
            return seqs, frame["sequence"]


async def next_entries(comm, n):
    seqs = []
    while len(seqs) < n:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "entry":
            seqs.append(frame["entry"]["sequence"])
    return seqs


post = database_sync_to_async(
    lambda m, body, **kw: room_message_post(
        membership=m, body=body, mode="chat", client_message_id=body, **kw
    )[0]
)


async def test_denied_connections_close_with_documented_codes(memory_layer, table, make_user):
    campaign, owner, _ = table
    stranger = await database_sync_to_async(make_user)()
    app = build_application(None)
    # Full stack, no session cookie: anonymous.
    comm = WebsocketCommunicator(app, f"/ws/rooms/{campaign.id}/", headers=[ORIGIN])
    await comm.connect()
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_UNAUTHENTICATED
    # A foreign origin is refused before the consumer runs.
    comm = WebsocketCommunicator(
        app, f"/ws/rooms/{campaign.id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert connected is False
    comm = await open_socket(campaign, stranger)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_FOUND
    comm = await open_socket(campaign, owner.user, after="x")
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_BAD_REQUEST


async def test_a_member_with_newer_terms_to_accept_is_refused(memory_layer, table, settings):
    campaign, owner, _ = table
    settings.SAGASMITH_TERMS_VERSION = "a-newer-version"
    comm = await open_socket(campaign, owner.user)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_TERMS_NOT_ACCEPTED


async def _signed_in_cookie(client, user) -> str:
    """The Cookie header of a browser session signed in as `user`."""
    await database_sync_to_async(client.force_login)(user)
    return (
        f"{dj_settings.SESSION_COOKIE_NAME}={client.cookies[dj_settings.SESSION_COOKIE_NAME].value}"
    )


def _cookie_socket(campaign, cookie: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        build_application(None),
        f"/ws/rooms/{campaign.id}/",
        headers=[ORIGIN, (b"cookie", cookie.encode())],
    )


async def test_session_cookie_authenticates(memory_layer, table, client):
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)
    comm = _cookie_socket(campaign, cookie)
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=3)
    assert (hello["type"], hello["role"], hello["user_id"]) == (
        "hello",
        "owner",
        str(owner.user_id),
    )
    await comm.disconnect()


@pytest.mark.parametrize(
    ("host", "origin", "opens"),
    [
        (b"localhost:8000", b"http://localhost:8000", True),
        # Another port of an allowed host: another site's page, with the member's cookie.
        (b"localhost:8000", b"http://localhost:9999", False),
        (b"localhost", b"http://localhost:8000", False),
        (b"localhost", b"http://localhost", True),
        # A page of the plain-HTTP site for a room asked over TLS, as the CSRF check refuses.
        (b"localhost", b"https://localhost", False),
        (b"localhost:8000", b"https://play.example.test", True),  # CSRF_TRUSTED_ORIGINS
        (b"localhost:8000", b"https://eu.tables.example.test", True),  # a trusted wildcard
        (b"localhost:8000", b"http://eu.tables.example.test", False),  # ... on its scheme only
        (b"localhost:8000", b"https://tables.example.test.evil", False),
    ],
)
async def test_a_signed_in_socket_opens_only_from_the_rooms_own_origin(
    memory_layer, table, client, settings, host, origin, opens
):
    settings.ALLOWED_HOSTS = ["localhost", ".example.test", "tables.example.test.evil"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.test", "https://*.tables.example.test"]
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)
    comm = WebsocketCommunicator(
        build_application(None),
        f"/ws/rooms/{campaign.id}/",
        headers=[(b"host", host), (b"origin", origin), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect()
    assert connected is opens
    if connected:
        assert (await comm.receive_json_from(timeout=3))["type"] == "hello"
        await comm.disconnect()


async def test_behind_a_proxy_the_forwarded_host_is_the_rooms_own(
    memory_layer, table, client, settings
):
    settings.USE_X_FORWARDED_HOST = True
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)
    opened = []
    for origin in (b"http://localhost:8000", b"http://localhost:9999"):
        comm = WebsocketCommunicator(
            build_application(None),
            f"/ws/rooms/{campaign.id}/",
            headers=[(b"host", b"127.0.0.1:9000"), (b"x-forwarded-host", b"localhost:8000"),
                     (b"origin", origin), (b"cookie", cookie.encode())],
        )  # fmt: skip
        connected, _ = await comm.connect()
        opened.append(connected)
        if connected:
            await comm.disconnect()
    assert opened == [True, False]


@pytest.mark.parametrize(
    ("forwarded_proto", "origin", "opens"),
    [
        (b"https", b"https://localhost", True),
        (b"https", b"http://localhost", False),
        (b"http", b"https://localhost", False),
        (None, b"http://localhost", True),
    ],
)
async def test_behind_a_tls_proxy_the_scheme_is_the_one_it_forwards(
    memory_layer, table, client, settings, forwarded_proto, origin, opens
):
    """TLS ended at a proxy: the page's scheme is compared with the one it says the browser
    used, as `request.is_secure()` reads it for the HTTP API's CSRF check."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)
    headers = [(b"host", b"localhost"), (b"origin", origin), (b"cookie", cookie.encode())]
    if forwarded_proto is not None:
        headers.append((b"x-forwarded-proto", forwarded_proto))
    comm = WebsocketCommunicator(build_application(None), f"/ws/rooms/{campaign.id}/", headers)
    connected, _ = await comm.connect()
    assert connected is opens
    if connected:
        await comm.disconnect()


async def test_a_socket_asked_over_tls_opens_only_from_a_tls_page(
    memory_layer, table, client, settings
):
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)
    opened = []
    for origin in (b"https://localhost", b"http://localhost"):
        comm = WebsocketCommunicator(
            build_application(None), f"/ws/rooms/{campaign.id}/",
            [(b"host", b"localhost"), (b"origin", origin), (b"cookie", cookie.encode())],
        )  # fmt: skip
        comm.scope["scheme"] = "wss"
        connected, _ = await comm.connect()
        opened.append(connected)
        if connected:
            await comm.disconnect()
    assert opened == [True, False]


async def test_session_of_a_changed_password_does_not_authenticate(memory_layer, table, client):
    """The session-hash check holds on sockets too: a password change ends old sessions."""
    campaign, owner, _ = table
    cookie = await _signed_in_cookie(client, owner.user)

    def change_password():
        owner.user.set_password("a brand new passphrase")
        owner.user.save(update_fields=["password"])

    await database_sync_to_async(change_password)()
    comm = _cookie_socket(campaign, cookie)
    await comm.connect()
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_UNAUTHENTICATED


def _sign_out_everywhere(user):
    user_sessions_end(user=user)


def _deactivate(user):
    type(user).objects.filter(pk=user.pk).update(is_active=False)


def _change_password(user):
    user.set_password("a brand new passphrase")
    user.save(update_fields=["password"])


@pytest.mark.parametrize("end_session", [_sign_out_everywhere, _deactivate, _change_password])
async def test_heartbeat_closes_socket_whose_session_ended(
    memory_layer, table, client, settings, end_session
):
    settings.ROOMS_HEARTBEAT_SECONDS = 0.2
    campaign, owner, player = table
    cookie = await _signed_in_cookie(client, player.user)
    comm = _cookie_socket(campaign, cookie)
    assert (await comm.connect())[0]
    await frames_until_caught_up(comm)
    # A live session passes the check: the socket beats on.
    while (await comm.receive_json_from(timeout=3))["type"] != "heartbeat":
        pass
    watcher = await open_socket(campaign, owner.user)
    await frames_until_caught_up(watcher)

    await database_sync_to_async(end_session)(player.user)
    for _ in range(10):  # the next heartbeat closes it; each takes 0.2 s
        out = await comm.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            break
        assert json.loads(out["text"])["type"] in {"heartbeat", "presence"}
    assert (out["type"], out.get("code")) == ("websocket.close", CLOSE_UNAUTHENTICATED)

    # Published as the poller would: the owner receives it, the closed socket does not.
    await post(owner, "after the session ended")
    await publish_events(
        await database_sync_to_async(list)(OutboxEvent.objects.filter(event_type="room.entry"))
    )
    assert await next_entries(watcher, 1) == [1]
    assert await comm.receive_nothing(timeout=0.5)
    present = await database_sync_to_async(
        lambda: list(Presence.objects.values_list("user_id", flat=True))
    )()
    assert present == [owner.user_id]
    await comm.disconnect()
    await watcher.disconnect()


async def _outputs(comm) -> list:
    """What the socket was sent until it closes or goes quiet, presence aside: frames, a close's
    code. Every caller expects something, so the first of it is waited for in full: a loaded
    machine may take longer than the quiet window to deliver it."""
    outputs, closed = [], False
    while not closed and (not outputs or not await comm.receive_nothing(timeout=0.3)):
        out = await comm.receive_output(timeout=5)
        if closed := out["type"] == "websocket.close":
            outputs.append(out["code"])
        elif (frame := json.loads(out["text"]))["type"] != "presence":
            outputs.append(frame)
    return outputs


async def _publish_room_events_first():
    """Publish the room's entries and events before the access events, as another process's
    publisher may (hosted mode): each process publishes its own rows right after its commit."""
    events = await database_sync_to_async(
        lambda: list(OutboxEvent.objects.exclude(event_type="access.revoked").order_by("id"))
    )()
    await publish_events(events)


async def test_an_entry_written_after_a_removal_never_reaches_the_removed_socket(
    memory_layer, table
):
    campaign, owner, player = table
    comm = await open_socket(campaign, player.user)
    await frames_until_caught_up(comm)
    await database_sync_to_async(remove_member)(player)
    await post(owner, "Now that Pat is gone: the plan is...")
    await _publish_room_events_first()
    assert await _outputs(comm) == [
        {"type": "access.revoked", "reason": "removed"}, CLOSE_ACCESS_REVOKED,
    ]  # fmt: skip


async def test_a_gm_only_entry_written_after_a_demotion_never_reaches_the_demoted_socket(
    memory_layer, make_user
):
    owner, gm = await database_sync_to_async(lambda: (make_user(), make_user()))()
    campaign, ms = await database_sync_to_async(make_campaign)(owner, (gm, Role.GM))
    comm = await open_socket(campaign, gm)
    await frames_until_caught_up(comm)
    await database_sync_to_async(change_role)(ms[1], Role.PLAYER)
    await post(ms[0], "The lich waits behind the east door.", audience="gm")
    await post(ms[0], "The door creaks.")
    await _publish_room_events_first()
    outputs = await _outputs(comm)
    assert outputs[0] == {"type": "access.changed", "role": "player", "archived": False}
    assert [(o["type"], o["entry"]["body"]) for o in outputs[1:]] == [("entry", "The door creaks.")]


def _gm_only_action(owner):
    """The owner's GM-only action and its queued job, whose events go to the owner and the GMs."""
    message, _created = room_message_post(
        membership=owner, body="Ambush them at the ford.", mode="action", audience="gm",
        client_message_id="ambush",
    )  # fmt: skip
    return RoomTurnJob.objects.create(
        campaign_id=owner.campaign_id, requester=owner.user, trigger_message=message,
        idempotency_key="ambush", request_hash="0" * 64, text=message.body,
        trigger_audience="gm", available_at=timezone.now(),
    )  # fmt: skip


def _job_claimed(job):
    """The claim's write: the job runs, and its `turn.job` event says so."""
    with transaction.atomic():
        job_update_announced(
            job, {"status": "running", "attempt": 1, "worker": "w1", "updated_at": timezone.now()}
        )


async def _demoted_gm_and_owner(make_user, before=None):
    """A campaign with a second GM; sockets of that GM and of the owner, caught up; then the GM
    is made a player. Returns (owner membership, demoted socket, owner socket, before())."""
    owner, gm = await database_sync_to_async(lambda: (make_user(), make_user()))()
    campaign, ms = await database_sync_to_async(make_campaign)(owner, (gm, Role.GM))
    made = await database_sync_to_async(before)(ms[0]) if before else None
    demoted, stays = await open_socket(campaign, gm), await open_socket(campaign, owner)
    await frames_until_caught_up(demoted)
    await frames_until_caught_up(stays)
    await database_sync_to_async(change_role)(ms[1], Role.PLAYER)
    return ms[0], demoted, stays, made


async def test_a_gm_only_job_event_written_after_a_demotion_never_reaches_the_demoted_socket(
    memory_layer, make_user
):
    owner, demoted, stays, job = await _demoted_gm_and_owner(make_user, before=_gm_only_action)
    await database_sync_to_async(_job_claimed)(job)
    await _publish_room_events_first()
    assert await _outputs(demoted) == [
        {"type": "access.changed", "role": "player", "archived": False}
    ]
    assert [(o["type"], o["event_type"], o["payload"]) for o in await _outputs(stays)] == [
        ("event", "turn.job", job_view(job))
    ]


async def test_a_gm_only_state_change_written_after_a_demotion_never_reaches_the_demoted_socket(
    memory_layer, make_user
):
    owner, demoted, stays, _ = await _demoted_gm_and_owner(make_user)
    await database_sync_to_async(state_changed_emit)(
        campaign_id=owner.campaign_id, revision=3, scopes=["combat"], entity_ids=["ogre-1"],
        audience="gm",
    )  # fmt: skip
    await _publish_room_events_first()
    assert await _outputs(demoted) == [
        {"type": "access.changed", "role": "player", "archived": False}
    ]
    assert [(o["type"], o["event_type"], o["payload"]) for o in await _outputs(stays)] == [(
        "event", "state.changed", {"authority_revision": 3, "changed_scopes": ["combat"],
                                   "entity_ids": ["ogre-1"], "audience": "gm"},
    )]  # fmt: skip


async def test_a_demotion_first_read_by_a_catch_up_is_still_told_to_the_page(
    memory_layer, make_user
):
    owner, gm = await database_sync_to_async(lambda: (make_user(), make_user()))()
    campaign, ms = await database_sync_to_async(make_campaign)(owner, (gm, Role.GM))
    comm = await open_socket(campaign, gm)
    await frames_until_caught_up(comm)
    await database_sync_to_async(change_role)(ms[1], Role.PLAYER)
    await post(ms[0], "one")
    await post(ms[0], "two")
    # The second entry's wake-up comes first: its gap makes the socket catch up, reading the
    # new role before the demotion's own event arrives.
    events = await database_sync_to_async(lambda: list(OutboxEvent.objects.order_by("id")))()
    await publish_events([e for e in events if e.event_type == "room.entry"][1:])
    await publish_events([e for e in events if e.event_type == "access.revoked"])
    outputs = await _outputs(comm)
    assert [o if o["type"] != "entry" else o["entry"]["body"] for o in outputs] == [
        {"type": "access.changed", "role": "player", "archived": False},
        "one",
        "two",
        {"type": "caught_up", "sequence": 2},
    ]


async def test_a_member_who_stays_gets_the_entries_after_anothers_removal(memory_layer, table):
    campaign, owner, player = table
    comm = await open_socket(campaign, owner.user)
    await frames_until_caught_up(comm)
    await database_sync_to_async(remove_member)(player)
    await post(owner, "Onwards.")
    await _publish_room_events_first()
    outputs = await _outputs(comm)
    assert [(o["type"], o["entry"]["body"]) for o in outputs] == [("entry", "Onwards.")]


async def test_removal_closes_socket_on_redis(redis_layer, table):
    campaign, owner, player = table
    comm = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(comm) == ([], 0)
    await database_sync_to_async(remove_member)(player)
    while True:
        out = await comm.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            break
        last = out
    assert (last["text"], out["code"]) == (
        '{"type": "access.revoked", "reason": "removed"}',
        CLOSE_ACCESS_REVOKED,
    )
    # Reconnecting is refused, and the owner's socket never saw the revocation.
    comm = await open_socket(campaign, player.user)
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_FOUND


async def test_resume_after_gap_on_redis(redis_layer, table):
    campaign, owner, player = table
    comm = await open_socket(campaign, player.user)
    await frames_until_caught_up(comm)
    await post(owner, "one")
    await post(owner, "two")
    assert await next_entries(comm, 2) == [1, 2]
    await comm.disconnect()
    await post(owner, "three")
    await post(owner, "secret", audience="gm")
    await post(owner, "five")
    comm = await open_socket(campaign, player.user, after=2)
    assert await frames_until_caught_up(comm) == ([3, 5], 5)
    # A lost wake-up: publish nothing for six, then seven arrives and exposes the gap.
    real = dispatch.publishes_on_commit
    dispatch.publishes_on_commit = lambda: False
    try:
        await post(owner, "six")
    finally:
        dispatch.publishes_on_commit = real
    await post(owner, "seven")
    assert await next_entries(comm, 2) == [6, 7]
    assert await comm.receive_json_from() == {"type": "caught_up", "sequence": 7}
    assert await comm.receive_nothing(timeout=0.3)
    # At-least-once: republishing everything is harmless.
    await database_sync_to_async(OutboxEvent.objects.update)(dispatched_at=None)
    await database_sync_to_async(outbox_dispatch_pending)()
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


async def test_heartbeat_reconciles_lost_wakeup(memory_layer, table, settings):
    settings.ROOMS_HEARTBEAT_SECONDS = 0.2
    campaign, owner, player = table
    comm = await open_socket(campaign, player.user)
    await frames_until_caught_up(comm)
    await post(owner, "nobody publishes this")  # in-memory layer, no poller: nothing is sent
    frames = []
    while not frames or frames[-1]["type"] != "heartbeat":
        frames.append(await comm.receive_json_from(timeout=3))
    assert [f["entry"]["sequence"] for f in frames if f["type"] == "entry"] == [1]
    await comm.disconnect()


async def test_presence_join_and_leave(memory_layer, table):
    campaign, owner, player = table
    a = await open_socket(campaign, owner.user)
    await frames_until_caught_up(a)
    b = await open_socket(campaign, player.user)
    await frames_until_caught_up(b)
    seen = []
    while True:
        frame = await a.receive_json_from(timeout=3)
        if frame["type"] == "presence":
            seen = sorted(u["id"] for u in frame["users"])
            if len(seen) == 2:
                break
    assert seen == sorted([str(owner.user_id), str(player.user_id)])
    await b.disconnect()
    while True:
        frame = await a.receive_json_from(timeout=3)
        if frame["type"] == "presence":
            break
    assert [u["id"] for u in frame["users"]] == [str(owner.user_id)]
    await a.disconnect()
    await asyncio.sleep(0)


async def test_send_to_departed_client_leaves_groups_and_presence(redis_layer, table, monkeypatch):
    """A send that fails because the client went away ends the consumer as a disconnect would."""
    from apps.rooms.consumers import RoomConsumer
    from apps.rooms.models import Presence

    campaign, owner, player = table
    real_send = RoomConsumer.send

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.user.pk == player.user_id and json.loads(text_data or "{}").get("type") == "entry":
            raise OSError("client disconnected")  # what uvicorn raises once the client is gone
        return await real_send(self, text_data, bytes_data, close)

    monkeypatch.setattr(RoomConsumer, "send", send)
    a = await open_socket(campaign, owner.user)
    await frames_until_caught_up(a)
    b = await open_socket(campaign, player.user)
    await frames_until_caught_up(b)

    async def presence_becomes(users):
        seen = None
        while seen != users:
            frame = await a.receive_json_from(timeout=3)
            if frame["type"] == "presence":
                seen = sorted(u["id"] for u in frame["users"])

    await presence_becomes(sorted([str(owner.user_id), str(player.user_id)]))
    await post(owner, "first")  # the player's consumer fails on its first live entry
    await presence_becomes([str(owner.user_id)])
    present = await database_sync_to_async(
        lambda: sorted(Presence.objects.values_list("user_id", flat=True))
    )()
    assert present == [owner.user_id]
    await a.disconnect()
    await b.wait(timeout=3)


async def test_signing_out_everywhere_else_closes_the_other_sockets_at_once(
    memory_layer, table, client, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = 60  # not the heartbeat: the sign-out's own event
    campaign, owner, player = table
    cookie = await _signed_in_cookie(client, player.user)
    comm = _cookie_socket(campaign, cookie)
    assert (await comm.connect())[0]
    await frames_until_caught_up(comm)
    await database_sync_to_async(user_sessions_end)(user=player.user)
    (event,) = await database_sync_to_async(list)(
        OutboxEvent.objects.filter(event_type="access.revoked")
    )
    assert (event.campaign_id, event.payload, event.audience) == (
        campaign.id,
        {"user_id": str(player.user_id), "reason": "signed_out"},
        {"users": [str(player.user_id)]},
    )
    await database_sync_to_async(outbox_dispatch_pending)()
    out = await comm.receive_output(timeout=3)
    while out["type"] != "websocket.close":
        assert json.loads(out["text"])["type"] == "presence", out
        out = await comm.receive_output(timeout=3)
    assert out.get("code") == CLOSE_UNAUTHENTICATED


async def test_signing_out_closes_that_sessions_sockets_at_once(
    memory_layer, table, client, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = 60  # not the heartbeat: the sign-out's own event
    campaign, owner, player = table
    cookie = await _signed_in_cookie(client, player.user)
    comm = _cookie_socket(campaign, cookie)
    assert (await comm.connect())[0]
    await frames_until_caught_up(comm)
    response = await database_sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code == 302
    await database_sync_to_async(outbox_dispatch_pending)()
    assert await _outputs(comm) == [CLOSE_UNAUTHENTICATED]


async def test_a_sessionless_end_announces_nothing(memory_layer, table):
    _, _, player = table
    assert await database_sync_to_async(user_sessions_end)(user=player.user) == 0
    assert not await database_sync_to_async(OutboxEvent.objects.exists)()


@pytest.mark.parametrize("frame", [{"text": "not json"}, {"bytes": b"\x00\x01"}])
async def test_a_frame_that_is_no_json_is_ignored_and_the_socket_lives_on(
    memory_layer, table, frame
):
    campaign, owner, _ = table
    comm = await open_socket(campaign, owner.user)
    await frames_until_caught_up(comm)
    await comm.send_input({"type": "websocket.receive", **frame})
    await comm.send_input({"type": "websocket.receive", "text": json.dumps({"type": "ping"})})
    while (reply := await comm.receive_json_from(timeout=3))["type"] == "presence":
        pass
    assert reply == {"type": "pong"}
    await comm.disconnect()


async def test_a_cursor_past_the_rooms_last_entry_is_brought_back_to_it(memory_layer, table):
    """A page that asks to start after an entry the room never had (a hand-made URL, a room
    reset) is still sent what is written next."""
    campaign, owner, _player = table
    await post(owner, "First.")
    comm = await open_socket(campaign, owner.user, after=100)
    assert await frames_until_caught_up(comm) == ([], 1)
    await post(owner, "Second.")
    await _publish_room_events_first()
    assert await next_entries(comm, 1) == [2]
