"""A room page whose viewer has entries to read says they are loading until the socket brings
them, instead of "No messages yet. Say hello to the table." over a busy room; a room with none
for them says so at once."""

import pytest

from apps.campaigns.models import CampaignMembership
from apps.rooms.services import room_message_post

from .factories import make_campaign

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db

EMPTY = (
    '<p class="timeline__empty muted" id="timeline-empty"{}>'
    "No messages yet. Say hello to the table.</p>"
)
LOADING = (
    '<p class="timeline__empty muted" id="timeline-loading" role="status">Loading messages…</p>'
)


@pytest.fixture
def table(make_user):
    gm, p1, p2 = (make_user() for _ in range(3))
    campaign, ms = make_campaign(gm, (p1, Role.PLAYER), (p2, Role.PLAYER))
    return campaign, dict(zip(["gm", "p1", "p2"], ms, strict=True))


def page(client, campaign, membership) -> str:
    client.force_login(membership.user)
    return client.get(f"/campaigns/{campaign.id}/room/").content.decode()


def test_an_empty_room_says_so_at_once(table, client):
    campaign, m = table
    html = page(client, campaign, m["p1"])
    assert EMPTY.format("") in html
    assert 'id="timeline-loading"' not in html


def test_a_room_with_entries_for_the_viewer_says_they_are_loading(table, client):
    campaign, m = table
    room_message_post(membership=m["p1"], body="hi", mode="chat", client_message_id="c1")
    html = page(client, campaign, m["p2"])
    assert EMPTY.format(" hidden") in html
    assert LOADING in html


def test_entries_the_viewer_may_not_read_leave_the_room_empty_to_them(table, client):
    campaign, m = table
    room_message_post(
        membership=m["gm"], body="psst", mode="chat", client_message_id="c1",
        audience="private", recipient_ids=[m["p1"].user_id],
    )  # fmt: skip
    html = page(client, campaign, m["p2"])
    assert EMPTY.format("") in html
    assert 'id="timeline-loading"' not in html
    assert LOADING in page(client, campaign, m["p1"])


def test_the_page_reads_the_viewers_entries_once_to_open_the_room(table, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.rooms.models import Message

    campaign, m = table
    room_message_post(membership=m["p1"], body="hi", mode="chat", client_message_id="c1")
    client.force_login(m["p2"].user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/campaigns/{campaign.id}/room/").status_code == 200
    table_name = f'FROM "{Message._meta.db_table}"'
    assert len([q for q in queries if table_name in q["sql"]]) == 1


@pytest.mark.parametrize("viewer", ["gm", "p2"])  # the GM's page lists the members to address
def test_the_pages_queries_do_not_grow_with_the_rooms_entries_or_members(
    table, client, make_user, viewer
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    campaign, m = table
    room_message_post(membership=m["p1"], body="hi", mode="chat", client_message_id="c0")

    def queries() -> list[str]:
        client.force_login(m[viewer].user)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/campaigns/{campaign.id}/room/").status_code == 200
        return [q["sql"] for q in captured]

    small = queries()
    for _ in range(3):
        CampaignMembership.objects.create(campaign=campaign, user=make_user(), role=Role.PLAYER)
    for n in range(1, 20):
        room_message_post(
            membership=m["p1"], body=f"line {n}", mode="chat", client_message_id=f"c{n}"
        )
    larger = queries()
    assert len(larger) == len(small)
