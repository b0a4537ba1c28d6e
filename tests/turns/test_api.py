"""Turn API: post an action, stale revision, read and cancel jobs, the panel, artifacts."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.campaigns.models import Campaign
from apps.core.models import IdempotencyRecord
from apps.projections.models import OutboxEvent
from apps.quota.models import Reservation
from apps.rooms.models import Message
from apps.turns.models import RoomMediaArtifact, RoomTurnJob

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_post_action_then_get_job(dnd_room, eager, turn_urls, django_capture_on_commit_callbacks):
    room = dnd_room
    url = f"/api/campaigns/{room.campaign.id}/room/actions"
    client = client_for(room.player)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {"body": "roll 2d6 for luck", "base_revision": room.campaign.authority_revision},
            format="json",
            HTTP_IDEMPOTENCY_KEY="api-action-0001",
        )
    assert response.status_code == 202, response.content
    job_id = response.json()["id"]
    assert response.json()["status"] == "queued"
    detail = client.get(f"/api/campaigns/{room.campaign.id}/room/jobs/{job_id}")
    assert detail.status_code == 200
    body = detail.json()
    assert (body["status"], body["attempt"], body["charged"], body["error"], body["text"]) == (
        "succeeded",
        1,
        2,
        None,
        "roll 2d6 for luck",
    )
    # The GM may read it; an outsider gets 404.
    assert (
        client_for(room.gm).get(f"/api/campaigns/{room.campaign.id}/room/jobs/{job_id}").status_code
        == 200
    )  # noqa: E501
    replay = client.post(
        url,
        {"body": "roll 2d6 for luck", "base_revision": room.campaign.authority_revision},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-action-0001",
    )
    assert (replay.status_code, replay.json()["id"]) == (200, job_id)


TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


@pytest.mark.parametrize("incoming", [TRACEPARENT, "", "not-a-traceparent"])
def test_a_turn_carries_one_trace_from_its_request_to_the_domain(
    dnd_room, eager, turn_urls, django_capture_on_commit_callbacks, incoming
):
    """The request's W3C traceparent (a new trace when it has none, or a malformed one) is
    stored on the job and sent with every domain call of the turn, which echoes it."""
    import re

    from apps.turns.models import Operation

    room = dnd_room
    headers = {"HTTP_TRACEPARENT": incoming} if incoming else {}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(room.player).post(
            f"/api/campaigns/{room.campaign.id}/room/actions", {"body": "roll 1d20"},
            format="json", HTTP_IDEMPOTENCY_KEY="traced-1", **headers,
        )  # fmt: skip
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert job.status == "succeeded"
    if incoming == TRACEPARENT:
        assert job.traceparent == TRACEPARENT
    else:
        assert re.fullmatch(r"00-[0-9a-f]{32}-[0-9a-f]{16}-00", job.traceparent)
        assert job.traceparent[3:35] != "0" * 32
    (op,) = Operation.objects.filter(job=job)
    assert op.result["_meta"]["traceparent"] == job.traceparent


def test_stale_revision_is_409_and_nothing_changed(dnd_room, turn_urls, make_user):
    room = dnd_room
    before = (
        Message.objects.count(),
        RoomTurnJob.objects.count(),
        Reservation.objects.count(),
        OutboxEvent.objects.count(),
        room.domain_revision(),
    )
    loaded = room.campaign.authority_revision
    # The room moves on after the player loaded it (another turn published).
    Campaign.objects.filter(pk=room.campaign.pk).update(authority_revision=loaded + 2)
    response = _act(room, room.player, "api-action-stale", base_revision=loaded)
    error = response.json()["error"]
    # Not retryable: the same request names the same passed revision.
    assert (response.status_code, error["code"], error["retryable"]) == (
        409, "stale_revision", False
    )  # fmt: skip
    ahead = _act(room, room.player, "api-action-ahead", base_revision=loaded + 40)
    error = ahead.json()["error"]
    newer = f"Revision {loaded + 40} is newer than the campaign's ({loaded + 2})."
    assert (ahead.status_code, error["code"], error["message"]) == (
        400, "invalid_revision", newer
    )  # fmt: skip
    after = (
        Message.objects.count(),
        RoomTurnJob.objects.count(),
        Reservation.objects.count(),
        OutboxEvent.objects.count(),
        room.domain_revision(),
    )
    assert after == before
    outsider = make_user("out@example.test")
    denied = client_for(outsider).post(
        f"/api/campaigns/{room.campaign.id}/room/actions",
        {"body": "roll 1d20"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-action-outsider",
    )
    assert denied.status_code == 404


def test_cancel_api(dnd_room, turn_urls, django_capture_on_commit_callbacks):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        response = client_for(room.player).post(
            f"/api/campaigns/{room.campaign.id}/room/actions",
            {"body": "roll 1d20"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="api-action-cancel",
        )
    job_id = response.json()["id"]
    url = f"/api/campaigns/{room.campaign.id}/room/jobs/{job_id}/cancel"
    cancelled = client_for(room.player).post(url)
    assert (cancelled.status_code, cancelled.json()["status"]) == (200, "cancelled")
    assert (
        Reservation.objects.get(pk=RoomTurnJob.objects.get(pk=job_id).reservation_id).status
        == "released"
    )  # noqa: E501


def test_combat_panel_hides_monster_hp_from_players(
    dnd_room, eager, turn_urls, client, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(room.gm).post(
            f"/api/campaigns/{room.campaign.id}/room/actions",
            {"body": "start combat with goblin"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="api-combat-start",
        )
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert job.status == "succeeded", (job.error_code, job.error_message)
    room.campaign.refresh_from_db()
    assert room.campaign.phase == "combat"
    gm_panel = client_for(room.gm).get(f"/api/campaigns/{room.campaign.id}/room/panel").json()
    player_panel = (
        client_for(room.player).get(f"/api/campaigns/{room.campaign.id}/room/panel").json()
    )
    assert (gm_panel["audience"], player_panel["audience"]) == ("gm", "players")
    gm_goblin = gm_panel["panels"]["combat"]["data"]["combat"]["order"][0]["character"]
    player_goblin = player_panel["panels"]["combat"]["data"]["combat"]["order"][0]["character"]
    assert gm_goblin["kind"] == "monster" and gm_goblin["hp"]["current"] == gm_goblin["hp"]["max"]
    assert player_goblin["kind"] == "monster" and "hp" not in player_goblin
    assert player_goblin["status"] == "unhurt"
    assert gm_panel["panels"]["combat"]["revision"] == room.campaign.authority_revision
    # The rendered grid is a private artifact per audience.
    image = player_panel["panels"]["grid"]["data"]["images"][0]
    assert image["mime_type"] == "image/svg+xml"
    client.force_login(room.player)
    served = client.get(image["url"])
    assert served.status_code == 200
    assert served["Content-Type"] == "image/svg+xml"
    assert served.content.startswith(b"<svg")
    gm_image = gm_panel["panels"]["grid"]["data"]["images"][0]
    assert RoomMediaArtifact.objects.get(pk=gm_image["artifact_id"]).audience == "gm"
    assert client.get(gm_image["url"]).status_code == 404  # a player is outside "gm"


def test_an_action_is_accepted_and_announced_when_the_broker_is_down(
    dnd_room, turn_urls, monkeypatch, django_capture_on_commit_callbacks
):
    """The job is committed before it is enqueued: a broker fault leaves it queued for the
    recovery sweep, and the player still gets 202 and the room its events."""
    from apps.projections.dispatch import publisher

    room = dnd_room
    published = []

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr("apps.turns.services.jobs.enqueue_run", broker_down)
    monkeypatch.setattr(publisher, "submit", lambda events: published.extend(events))
    monkeypatch.setattr("apps.projections.dispatch.publishes_on_commit", lambda: True)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(room.player).post(
            f"/api/campaigns/{room.campaign.id}/room/actions", {"body": "roll 1d20"},
            format="json", HTTP_IDEMPOTENCY_KEY="broker-down-1",
        )  # fmt: skip
    assert response.status_code == 202, response.content
    assert RoomTurnJob.objects.get(pk=response.json()["id"]).status == "queued"
    assert sorted(event.event_type for event in published) == ["room.entry", "turn.job"]


def _act(room, user, key, body="roll 1d20", **fields):
    return client_for(user).post(
        f"/api/campaigns/{room.campaign.id}/room/actions", {"body": body, **fields},
        format="json", HTTP_IDEMPOTENCY_KEY=key,
    )  # fmt: skip


def test_an_action_short_of_credits_holds_what_is_left_and_runs(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks
):
    from apps.quota.services import quota_account_for, quota_reserve

    room = dnd_room
    available = quota_account_for(user=room.player).balance
    quota_reserve(user=room.player, amount=available - 1, key="elsewhere", owner_type="test")
    # The last credit still buys a turn (ending one's turn must never be out of reach); it is
    # charged no more than was held.
    with django_capture_on_commit_callbacks(execute=True):
        response = _act(room, room.player, "api-action-last-credit")
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert (job.status, job.reservation.amount, job.charged) == ("succeeded", 1, 1)
    refused = _act(room, room.player, "api-action-poor")
    assert refused.status_code == 402
    assert refused.json()["error"] == {
        "code": "quota_exceeded",
        "message": (
            f"You have no credits free: {available - 1} are held by your actions in progress."
        ),
        "retryable": False,
        "recovery": "Wait for your actions in progress to finish, or see your usage at /usage/.",
        "details": {"balance": 0, "held": available - 1, "needed": 5},
    }
    assert RoomTurnJob.objects.count() == 1


def test_an_action_with_no_credits_and_none_held_says_to_ask_for_more(dnd_room, turn_urls):
    from apps.quota.models import QuotaAccount
    from apps.quota.services import quota_account_for

    room = dnd_room
    account = quota_account_for(user=room.player)
    QuotaAccount.objects.filter(pk=account.pk).update(balance=0)
    response = _act(room, room.player, "api-action-broke")
    assert response.status_code == 402
    error = response.json()["error"]
    assert error["message"] == "You are out of credits: an action needs at least one."
    assert error["recovery"] == (
        "Ask staff for a quota grant or wait for your plan's next grant; your usage is at /usage/."
    )


def test_an_action_posted_as_a_message_is_a_turn(dnd_room, turn_urls):
    room = dnd_room
    url = f"/api/campaigns/{room.campaign.id}/room/messages"
    client = client_for(room.player)
    response = client.post(
        url, {"body": "roll 1d20", "mode": "action"}, format="json",
        HTTP_IDEMPOTENCY_KEY="api-message-action-1",
    )  # fmt: skip
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert (job.status, job.text, job.trigger_message.mode) == ("queued", "roll 1d20", "action")
    private = client_for(room.gm).post(
        url,
        {"body": "roll 1d20", "mode": "action", "audience": "private",
         "recipients": [str(room.player.id)]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-message-action-2",
    )  # fmt: skip
    error = private.json()["error"]
    assert (private.status_code, error["code"], error["recovery"]) == (
        400, "invalid_audience", "Send private words as a chat message."
    )  # fmt: skip
    on_actions = client_for(room.gm).post(
        f"/api/campaigns/{room.campaign.id}/room/actions",
        {"body": "roll 1d20", "audience": "private"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-message-action-3",
    )
    error = on_actions.json()["error"]
    assert (on_actions.status_code, error["code"], error["details"]["fields"]) == (
        400, "invalid_request", {"audience": [
            "An action goes to everyone (public) or to the GM only (gm); send private words as "
            "a chat message."
        ]},
    )  # fmt: skip
    assert RoomTurnJob.objects.count() == 1


def test_one_key_is_one_request_on_the_messages_endpoint_whichever_mode(dnd_room, turn_urls):
    room = dnd_room
    url = f"/api/campaigns/{room.campaign.id}/room/messages"
    client = client_for(room.player)
    acted = client.post(url, {"body": "roll 1d6", "mode": "action"}, format="json",
                        HTTP_IDEMPOTENCY_KEY="api-both-modes-1")  # fmt: skip
    chatted = client.post(url, {"body": "hello"}, format="json",
                          HTTP_IDEMPOTENCY_KEY="api-both-modes-1")  # fmt: skip
    assert (acted.status_code, chatted.status_code, chatted.json()["error"]["code"]) == (
        202, 409, "idempotency_conflict"
    )  # fmt: skip
    chat = client.post(url, {"body": "hello"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="api-both-modes-2")  # fmt: skip
    act = client.post(url, {"body": "roll 1d6", "mode": "action"}, format="json",
                      HTTP_IDEMPOTENCY_KEY="api-both-modes-2")  # fmt: skip
    assert (chat.status_code, act.status_code, act.json()["error"]["code"]) == (
        201, 409, "idempotency_conflict"
    )  # fmt: skip
    assert (RoomTurnJob.objects.count(), Message.objects.filter(body="hello").count()) == (1, 1)


def test_one_key_is_one_request_when_chat_and_action_arrive_at_once(
    dnd_room, turn_urls, monkeypatch
):
    # Each mode's look at the other's store ran before the other request committed (two
    # requests at once): the key must still go to one of them only.
    monkeypatch.setattr("apps.rooms.apis.turn_key_used", lambda **kwargs: False)
    room = dnd_room
    url = f"/api/campaigns/{room.campaign.id}/room/messages"
    client = client_for(room.player)
    acted = client.post(url, {"body": "roll 1d6", "mode": "action"}, format="json",
                        HTTP_IDEMPOTENCY_KEY="api-at-once-1")  # fmt: skip
    chatted = client.post(url, {"body": "hello"}, format="json",
                          HTTP_IDEMPOTENCY_KEY="api-at-once-1")  # fmt: skip
    assert (acted.status_code, chatted.status_code, chatted.json()["error"]["code"]) == (
        202, 409, "idempotency_conflict"
    )  # fmt: skip
    chat = client.post(url, {"body": "hello"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="api-at-once-2")  # fmt: skip
    act = client.post(url, {"body": "roll 1d6", "mode": "action"}, format="json",
                      HTTP_IDEMPOTENCY_KEY="api-at-once-2")  # fmt: skip
    assert (chat.status_code, act.status_code, act.json()["error"]["code"]) == (
        201, 409, "idempotency_conflict"
    )  # fmt: skip
    # Each first request still replays as itself.
    again = client.post(url, {"body": "roll 1d6", "mode": "action"}, format="json",
                        HTTP_IDEMPOTENCY_KEY="api-at-once-1")  # fmt: skip
    assert (again.status_code, again.json()["id"]) == (200, acted.json()["id"])
    assert (RoomTurnJob.objects.count(), Message.objects.filter(body="hello").count()) == (1, 1)


def test_one_key_is_one_request_across_the_rooms_two_posting_endpoints(dnd_room, turn_urls):
    # A chat on room/messages and an action on room/actions share the user's keys: a key is
    # refused for the other request whichever endpoint took it first, and nothing is written.
    room = dnd_room
    messages = f"/api/campaigns/{room.campaign.id}/room/messages"
    actions = f"/api/campaigns/{room.campaign.id}/room/actions"
    client = client_for(room.player)
    chat = client.post(messages, {"body": "hello"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="api-two-ends-1")  # fmt: skip
    before = (Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count())
    act = client.post(actions, {"body": "roll 1d6"}, format="json",
                      HTTP_IDEMPOTENCY_KEY="api-two-ends-1")  # fmt: skip
    assert (chat.status_code, act.status_code, act.json()["error"]) == (201, 409, {
        "code": "idempotency_conflict",
        "message": "This Idempotency-Key was already used for a different request.",
        "retryable": False,
        "recovery": "Use a new Idempotency-Key for a different request.",
        "details": {"key": "api-two-ends-1"},
    })  # fmt: skip
    assert RoomTurnJob.objects.count() == 0
    assert (
        Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count()
    ) == before  # fmt: skip
    chat_again = client.post(messages, {"body": "hello"}, format="json",
                             HTTP_IDEMPOTENCY_KEY="api-two-ends-1")  # fmt: skip
    # The original response, as stored.
    assert (chat_again.status_code, chat_again["Idempotent-Replay"], chat_again.json()) == (
        201, "true", chat.json()
    )  # fmt: skip

    act = client.post(actions, {"body": "roll 1d6"}, format="json",
                      HTTP_IDEMPOTENCY_KEY="api-two-ends-2")  # fmt: skip
    chat = client.post(messages, {"body": "hi"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="api-two-ends-2")  # fmt: skip
    assert (act.status_code, chat.status_code, chat.json()["error"]["code"]) == (
        202, 409, "idempotency_conflict"
    )  # fmt: skip
    act_again = client.post(actions, {"body": "roll 1d6"}, format="json",
                            HTTP_IDEMPOTENCY_KEY="api-two-ends-2")  # fmt: skip
    assert (act_again.status_code, act_again["Idempotent-Replay"], act_again.json()) == (
        200, "true", act.json()
    )  # fmt: skip
    assert (RoomTurnJob.objects.count(), Message.objects.filter(body="hi").count()) == (1, 0)


def test_one_key_is_one_request_when_a_chat_and_a_room_action_arrive_at_once(
    dnd_room, turn_urls, monkeypatch
):
    # The chat's look for a job with its key ran before the action on room/actions committed:
    # the key must still go to the action only.
    monkeypatch.setattr("apps.rooms.apis.turn_key_used", lambda **kwargs: False)
    room = dnd_room
    client = client_for(room.player)
    act = client.post(f"/api/campaigns/{room.campaign.id}/room/actions", {"body": "roll 1d6"},
                      format="json", HTTP_IDEMPOTENCY_KEY="api-at-once-actions")  # fmt: skip
    chat = client.post(f"/api/campaigns/{room.campaign.id}/room/messages", {"body": "hello"},
                       format="json", HTTP_IDEMPOTENCY_KEY="api-at-once-actions")  # fmt: skip
    assert (act.status_code, chat.status_code, chat.json()["error"]["code"]) == (
        202, 409, "idempotency_conflict"
    )  # fmt: skip
    assert (RoomTurnJob.objects.count(), Message.objects.filter(body="hello").count()) == (1, 0)


MALFORMED_ACTIONS = [
    ({}, {"body": ["This field is required."]}),
    ({"body": ["roll", "1d6"]}, {"body": ["Not a valid string."]}),
    ({"body": "roll 1d6", "base_revision": "latest"},
     {"base_revision": ["A valid integer is required."]}),
    ({"body": "   "}, {"body": ["This field may not be blank."]}),
    # A misspelt field is refused, not ignored: this one would have gone to everyone.
    ({"body": "roll 1d6", "audiance": "gm"}, {"audiance": ["Unknown field."]}),
    ({"bdy": "roll 1d6"}, {"body": ["This field is required."], "bdy": ["Unknown field."]}),
]  # fmt: skip


def _refused_whatever_the_key(room, endpoint: str, sent: dict, refusal: dict) -> None:
    """`sent` is answered with `refusal` (400) under a fresh key, a key a successful action
    used and a key a chat message used: the same answer, no replay, nothing written, and each
    key as free or as taken as before."""
    url = f"/api/campaigns/{room.campaign.id}/room/{endpoint}"
    extra = {"mode": "action"} if endpoint == "messages" else {}
    client = client_for(room.player)
    acted = client.post(url, {"body": "roll 1d6", **extra}, format="json",
                        HTTP_IDEMPOTENCY_KEY="api-malformed-acted")  # fmt: skip
    chatted = client.post(f"/api/campaigns/{room.campaign.id}/room/messages", {"body": "hi"},
                          format="json", HTTP_IDEMPOTENCY_KEY="api-malformed-chatted")  # fmt: skip
    assert (acted.status_code, chatted.status_code) == (202, 201)
    counts = lambda: (  # noqa: E731
        Message.objects.count(), RoomTurnJob.objects.count(), Reservation.objects.count(),
        OutboxEvent.objects.count(), IdempotencyRecord.objects.count(),
    )  # fmt: skip
    before = counts()
    for key in ("api-malformed-fresh", "api-malformed-acted", "api-malformed-chatted"):
        refused = client.post(url, {**sent, **extra}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        replayed = refused.has_header("Idempotent-Replay")
        assert (key, refused.status_code, refused.json(), replayed) == (
            key, 400, {"error": refusal}, False
        )  # fmt: skip
    assert counts() == before
    fresh = client.post(url, {"body": "roll 1d4", **extra}, format="json",
                        HTTP_IDEMPOTENCY_KEY="api-malformed-fresh")  # fmt: skip
    acted_again = client.post(url, {"body": "roll 1d6", **extra}, format="json",
                              HTTP_IDEMPOTENCY_KEY="api-malformed-acted")  # fmt: skip
    assert (fresh.status_code, acted_again.status_code, acted_again.json()) == (
        202, 200, acted.json()
    )  # fmt: skip


@pytest.mark.parametrize("endpoint", ["actions", "messages"])
@pytest.mark.parametrize(("sent", "fields"), MALFORMED_ACTIONS)
def test_a_malformed_action_is_400_whatever_its_key(dnd_room, turn_urls, endpoint, sent, fields):
    # The input serializer refuses it before the key is looked up.
    refusal = {
        "code": "invalid_request",
        "message": "The request has invalid fields.",
        "retryable": False,
        "recovery": "Fix the fields named in details.fields and send the request again.",
        "details": {"fields": fields},
    }
    _refused_whatever_the_key(dnd_room, endpoint, sent, refusal)


def test_an_action_to_chosen_members_is_400_whatever_its_key(dnd_room, turn_urls):
    # Refused for what the body says, so a key a chat message took does not make it a 409.
    problem = "An action goes to everyone or to the GM only, not to chosen members."
    refusal = {
        "code": "invalid_audience",
        "message": problem,
        "retryable": False,
        "recovery": "Send private words as a chat message.",
        "details": {"fields": {"recipients": [problem]}},
    }
    sent = {"body": "roll 1d6", "recipients": [str(dnd_room.gm.id)]}
    _refused_whatever_the_key(dnd_room, "messages", sent, refusal)


def test_a_refused_action_leaves_its_key_free_on_the_messages_endpoint(dnd_room, turn_urls):
    room = dnd_room
    url = f"/api/campaigns/{room.campaign.id}/room/messages"
    client = client_for(room.player)
    stale = client.post(url, {"body": "roll 1d6", "mode": "action", "base_revision": 0},
                        format="json", HTTP_IDEMPOTENCY_KEY="api-refused-1")  # fmt: skip
    assert (stale.status_code, stale.json()["error"]["code"]) == (409, "stale_revision")
    chat = client.post(url, {"body": "hello"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="api-refused-1")  # fmt: skip
    assert chat.status_code == 201, chat.content


def test_a_chat_id_cannot_take_an_action_keys_place(dnd_room, turn_urls):
    room = dnd_room
    client = client_for(room.player)
    chat = client.post(
        f"/api/campaigns/{room.campaign.id}/room/messages",
        {"body": "x", "client_message_id": "turn:api-later-action"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-chat-reserved",
    )
    reserved = "Ids starting with 'turn:' or 'turn#' are reserved for actions."
    assert (chat.status_code, chat.json()["error"]["details"]["fields"]) == (
        400, {"client_message_id": [reserved]}
    )  # fmt: skip
    action = client.post(
        f"/api/campaigns/{room.campaign.id}/room/actions",
        {"body": "roll 1d4"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-later-action",
    )
    assert action.status_code == 202, action.content


def test_a_replay_answers_after_the_character_was_unbound(dnd_room, turn_urls):
    from apps.campaigns.services.characters import binding_remove
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    pip = _fighter(room, room.player, "Pip")
    url = f"/api/campaigns/{room.campaign.id}/room/actions"
    body = {"body": "roll 1d4", "character_id": pip.character_id}
    client = client_for(room.player)
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="api-unbound-replay")
    binding_remove(
        campaign=room.campaign, actor=room.gm, user=room.player, character_id=pip.character_id
    )
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="api-unbound-replay")
    assert (first.status_code, again.status_code, again["Idempotent-Replay"]) == (
        202, 200, "true"
    )  # fmt: skip
    assert again.json()["id"] == first.json()["id"]
    fresh = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="api-unbound-new")
    assert (fresh.status_code, fresh.json()["error"]["code"]) == (400, "invalid_character")


def test_a_replay_answers_after_the_gm_who_sent_a_secret_fact_was_made_a_player(
    live_domains, gm, player, make_user, turn_urls
):
    """A GM's "… gm only" goes to the GMs; made a player before their client retries the same
    request, they get the first job back, not a 409 for a "different" action."""
    import uuid

    from apps.campaigns.services.campaigns import campaign_create
    from apps.campaigns.services.membership import membership_change_role
    from apps.rooms.services import room_get_or_create
    from tests.campaigns.conftest import join

    co_gm = make_user("cogm@example.test")
    campaign = campaign_create(
        owner=gm, name="Fog", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    room_get_or_create(campaign=campaign)
    url = f"/api/campaigns/{campaign.id}/room/actions"
    body = {"body": "record fact The ferryman is a ghost gm only"}
    client = client_for(co_gm)
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="api-secret-fact")
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="player")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="api-secret-fact")
    assert (first.status_code, again.status_code, again.json()["id"]) == (
        202, 200, first.json()["id"]
    )  # fmt: skip
    assert RoomTurnJob.objects.get().trigger_audience == "gm"


def test_a_player_back_in_the_campaign_is_told_how_to_get_their_characters_back(
    dnd_room, turn_urls, client
):
    from apps.campaigns.services.membership import membership_leave
    from tests.campaigns.conftest import join
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    _fighter(room, room.player, "Pip")
    page = f"/campaigns/{room.campaign.id}/room/"
    client.force_login(room.player)
    hint = "You played Pip here before: ask the GM to bind"
    assert hint not in client.get(page).content.decode()
    membership_leave(campaign=room.campaign, user=room.player)
    join(room.campaign, room.gm, room.player)
    html = client.get(page).content.decode()
    assert f"{hint} Pip to you again, or create a new character." in html
    # The campaign page, where characters are made, says so too.
    detail = client.get(f"/campaigns/{room.campaign.id}/").content.decode()
    assert f"{hint} Pip to you again, or create a new character." in detail


def test_a_character_the_gm_unbound_from_a_player_who_stayed_is_not_offered_back(
    dnd_room, turn_urls, client
):
    from apps.campaigns.services.characters import binding_remove
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    pip = _fighter(room, room.player, "Pip")
    binding_remove(
        campaign=room.campaign, actor=room.gm, user=room.player, character_id=pip.character_id
    )
    client.force_login(room.player)
    html = client.get(f"/campaigns/{room.campaign.id}/room/").content.decode()
    assert "No character is bound to you" in html
    assert "here before" not in html


def test_a_player_with_two_characters_is_asked_which_acts(dnd_room, turn_urls, client):
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    client.force_login(room.player)
    page = f"/campaigns/{room.campaign.id}/room/"
    first = _fighter(room, room.player, "Thorin")
    assert 'id="composer-character"' not in client.get(page).content.decode()
    second = _fighter(room, room.player, "Pip")
    html = client.get(page).content.decode()
    assert (
        f'<option value="{first.character_id}">Thorin</option>'
        f'<option value="{second.character_id}">Pip</option>'
    ) in html
    response = client_for(room.player).post(
        f"/api/campaigns/{room.campaign.id}/room/messages",
        {"body": "check athletics dc 10", "mode": "action", "character_id": second.character_id},
        format="json",
        HTTP_IDEMPOTENCY_KEY="api-act-as-pip",
    )
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert job.character_id == second.character_id
    # The room reads which of the player's characters acts.
    assert job.trigger_message.data == {
        "character_id": second.character_id,
        "character_name": "Pip",
        "sender_role": "player",
    }


def test_an_archived_room_says_so_before_any_revision_and_errors_say_what_to_do(
    dnd_room, turn_urls
):
    from apps.campaigns.services.campaigns import campaign_archive

    room = dnd_room
    loaded = room.campaign.authority_revision
    Campaign.objects.filter(pk=room.campaign.pk).update(authority_revision=loaded + 1)
    campaign_archive(campaign=Campaign.objects.get(pk=room.campaign.pk), actor=room.gm)
    response = _act(room, room.player, "api-archived-stale", base_revision=loaded)
    error = response.json()["error"]
    assert (response.status_code, error["code"], error["recovery"]) == (
        409, "archived",
        "An archived campaign's story stays readable; start a new one to play on.",
    )  # fmt: skip
    missing = client_for(room.player).get(
        f"/api/campaigns/{room.campaign.id}/room/jobs/00000000-0000-0000-0000-000000000000"
    )
    assert (missing.status_code, missing.json()["error"]["recovery"]) == (
        404,
        "Check the id in the address; what it names may have been deleted, or you may not have "
        "access to it.",
    )
    paging = client_for(room.player).get(
        f"/api/campaigns/{room.campaign.id}/room/messages?limit=100000"
    )
    error = paging.json()["error"]
    assert (paging.status_code, list(error["details"]["fields"]), error["recovery"]) == (
        400, ["limit"], "Fix the query parameters named in details.fields and ask again."
    )  # fmt: skip


def test_a_revision_the_room_has_not_caught_up_with_is_read_back(dnd_room, turn_urls):
    room = dnd_room
    domain = room.domain_revision()
    # A turn committed on the domain and waits to be published: the room lags by one.
    Campaign.objects.filter(pk=room.campaign.pk).update(authority_revision=domain - 1)
    response = _act(room, room.player, "api-action-lagging", base_revision=domain)
    assert response.status_code == 202, response.content
    assert Campaign.objects.get(pk=room.campaign.pk).authority_revision == domain


def test_a_chat_key_may_not_take_an_actions_client_id(dnd_room, turn_urls):
    room = dnd_room
    chat = client_for(room.player).post(
        f"/api/campaigns/{room.campaign.id}/room/messages",
        {"body": "hello"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="turn:api-later-act",
    )
    assert (chat.status_code, chat.json()["error"]["code"]) == (400, "idempotency_key_invalid")


def test_the_panel_shows_the_card_of_the_character_one_acts_as(dnd_room, turn_urls):
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    first = _fighter(room, room.player, "Thorin")
    second = _fighter(room, room.player, "Pip")
    stranger = _fighter(room, room.gm, "Brann")
    url = f"/api/campaigns/{room.campaign.id}/room/panel"
    client = client_for(room.player)
    cards = [
        client.get(url, {"character": chosen} if chosen else {}).json()["character"]["name"]
        for chosen in ("", second.character_id, first.character_id, stranger.character_id)
    ]
    # Left out or not theirs: their first.
    assert cards == ["Thorin", "Pip", "Thorin", "Thorin"]


def test_the_panel_is_503_while_the_card_s_server_is_down(dnd_room, turn_urls, monkeypatch):
    from apps.domains.errors import DomainUnavailable
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    _fighter(room, room.player, "Thorin")

    def down(**kwargs):
        raise DomainUnavailable("The dnd5e server could not be reached.")

    monkeypatch.setattr("apps.turns.panels.domain_call", down)
    response = client_for(room.player).get(f"/api/campaigns/{room.campaign.id}/room/panel")
    # The schema lists it (tests/core/test_schema.py): a client can plan for it.
    assert (response.status_code, response.json()["error"]["code"]) == (503, "domain_unavailable")
    assert response.json()["error"]["retryable"] is True


def test_the_jobs_list_shows_the_oldest_fifty_and_says_when_there_are_more(dnd_room):
    from apps.quota.services import quota_account_for, quota_grant
    from tests.turns.test_jobs import submit

    room = dnd_room
    quota_grant(account=quota_account_for(user=room.player), amount=1000, source="staff")
    jobs = [submit(room, room.player, key=f"queued-{n:02}")[0] for n in range(51)]
    url = f"/api/campaigns/{room.campaign.id}/room/jobs"

    listed = client_for(room.gm).get(url).json()
    assert [job["id"] for job in listed["results"]] == [str(job.id) for job in jobs[:50]]
    assert listed["has_more"] is True
    panel = client_for(room.gm).get(f"/api/campaigns/{room.campaign.id}/room/panel").json()
    assert ([job["id"] for job in panel["jobs"]], panel["jobs_has_more"]) == (
        [str(job.id) for job in jobs[:50]],
        True,
    )

    RoomTurnJob.objects.filter(pk=jobs[0].pk).update(status=RoomTurnJob.Status.CANCELLED)
    listed = client_for(room.player).get(url).json()
    assert ([job["id"] for job in listed["results"]], listed["has_more"]) == (
        [str(job.id) for job in jobs[1:]],
        False,
    )
