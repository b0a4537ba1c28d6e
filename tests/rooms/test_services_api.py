import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.campaigns.models import CampaignMembership
from apps.core.errors import Conflict, PermissionDenied, ValidationFailed
from apps.projections.models import OutboxEvent
from apps.rooms.models import Message, ReadCursor, Room
from apps.rooms.selectors import MAX_PAGE, message_visible_to, room_messages_for_viewer
from apps.rooms.services import room_event_record, room_mark_read, room_message_post

from .factories import make_campaign

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    owner, gm, p1, p2, obs = (make_user() for _ in range(5))
    campaign, ms = make_campaign(
        owner, (gm, Role.GM), (p1, Role.PLAYER), (p2, Role.PLAYER), (obs, Role.OBSERVER)
    )
    return campaign, dict(zip(["owner", "gm", "p1", "p2", "obs"], ms, strict=True))


def post(m, body="hi", cmid=None, **kw):
    post.n = getattr(post, "n", 0) + 1
    return room_message_post(
        membership=m,
        body=body,
        mode=kw.pop("mode", "chat"),
        client_message_id=cmid or f"cmid-{post.n}",
        **kw,
    )


def test_sequences_are_consecutive_and_outbox_written_with_entry(table):
    campaign, m = table
    a, _ = post(m["p1"])
    b, _ = post(m["gm"], mode="narration", audience="gm")
    c = room_event_record(campaign=campaign, event_type="phase.changed", data={"phase": "combat"})
    assert [a.sequence, b.sequence, c.sequence] == [1, 2, 3]
    assert Room.objects.get(campaign=campaign).last_sequence == 3
    rows = list(OutboxEvent.objects.filter(campaign_id=campaign.id).order_by("id"))
    assert [(r.event_type, r.payload["sequence"], r.audience) for r in rows] == [
        ("room.entry", 1, "public"),
        ("room.entry", 2, "gm"),
        ("room.entry", 3, "public"),
    ]


def test_resubmission_with_same_client_id_returns_first(table):
    _, m = table
    first, created = post(m["p1"], body="roll", cmid="abc-123")
    again, created_again = post(m["p1"], body="roll", cmid="abc-123")
    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert Message.objects.count() == 1
    with pytest.raises(Conflict) as err:
        post(m["p1"], body="different", cmid="abc-123")
    assert err.value.code == "client_message_id_reused"
    # Another sender may use the same client id: uniqueness is per sender.
    other, created_other = post(m["p2"], body="roll", cmid="abc-123")
    assert (created_other, other.sequence) == (True, 2)


@pytest.mark.parametrize(
    ("who", "kw", "error", "code"),
    [
        ("p1", {"mode": "narration"}, PermissionDenied, "narration_gm_only"),
        ("p1", {"audience": "gm"}, PermissionDenied, "audience_gm_only"),
        ("obs", {}, PermissionDenied, "observer"),
        ("gm", {"mode": "shout"}, ValidationFailed, "invalid_mode"),
        ("gm", {"body": "   "}, ValidationFailed, "invalid_body"),
        # Only invisible characters (a zero-width space and joiner, a BOM) show nothing.
        ("gm", {"body": " \u200b\u200d\ufeff "}, ValidationFailed, "invalid_body"),
        ("gm", {"audience": "private"}, ValidationFailed, "invalid_recipients"),
        (
            "gm",
            {"recipient_ids": ["00000000-0000-0000-0000-000000000001"]},
            ValidationFailed,
            "invalid_recipients",
        ),
    ],
)
def test_denials_write_nothing(table, who, kw, error, code):
    campaign, m = table
    with pytest.raises(error) as err:
        post(m[who], **kw)
    assert err.value.code == code
    assert (Message.objects.count(), OutboxEvent.objects.count()) == (0, 0)


def test_an_observer_is_told_to_ask_the_owner_who_alone_changes_roles(table):
    campaign, m = table
    with pytest.raises(PermissionDenied) as err:
        post(m["obs"])
    assert (err.value.code, err.value.recovery) == (
        "observer",
        "Ask the campaign's owner to make you a player.",
    )


def test_private_recipients_must_be_active_members_at_most_32(table, make_user):
    campaign, m = table
    outsider = make_user()
    with pytest.raises(ValidationFailed) as err:
        post(m["gm"], audience="private", recipient_ids=[outsider.id])
    assert err.value.details == {
        "fields": {"recipients": ["Every recipient must be an active member of this campaign."]},
        "not_members": [str(outsider.id)],
    }
    too_many = [m["p1"].user_id] * 1 + [make_user().id for _ in range(32)]
    with pytest.raises(ValidationFailed):
        post(m["gm"], audience="private", recipient_ids=too_many)
    msg, _ = post(m["gm"], audience="private", recipient_ids=[m["p1"].user_id, m["p1"].user_id])
    assert [link.user_id for link in msg.recipient_links.all()] == [m["p1"].user_id]


def test_visibility_per_role(table):
    _, m = table
    pub, _ = post(m["p1"])
    gm_only, _ = post(m["gm"], audience="gm")
    to_p1, _ = post(m["gm"], audience="private", recipient_ids=[m["p1"].user_id])
    expected = {
        "owner": [1, 2, 3],
        "gm": [1, 2, 3],
        "p1": [1, 3],
        "p2": [1],
        "obs": [1],
    }
    room = pub.room
    for who, seqs in expected.items():
        got = [x.sequence for x in room_messages_for_viewer(room=room, viewer_membership=m[who])]
        assert got == seqs, who
        assert [
            x for x in (pub, gm_only, to_p1) if message_visible_to(message=x, membership=m[who])
        ] == [x for x in (pub, gm_only, to_p1) if x.sequence in seqs]


def test_list_query_count_is_constant(table):
    _, m = table
    for i in range(5):
        post(
            m["gm"],
            audience="private",
            recipient_ids=[m["p1"].user_id, m["p2"].user_id],
            body=f"n{i}",
        )
    room = Room.objects.get()
    with CaptureQueriesContext(connection) as ctx:
        rows = room_messages_for_viewer(room=room, viewer_membership=m["p1"])
        [r.recipient_links.all()[0].user.label for r in rows]
    # entries (with sender), recipient links, recipient users: independent of the row count.
    assert (len(rows), len(ctx.captured_queries)) == (5, 3)


def test_mark_read_moves_forward_only(table):
    _, m = table
    for _ in range(3):
        post(m["p1"])
    assert room_mark_read(membership=m["p2"], sequence=3) == 3
    assert room_mark_read(membership=m["p2"], sequence=1) == 3
    with pytest.raises(ValidationFailed):
        room_mark_read(membership=m["p2"], sequence=4)
    assert ReadCursor.objects.get(user_id=m["p2"].user_id).last_read_sequence == 3


# --- HTTP API ------------------------------------------------------------------------------


def url(campaign, tail="messages"):
    return f"/api/campaigns/{campaign.id}/room/{tail}"


def test_api_post_list_and_idempotent_replay(table, api_client):
    campaign, m = table
    api_client.force_authenticate(m["p1"].user)
    r = api_client.post(
        url(campaign),
        {"body": "I open the door"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-00000001",
    )
    assert (r.status_code, r.data["sequence"], r.data["client_message_id"]) == (
        201,
        1,
        "key-00000001",
    )
    again = api_client.post(
        url(campaign),
        {"body": "I open the door"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-00000001",
    )
    assert (again.status_code, again["Idempotent-Replay"], again.data["id"]) == (
        201,
        "true",
        r.data["id"],
    )
    assert Message.objects.count() == 1
    api_client.force_authenticate(m["gm"].user)
    api_client.post(
        url(campaign),
        {"body": "secret", "audience": "gm", "mode": "narration"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-00000002",
    )
    api_client.post(
        url(campaign),
        {"body": "psst", "audience": "private", "recipients": [str(m["p1"].user_id)]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-00000003",
    )
    api_client.force_authenticate(m["p1"].user)
    page = api_client.get(url(campaign), {"after": 0, "limit": 1}).data
    assert ([e["sequence"] for e in page["results"]], page["next_after"], page["has_more"]) == (
        [1],
        1,
        True,
    )
    page = api_client.get(url(campaign), {"after": 1}).data
    assert ([e["sequence"] for e in page["results"]], page["has_more"]) == ([3], False)
    assert page["results"][0]["recipients"] == [
        {"id": str(m["p1"].user_id), "name": m["p1"].user.label}
    ]
    api_client.force_authenticate(m["p2"].user)
    assert [e["sequence"] for e in api_client.get(url(campaign)).data["results"]] == [1]


def test_api_errors(table, api_client, make_user):
    campaign, m = table
    api_client.force_authenticate(make_user())
    assert api_client.get(url(campaign)).status_code == 404
    api_client.force_authenticate(m["p1"].user)
    r = api_client.post(
        url(campaign),
        {"body": "x", "mode": "narration"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-00000009",
    )
    assert (r.status_code, r.data["error"]["code"]) == (403, "narration_gm_only")
    r = api_client.post(url(campaign), {"body": "x"}, format="json")
    assert (r.status_code, r.data["error"]["code"]) == (400, "idempotency_key_required")
    assert Message.objects.count() == 0
    r = api_client.post(url(campaign, "read"), {"sequence": 0}, format="json")
    assert r.data == {"last_read_sequence": 0}


def test_api_400s_name_the_field_to_fix(table, api_client, make_user):
    # The recovery says "Correct the highlighted fields": details.fields must name them.
    campaign, m = table
    outsider = make_user()
    api_client.force_authenticate(m["gm"].user)
    cases = [
        ({"body": "psst", "audience": "private"}, "invalid_recipients", "recipients",
         "A private message needs 1 to 32 recipients."),
        ({"body": "psst", "recipients": [str(m["p1"].user_id)]}, "invalid_recipients",
         "recipients", "Recipients are only allowed for a private audience."),
        ({"body": "psst", "audience": "private", "recipients": [str(outsider.id)]},
         "invalid_recipients", "recipients",
         "Every recipient must be an active member of this campaign."),
        ({"body": "roll 1d4", "mode": "action", "recipients": [str(m["p1"].user_id)]},
         "invalid_audience", "recipients",
         "An action goes to everyone or to the GM only, not to chosen members."),
        ({"body": "roll 1d4", "mode": "action", "audience": "private"}, "invalid_audience",
         "audience", "An action goes to everyone or to the GM only."),
    ]  # fmt: skip
    for n, (body, code, field, problem) in enumerate(cases):
        r = api_client.post(
            url(campaign), body, format="json", HTTP_IDEMPOTENCY_KEY=f"key-field-{n}"
        )
        assert (r.status_code, r.data["error"]["code"]) == (400, code), body
        assert r.data["error"]["details"]["fields"] == {field: [problem]}, body
    r = api_client.post(url(campaign, "read"), {"sequence": 5}, format="json")
    assert (r.status_code, r.data["error"]["code"], r.data["error"]["details"]) == (
        400,
        "invalid_sequence",
        {"fields": {"sequence": ["That sequence is not in this room."]}},
    )
    assert Message.objects.count() == 0


def test_api_paging_back_keeps_after_as_its_lower_bound(table, api_client):
    campaign, m = table
    for _ in range(6):
        post(m["p1"])
    api_client.force_authenticate(m["p2"].user)

    def page(**params):
        data = api_client.get(url(campaign), params).data
        return [e["sequence"] for e in data["results"]], data["has_more"]

    # A gap between two known sequences: only what lies between them.
    assert page(after=2, before=6) == ([3, 4, 5], False)
    assert page(after=2, before=6, limit=2) == ([4, 5], True)
    assert page(before=6, limit=2) == ([4, 5], True)
    assert page(after=5, before=6) == ([], False)


def test_room_page(table, client, make_user):
    campaign, m = table
    client.force_login(make_user())
    assert client.get(f"/campaigns/{campaign.id}/room/").status_code == 404
    client.force_login(m["gm"].user)
    r = client.get(f"/campaigns/{campaign.id}/room/")
    html = r.content.decode()
    assert r.status_code == 200
    assert 'id="character-card"' in html and 'id="phase-panel"' in html
    assert 'value="narration"' in html and 'id="audience-picker"' in html
    client.force_login(m["p1"].user)
    html = client.get(f"/campaigns/{campaign.id}/room/").content.decode()
    assert 'value="narration"' not in html and 'id="audience-picker"' not in html


def test_an_archived_campaigns_room_is_read_only_on_the_page(table, client):
    campaign, m = table
    type(campaign).objects.filter(pk=campaign.pk).update(status="archived")
    client.force_login(m["gm"].user)
    html = client.get(f"/campaigns/{campaign.id}/room/").content.decode()
    assert 'id="composer"' not in html
    assert "This campaign is archived: its room can be read, not posted to." in html
    # Its empty timeline does not invite anyone to post.
    assert '<p class="timeline__empty muted" id="timeline-empty">No messages yet.</p>' in html


def test_post_statements_in_its_transaction(table):
    campaign, m = table
    first, _created = post(m["p1"])  # creates the room
    assert (first.sequence, first.room_id) == (1, Room.objects.get(campaign=campaign).pk)
    membership = m["gm"]
    membership.user  # noqa: B018  (the caller holds the user, as the API does)
    with CaptureQueriesContext(connection) as ctx:
        message, _created = post(membership, body="the door creaks")
    sql = [q["sql"].split()[0].upper() for q in ctx.captured_queries]
    # The counter (UPDATE ... RETURNING), the entry and its outbox row: one statement on
    # PostgreSQL, three elsewhere. The rest is the transaction itself.
    expected = ["WITH"] if connection.vendor == "postgresql" else ["UPDATE"] + ["INSERT"] * 2
    assert [s for s in sql if s not in ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")] == expected
    # Both rows are written as the ORM would have written them.
    stored = Message.objects.get(pk=message.pk)
    assert (stored.sequence, stored.body, stored.created_at) == (
        2,
        "the door creaks",
        message.created_at,
    )
    event = OutboxEvent.objects.get(payload__id=str(message.pk))
    assert (event.event_type, event.audience, event.payload["created_at"]) == (
        "room.entry", "public", message.created_at.isoformat(),
    )  # fmt: skip
    # The sequence the statement took is the one the entry, its outbox row and the caller hold.
    assert (message.sequence, message.room_id, event.payload["sequence"]) == (
        2, first.room_id, 2,
    )  # fmt: skip


def test_api_has_more_at_the_maximum_page_size(table, api_client):
    campaign, m = table
    room = Room.objects.create(campaign=campaign, last_sequence=MAX_PAGE + 2)
    rows = [
        Message(room=room, sequence=n, mode="chat", audience="public", body=f"n{n}")
        for n in range(1, MAX_PAGE + 2)
    ]
    # The last entry is GM-only: a player's second page ends before it.
    rows.append(
        Message(room=room, sequence=MAX_PAGE + 2, mode="narration", audience="gm", body="secret")
    )
    Message.objects.bulk_create(rows)
    api_client.force_authenticate(m["p1"].user)
    page = api_client.get(url(campaign), {"after": 0, "limit": MAX_PAGE}).data
    assert (len(page["results"]), page["results"][-1]["sequence"]) == (MAX_PAGE, MAX_PAGE)
    assert (page["next_after"], page["has_more"]) == (MAX_PAGE, True)
    page = api_client.get(url(campaign), {"after": MAX_PAGE, "limit": MAX_PAGE}).data
    assert ([e["sequence"] for e in page["results"]], page["next_after"], page["has_more"]) == (
        [MAX_PAGE + 1],
        MAX_PAGE + 1,
        False,
    )


def test_api_posts_are_limited_per_user_and_reads_are_not(table, api_client, monkeypatch):
    from django.core.cache import cache

    from apps.core.throttling import WriteScopedRateThrottle

    cache.clear()
    monkeypatch.setattr(WriteScopedRateThrottle, "THROTTLE_RATES", {"messages": "2/min"})
    campaign, m = table
    api_client.force_authenticate(m["p1"].user)

    def post(n):
        return api_client.post(
            url(campaign), {"body": f"line {n}"}, format="json",
            HTTP_IDEMPOTENCY_KEY=f"limit-{n:08d}",
        )  # fmt: skip

    assert [post(n).status_code for n in range(2)] == [201, 201]
    limited = post(2)
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "throttled"
    assert 0 < int(limited["Retry-After"]) <= 60
    assert api_client.get(url(campaign)).status_code == 200
    assert Message.objects.count() == 2
    # Another player's posts are their own.
    api_client.force_authenticate(m["p2"].user)
    assert post(3).status_code == 201


def test_a_window_holding_all_the_viewer_may_read_leaves_nothing_earlier_to_load(table):
    from apps.rooms.selectors import RoomOpening, room_opening_for

    campaign, m = table
    for n in range(1, 6):
        post(m["gm"] if n < 3 else m["p1"], body=f"m{n}",
             **({"audience": "gm"} if n < 3 else {}))  # fmt: skip
    room = Room.objects.get(campaign=campaign)
    # p1 reads 3, 4 and 5: the GM's notes before them are no history to load.
    assert room_opening_for(room=room, viewer_membership=m["p1"], window=3) == RoomOpening(0, True)
    assert room_opening_for(room=room, viewer_membership=m["gm"], window=3) == RoomOpening(2, True)


def test_the_room_page_opens_on_the_newest_entries_and_pages_back(table, api_client, client):
    from apps.rooms.selectors import RoomOpening, room_opening_for

    campaign, m = table
    for n in range(1, 8):
        post(m["gm"] if n in (3, 6) else m["p1"], body=f"m{n}",
             **({"audience": "gm"} if n in (3, 6) else {}))  # fmt: skip
    room = Room.objects.get(campaign=campaign)
    # The window counts the entries the viewer may see: p1 sees 1, 2, 4, 5, 7.
    assert room_opening_for(room=room, viewer_membership=m["p1"], window=3) == RoomOpening(3, True)
    assert room_opening_for(room=room, viewer_membership=m["gm"], window=3) == RoomOpening(4, True)
    assert room_opening_for(room=room, viewer_membership=m["p1"], window=9) == RoomOpening(0, True)
    api_client.force_authenticate(m["p1"].user)
    page = api_client.get(url(campaign), {"before": 4, "limit": 1}).data
    assert ([e["sequence"] for e in page["results"]], page["has_more"]) == ([2], True)
    page = api_client.get(url(campaign), {"before": 7, "limit": 10}).data
    assert ([e["sequence"] for e in page["results"]], page["has_more"]) == ([1, 2, 4, 5], False)
    client.force_login(m["p1"].user)
    html = client.get(f"/campaigns/{campaign.id}/room/").content.decode()
    assert '"startAfter": 0' in html and 'id="timeline-earlier"' in html


def test_presence_lists_each_person_once_by_name(table):
    from django.utils import timezone

    from apps.rooms.models import Presence
    from apps.rooms.services import presence_list, room_get_or_create

    campaign, m = table
    room = room_get_or_create(campaign=campaign)
    names = {"gm": "Morgan", "p1": "ash", "p2": "Briar"}
    for key, name in names.items():
        m[key].user.display_name = name
        m[key].user.save(update_fields=["display_name"])
    sockets = [("gm", "a"), ("p1", "b"), ("p2", "c"), ("p1", "d")]  # ash in two tabs
    for key, channel in sockets:
        Presence.objects.create(
            room=room, user=m[key].user, channel_name=channel, last_seen=timezone.now()
        )
    assert [p["name"] for p in presence_list(room_id=room.id)] == ["ash", "Briar", "Morgan"]


def test_the_room_names_its_phase_by_its_label(table, client):
    campaign, m = table
    type(campaign).objects.filter(pk=campaign.pk).update(phase="short_rest")
    client.force_login(m["gm"].user)
    html = client.get(f"/campaigns/{campaign.id}/room/").content.decode()
    assert '<span class="badge badge--phase">Short rest</span>' in html
    assert "short_rest" not in html.split('id="phase-panel"')[1].split("</section>")[0]
