"""Changes of who may read a room, against what is written beside them: sign-outs of users who
share campaigns do not lock each other out, and a replay filters with the access that holds
for every entry it returns."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection, connections

from apps.accounts.models import UserSession
from apps.accounts.services import user_sessions_end
from apps.campaigns.models import Campaign, CampaignMembership
from apps.rooms import selectors, signals
from apps.rooms.services import room_message_post

from .factories import change_role, make_campaign

Role = CampaignMembership.Role


@pytest.mark.django_db(transaction=True)
def test_two_users_signing_out_everywhere_at_once_do_not_deadlock(make_user, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks: its writers queue")
    owner, u1, u2 = make_user(), make_user(), make_user()
    a = Campaign.objects.create(name="A", system_id="dnd5e", owner=owner)
    b = Campaign.objects.create(name="B", system_id="dnd5e", owner=owner)
    # Joined in opposite orders: each sign-out announces its campaigns in the other order.
    for user, first, second in ((u1, a, b), (u2, b, a)):
        CampaignMembership.objects.create(campaign=first, user=user, role=Role.PLAYER)
        time.sleep(0.01)
        CampaignMembership.objects.create(campaign=second, user=user, role=Role.PLAYER)
        UserSession.objects.create(user=user, session_key=f"k{user.pk}"[:40])
    barrier = threading.Barrier(2, timeout=5)
    announce = signals.member_access_changed
    calls = threading.local()

    def both_past_their_first(**kwargs):
        announce(**kwargs)
        if not getattr(calls, "done", False):
            calls.done = True
            barrier.wait()

    monkeypatch.setattr(signals, "member_access_changed", both_past_their_first)
    errors = []

    def sign_out(user):
        try:
            user_sessions_end(user=user)
        except OperationalError as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sign_out, args=(u,)) for u in (u1, u2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


@pytest.mark.django_db
def test_a_replay_does_not_filter_an_entry_written_after_a_demotion_with_the_old_role(
    make_user, monkeypatch
):
    owner, gm = make_user(), make_user()
    campaign, ms = make_campaign(owner, (gm, Role.GM))
    room_message_post(membership=ms[0], body="hello", mode="chat", client_message_id="a")
    read = selectors.membership_for

    def read_then_a_demotion_and_a_secret(**kwargs):
        # Committed by other requests between the replay's reads.
        membership = read(**kwargs)
        change_role(ms[1], Role.PLAYER)
        room_message_post(membership=ms[0], body="The lich is behind the east door.",
                          mode="chat", audience="gm", client_message_id="b")  # fmt: skip
        return membership

    monkeypatch.setattr(selectors, "membership_for", read_then_a_demotion_and_a_secret)
    replay = selectors.room_replay_for_viewer(campaign_id=campaign.id, user=gm, after=0)
    assert [e["body"] for e in replay.entries] == ["hello"]
