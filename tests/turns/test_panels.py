"""The per-viewer room panel against live domain servers: whose view each viewer is served."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import CampaignMembership
from apps.domains.client import domain_call, principal_for
from apps.turns.models import ProjectionSnapshot
from apps.turns.panels import panel_for_viewer
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def _facts(panel: dict) -> list[str]:
    return [fact["text"] for fact in panel["panels"]["scene"]["data"]["facts"]]


def test_a_players_private_fact_is_never_served_to_another_player(live_domains, gm, make_user):
    from apps.campaigns.services.campaigns import campaign_create

    alice, bob = make_user("alice@example.test"), make_user("bob@example.test")
    campaign = campaign_create(
        owner=gm, name="Fog", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )
    join(campaign, gm, alice)
    join(campaign, gm, bob)
    revision = domain_call(
        system_id="narrative", tool="campaign_get", arguments={}, requester=gm,
        campaign_id=str(campaign.id),
    ).authority_revision  # fmt: skip
    domain_call(
        system_id="narrative",
        tool="fact_add",
        arguments={
            "text": "Only Alice knows the key is under the rug.",
            "audience": f"player:{principal_for(alice)}",
            "expected_revision": revision,
            "idempotency_key": uuid.uuid4().hex,
        },
        requester=gm,
        campaign_id=str(campaign.id),
    )

    def panel(user) -> dict:
        membership = CampaignMembership.objects.get(campaign=campaign, user=user)
        return panel_for_viewer(membership=membership)

    # Alice opens the room first, so her view is stored; Bob's is his own all the same.
    alice_panel, bob_panel, gm_panel = panel(alice), panel(bob), panel(gm)
    assert _facts(alice_panel) == ["Only Alice knows the key is under the rug."]
    assert _facts(bob_panel) == []
    assert _facts(gm_panel) == ["Only Alice knows the key is under the rug."]
    assert (alice_panel["audience"], bob_panel["audience"], gm_panel["audience"]) == (
        "players", "players", "gm",
    )  # fmt: skip
    # Served again from the rows, each still gets their own.
    assert (_facts(panel(bob)), _facts(panel(alice))) == (
        [], ["Only Alice knows the key is under the rug."],
    )  # fmt: skip
    audiences = set(
        ProjectionSnapshot.objects.filter(campaign=campaign, scope="scene").values_list(
            "audience", flat=True
        )
    )
    assert audiences == {"gm", f"user:{alice.pk}", f"user:{bob.pk}"}


def test_a_fact_refreshes_every_story_panel_with_one_read(live_domains, gm, request):
    from apps.campaigns.models import Campaign
    from apps.campaigns.services.authority import authority_write
    from apps.campaigns.services.campaigns import campaign_create
    from apps.turns.projections import projection_apply, projection_reads

    campaign = campaign_create(
        owner=gm, name="Fog", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )
    membership = CampaignMembership.objects.get(campaign=campaign, user=gm)
    panel_for_viewer(membership=membership)  # every row stored at the current revision
    before = Campaign.objects.get(pk=campaign.pk)
    result = authority_write(
        campaign=campaign, tool="fact_add", requester=gm, key="fact-1",
        arguments={"text": "The bridge is out.", "audience": "public"},
    )  # fmt: skip
    reads = request.getfixturevalue("panel_reads")
    refresh = projection_reads(
        campaign=before, receipts=[result.structured["receipt"]], requester=gm
    )
    assert reads == ["story_get"]  # three panels, one read
    assert sorted(read.scope for read in refresh.reads) == ["clocks", "scene", "threads"]
    projection_apply(campaign=before, refresh=refresh)
    reads.clear()
    after = panel_for_viewer(membership=membership)
    assert reads == []
    for key in ("scene", "threads", "clocks"):
        assert [f["text"] for f in after["panels"][key]["data"]["facts"]] == ["The bridge is out."]


def test_the_card_asked_for_is_the_one_served_even_with_its_sheet_private(dnd_room):
    """Acting as Brann (bound without his private sheet) beside Pip (her own): the card is
    Brann's, limited, never Pip's sheet in his place."""
    from apps.campaigns.services.characters import binding_set
    from apps.turns.panels import panel_for_viewer
    from tests.turns.test_jobs import _fighter

    room = dnd_room
    _fighter(room, room.player, "Pip")
    brann = _fighter(room, room.gm, "Brann")
    binding_set(campaign=room.campaign, actor=room.gm, user=room.player,
                character_id=brann.character_id, can_view_private=False)  # fmt: skip
    panel = panel_for_viewer(
        membership=room.membership(room.player), character_id=brann.character_id
    )
    assert panel["character"] == {
        "id": brann.character_id, "name": "Brann", "sheet_private": True,
    }  # fmt: skip


def test_the_panel_strings_name_each_key_once():
    """The page's strings are one JSON object: a key written twice silently replaces the first
    (a lowercase "you" once turned the jobs list's "You:" into "you:")."""
    import json
    import re
    from pathlib import Path

    from django.conf import settings

    source = (Path(settings.BASE_DIR) / "templates/turns/panels.html").read_text()
    block = source.split('<script id="turn-strings" type="application/json">', 1)[1]
    block = block.split("</script>", 1)[0]
    keys = re.findall(r'^\s*"([a-z_]+)":', block, re.MULTILINE)
    assert len(keys) > 20
    pairs = json.loads(re.sub(r"\{%.*?%\}", "", block), object_pairs_hook=lambda p: p)
    assert sorted(k for k, _v in pairs) == sorted(set(keys))


def test_a_change_one_player_alone_may_see_is_announced_to_that_player_not_the_room(
    live_domains, gm, make_user
):
    """A fact told to Alice alone: the room must not learn that something changed then."""
    from apps.campaigns.models import Campaign
    from apps.campaigns.services.authority import authority_write
    from apps.campaigns.services.campaigns import campaign_create
    from apps.projections.models import OutboxEvent
    from apps.turns.projections import projection_apply, projection_reads

    alice, bob = make_user("alice@example.test"), make_user("bob@example.test")
    campaign = campaign_create(
        owner=gm, name="Fog", system_id="narrative", idempotency_key=uuid.uuid4().hex
    )
    join(campaign, gm, alice)
    join(campaign, gm, bob)
    before = Campaign.objects.get(pk=campaign.pk)
    OutboxEvent.objects.all().delete()
    told = {"text": "The key is under the rug.", "audience": f"player:{principal_for(alice)}"}
    result = authority_write(
        campaign=campaign, tool="fact_add", requester=gm, key="fact-alice", arguments=told
    )
    receipt = result.structured["receipt"]
    refresh = projection_reads(campaign=before, receipts=[receipt], requester=gm)
    projection_apply(campaign=before, refresh=refresh)
    (event,) = OutboxEvent.objects.filter(event_type="state.changed")
    assert (event.audience, event.payload) == (
        {"users": [str(alice.pk)]},
        {
            "authority_revision": receipt["authority_revision"],
            "changed_scopes": receipt["changed_scopes"],
            "entity_ids": receipt["entity_ids"],
            "audience": "private",
            "access_version": 0,
        },
    )
