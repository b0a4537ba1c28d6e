"""Characters through the domain server's character_create, and actor bindings."""

from __future__ import annotations

import json

import pytest

from apps.campaigns.models import ActorBinding, Campaign, CharacterControl
from apps.core.errors import Conflict
from apps.domains.client import domain_call
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def test_player_creates_character_and_is_bound(domains, api_client, campaign, gm, player):
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    url = f"/api/campaigns/{campaign.id}/characters"
    body = {"name": "Tordek", "template": "fighter", "level": 2}
    created = api_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="char-0001")
    assert created.status_code == 201, created.json()
    assert created.json() == {
        "user_id": str(player.id), "character_id": "pc-1", "character_name": "Tordek",
        "can_control": True, "can_view_private": True, "status": "active",
    }  # fmt: skip
    replay = api_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="char-0001")
    assert replay.json() == created.json()
    assert ActorBinding.objects.count() == 1
    campaign.refresh_from_db()
    assert campaign.authority_receipt["changed_scopes"] == ["character:pc-1"]
    sheet = domain_call(
        system_id="dnd5e", tool="character_get", arguments={"character_id": "pc-1"},
        requester=player, campaign_id=str(campaign.id),
    ).structured["character"]  # fmt: skip
    assert (sheet["name"], sheet["level"], sheet["controller"]) == (
        "Tordek",
        2,
        f"user:{player.pk}",
    )

    scores = {
        "name": "Mialee",
        "str": 8,
        "dex": 14,
        "con": 12,
        "int": 16,
        "wis": 10,
        "cha": 11,
        "level": 1,
    }
    explicit = api_client.post(url, scores, format="json")
    assert explicit.status_code == 201
    assert explicit.json()["character_id"] == "pc-2"


def test_invalid_form_and_observer_change_nothing(domains, api_client, campaign, gm, make_user):
    watcher = make_user("watch@example.test")
    join(campaign, gm, watcher, role="observer")
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/characters"
    bad = api_client.post(
        url, {"name": "X", "template": "fighter", "str": 10, "level": 1}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == (
        "Choose a class template or enter ability scores, not both."
    )
    api_client.force_authenticate(watcher)
    denied = api_client.post(url, {"name": "Y", "template": "rogue", "level": 1}, format="json")
    assert denied.status_code == 403
    assert ActorBinding.objects.count() == 0
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == 2  # the join only


def test_a_body_a_form_could_not_send_is_a_400_that_changes_nothing(
    domains, api_client, campaign, gm
):
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/characters"
    for body in ([], "Lidda", 7, [{"name": "Lidda"}]):
        refused = api_client.post(url, body, format="json")
        assert (refused.status_code, refused.json()["error"]["message"]) == (
            400,
            "Send the character's fields as a JSON object.",
        )
    body = {"name": "\ud800", "template": ["fighter"], "level": True, "str": 1.5, "dex": None}
    # json.dumps escapes the lone surrogate, as a client's JSON may carry it.
    refused = api_client.post(url, json.dumps(body), content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["error"]["details"] == {
        "fields": {
            "name": ["Contains characters that cannot be stored."],
            "template": ["Enter a single text or whole-number value."],
            "level": ["Enter a single text or whole-number value."],
            "str": ["Enter a single text or whole-number value."],
        }
    }
    assert ActorBinding.objects.count() == 0
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == 1


@pytest.fixture
def friend(campaign, gm, player, make_user):
    """A second player; the player and the friend have both joined."""
    friend = make_user("friend@example.test")
    join(campaign, gm, player)
    join(campaign, gm, friend)
    return friend


def _lidda(api_client, campaign, player):
    """The player's rogue, pc-1, made with the character form (so bound to the player)."""
    api_client.force_authenticate(player)
    sheet = {"name": "Lidda", "template": "rogue", "level": 1}
    api_client.post(f"/api/campaigns/{campaign.id}/characters", sheet, format="json")


def test_gm_binds_and_unbinds(domains, api_client, campaign, gm, player, friend):
    _lidda(api_client, campaign, player)
    binding_url = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{friend.id}"
    assert api_client.put(binding_url, {}, format="json").status_code == 403

    api_client.force_authenticate(gm)
    bound = api_client.put(
        binding_url, {"can_control": False, "can_view_private": True}, format="json"
    )
    assert bound.status_code == 200
    assert bound.json()["character_name"] == "Lidda"
    assert bound.json()["can_control"] is False
    missing = api_client.put(
        f"/api/campaigns/{campaign.id}/characters/pc-77/bindings/{friend.id}", {}, format="json"
    )
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "character_not_found"
    listed = api_client.get(f"/api/campaigns/{campaign.id}/bindings").json()
    assert sorted((b["user_id"], b["character_id"]) for b in listed) == sorted(
        [(str(player.id), "pc-1"), (str(friend.id), "pc-1")]
    )
    unbound = api_client.delete(binding_url)
    assert unbound.json()["status"] == "removed"
    api_client.force_authenticate(friend)
    assert api_client.get(f"/api/campaigns/{campaign.id}/bindings").json() == []


def test_a_binding_without_the_private_sheet_shows_who_not_the_sheet(
    domains, api_client, campaign, gm, player, friend
):
    """With "Can see the private sheet" unticked, the room's card names the character and
    says its sheet is private (not the full sheet, nor "no character"); ticked, it is the
    sheet."""
    _lidda(api_client, campaign, player)
    api_client.force_authenticate(gm)
    binding_url = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{friend.id}"
    bound = api_client.put(
        binding_url, {"can_control": False, "can_view_private": False}, format="json"
    )
    assert (bound.status_code, bound.json()["can_view_private"]) == (200, False)
    api_client.force_authenticate(friend)
    panel_url = f"/api/campaigns/{campaign.id}/room/panel"
    limited = {"id": "pc-1", "name": "Lidda", "sheet_private": True}
    assert api_client.get(panel_url).json()["character"] == limited
    assert api_client.get(f"{panel_url}?character=pc-1").json()["character"] == limited

    api_client.force_authenticate(gm)
    api_client.put(binding_url, {"can_control": False, "can_view_private": True}, format="json")
    api_client.force_authenticate(friend)
    card = api_client.get(panel_url).json()["character"]
    assert (card["id"], card["name"], "abilities" in card) == ("pc-1", "Lidda", True)


def _controller(campaign, gm, character_id):
    return domain_call(
        system_id="dnd5e", tool="character_get", arguments={"character_id": character_id},
        requester=gm, campaign_id=str(campaign.id),
    ).structured["character"]["controller"]  # fmt: skip


def _controls(campaign):
    return sorted(
        ActorBinding.objects.filter(campaign=campaign, status="active").values_list(
            "user__email", "can_control"
        )
    )


def test_control_moves_on_the_domain_with_the_binding(
    domains, api_client, campaign, gm, player, friend, make_user
):
    watcher = make_user("watch@example.test")
    join(campaign, gm, watcher, role="observer")
    _lidda(api_client, campaign, player)
    url = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{{}}"
    api_client.force_authenticate(gm)
    revision = Campaign.objects.get(pk=campaign.pk).authority_revision

    given = api_client.put(url.format(friend.id), {"can_control": True}, format="json")
    assert given.status_code == 200, given.json()
    assert _controller(campaign, gm, "pc-1") == f"user:{friend.pk}"
    assert _controls(campaign) == [("friend@example.test", True), ("player@example.test", False)]
    campaign.refresh_from_db()
    assert campaign.authority_revision == revision + 1
    assert campaign.authority_receipt["changed_scopes"] == ["character:pc-1"]

    again = api_client.put(url.format(friend.id), {"can_control": True}, format="json")
    assert again.status_code == 200
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == revision + 1  # no write

    refused = api_client.put(url.format(watcher.id), {"can_control": True}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        "Observers cannot control characters; bind without control."
    )
    watching = api_client.put(url.format(watcher.id), {"can_control": False}, format="json")
    assert watching.status_code == 200

    unbound = api_client.delete(url.format(friend.id))
    assert unbound.json()["status"] == "removed"
    assert _controller(campaign, gm, "pc-1") is None  # the GM's alone until bound again
    assert _controls(campaign) == [("player@example.test", False), ("watch@example.test", False)]
    assert Campaign.objects.get(pk=campaign.pk).authority_revision == revision + 2

    back = api_client.put(url.format(player.id), {"can_control": True}, format="json")
    assert back.status_code == 200
    assert _controller(campaign, gm, "pc-1") == f"user:{player.pk}"
    kept = api_client.put(url.format(player.id), {"can_control": False}, format="json")
    assert kept.json()["can_control"] is False
    assert _controller(campaign, gm, "pc-1") is None


def test_a_monster_is_never_given_control(domains, api_client, campaign, gm, player):
    join(campaign, gm, player)
    from apps.campaigns.services.authority import authority_write

    authority_write(
        campaign=campaign, tool="phase_set", arguments={"phase": "play"}, requester=gm, key="p"
    )
    spawned = authority_write(
        campaign=campaign, tool="monster_spawn", arguments={"monster_key": "goblin"},
        requester=gm, key="goblin",
    ).structured["character"]  # fmt: skip
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/characters/{spawned['id']}/bindings/{player.id}"
    refused = api_client.put(url, {"can_control": True}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        "Monsters stay with the GM; bind it without control."
    )
    assert ActorBinding.objects.count() == 0


def _pregen(api_client, campaign, gm):
    api_client.force_authenticate(gm)
    sheet = {"name": "Brann", "template": "fighter", "level": 1}
    created = api_client.post(f"/api/campaigns/{campaign.id}/characters", sheet, format="json")
    return created.json()["character_id"]


def test_control_changed_meanwhile_is_a_conflict(
    domains, api_client, campaign, gm, player, friend, monkeypatch
):
    from apps.campaigns.services import characters

    char_id = _pregen(api_client, campaign, gm)
    real = characters._controller_assign

    def another_gm_first(campaign, actor, character_id, **kwargs):
        # Another manager's assignment lands between this request's read and its write.
        real(
            campaign, actor, character_id, controller=f"user:{friend.pk}", expected=f"user:{gm.pk}"
        )
        return real(campaign, actor, character_id, **kwargs)

    monkeypatch.setattr(characters, "_controller_assign", another_gm_first)
    url = f"/api/campaigns/{campaign.id}/characters/{char_id}/bindings/{player.id}"
    refused = api_client.put(url, {"can_control": True}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "binding_changed"
    assert refused.json()["error"]["message"] == (
        f"Control of {char_id} could not move ({char_id} is controlled by "
        f"user:{friend.pk}, not user:{gm.pk}). Reload and try again."
    )
    assert _controls(campaign) == [("gm@example.test", True)]  # nothing recorded here


def test_an_assignment_recorded_late_does_not_take_control_back(
    domains, campaign, gm, player, friend, monkeypatch
):
    from apps.campaigns.services import characters

    pregen = characters.character_create_for(
        campaign=campaign, user=gm, form_data={"name": "Brann", "template": "fighter", "level": 1}
    )
    real = characters._controller_assign
    overtaken = []

    def overtaken_before_recording(campaign, actor, character_id, **kwargs):
        result = real(campaign, actor, character_id, **kwargs)
        if not overtaken:
            # The player's assignment is on the domain; before it is recorded here, a second
            # request gives the character to the friend, start to finish.
            overtaken.append(True)
            characters.binding_set(
                campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=friend,
                character_id=character_id,
            )  # fmt: skip
        return result

    monkeypatch.setattr(characters, "_controller_assign", overtaken_before_recording)
    with pytest.raises(Conflict, match="moved meanwhile"):
        characters.binding_set(
            campaign=campaign, actor=gm, user=player, character_id=pregen.character_id
        )
    assert _controller(campaign, gm, pregen.character_id) == f"user:{friend.pk}"
    assert _controls(campaign) == [
        ("friend@example.test", True), ("gm@example.test", False), ("player@example.test", False),
    ]  # fmt: skip


def test_a_creator_controls_what_they_made_unless_that_changed_since(
    domains, campaign, gm, player, friend
):
    from django.db import transaction

    from apps.campaigns.services.characters import binding_for_created

    def created(character_id, revision):
        with transaction.atomic():
            binding = binding_for_created(
                campaign=campaign, user=player, character={"id": character_id, "name": "Vex"},
                revision=revision,
            )  # fmt: skip
        record = CharacterControl.objects.get(campaign=campaign, character_id=character_id)
        return binding.can_control, record.controller, record.revision

    ActorBinding.objects.create(campaign=campaign, user=friend, character_id="pc-9")
    CharacterControl.objects.create(
        campaign=campaign, character_id="pc-9", controller=friend, revision=7
    )
    assert created("pc-9", 5) == (False, friend, 7)  # given to the friend since
    CharacterControl.objects.create(campaign=campaign, character_id="pc-10", revision=7)
    assert created("pc-10", 5) == (False, None, 7)  # taken back since
    assert created("pc-11", 5) == (True, player, 5)
    assert _controls(campaign) == [
        ("friend@example.test", True), ("player@example.test", False),
        ("player@example.test", False), ("player@example.test", True),
    ]  # fmt: skip


def test_a_resave_read_before_a_newer_assignment_does_not_undo_it(
    domains, api_client, campaign, gm, player, friend, monkeypatch
):
    from apps.campaigns.services import characters

    char_id = _pregen(api_client, campaign, gm)
    characters.binding_set(campaign=campaign, actor=gm, user=friend, character_id=char_id)
    real = characters.domain_call

    def read_then_overtaken(**kwargs):
        result = real(**kwargs)
        if kwargs["tool"] == "character_get" and not overtaken:
            overtaken.append(True)  # another manager gives it to the player, start to finish
            characters.binding_set(
                campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=player,
                character_id=char_id,
            )  # fmt: skip
        return result

    overtaken: list[bool] = []
    monkeypatch.setattr(characters, "domain_call", read_then_overtaken)
    url = f"/api/campaigns/{campaign.id}/characters/{char_id}/bindings/{friend.id}"
    resaved = api_client.put(url, {"can_control": True, "can_view_private": False}, format="json")
    assert resaved.status_code == 409
    assert resaved.json()["error"] == {
        "code": "binding_changed",
        "message": (
            f"Control of {char_id} moved meanwhile; the binding was saved without it. "
            "Reload and try again."
        ),
        "retryable": False,
        "recovery": resaved.json()["error"]["recovery"],
        "details": {},
    }
    friend_binding = ActorBinding.objects.get(user=friend, character_id=char_id)
    assert (friend_binding.can_control, friend_binding.can_view_private) == (False, False)
    assert _controller(campaign, gm, char_id) == f"user:{player.pk}"
    assert _controls(campaign) == [
        ("friend@example.test", False), ("gm@example.test", False), ("player@example.test", True),
    ]  # fmt: skip


def test_a_member_made_observer_during_a_binding_is_bound_without_control(
    domains, campaign, gm, player, monkeypatch
):
    from apps.campaigns.services import characters
    from apps.campaigns.services.membership import membership_change_role

    join(campaign, gm, player)
    pregen = characters.character_create_for(
        campaign=campaign, user=gm, form_data={"name": "Brann", "template": "fighter", "level": 1}
    )
    real = characters._controller_assign

    def demoted_before_recording(campaign, actor, character_id, **kwargs):
        result = real(campaign, actor, character_id, **kwargs)
        membership_change_role(
            campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=player, role="observer"
        )
        return result

    monkeypatch.setattr(characters, "_controller_assign", demoted_before_recording)
    with pytest.raises(Conflict, match="moved meanwhile"):
        characters.binding_set(
            campaign=campaign, actor=gm, user=player, character_id=pregen.character_id
        )
    assert _controller(campaign, gm, pregen.character_id) is None
    assert _controls(campaign) == [("gm@example.test", False), ("player@example.test", False)]


def test_a_player_made_observer_controls_nothing(domains, api_client, campaign, gm, player):
    from apps.campaigns.services.membership import membership_change_role

    join(campaign, gm, player)
    _lidda(api_client, campaign, player)
    membership_change_role(campaign=campaign, actor=gm, user=player, role="observer")
    assert _controller(campaign, gm, "pc-1") is None
    assert _controls(campaign) == [("player@example.test", False)]
    # Playing again, they take back the character nobody took meanwhile.
    membership_change_role(campaign=campaign, actor=gm, user=player, role="player")
    assert _controller(campaign, gm, "pc-1") == f"user:{player.pk}"
    assert _controls(campaign) == [("player@example.test", True)]


def test_playing_again_gives_no_control_the_gm_did_not_give(
    domains, api_client, campaign, gm, player, friend
):
    from apps.campaigns.services.characters import binding_set
    from apps.campaigns.services.membership import membership_change_role

    _lidda(api_client, campaign, player)  # pc-1, controlled by the player
    binding_set(campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=friend,
                character_id="pc-1", can_control=False)  # fmt: skip
    binding_set(
        campaign=Campaign.objects.get(pk=campaign.pk),
        actor=gm,
        user=player,
        character_id="pc-1",
        can_control=False,
    )  # the GM takes it back: nobody controls
    for role in ("observer", "player"):
        membership_change_role(
            campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=friend, role=role
        )
    assert _controller(campaign, gm, "pc-1") is None
    assert _controls(campaign) == [("friend@example.test", False), ("player@example.test", False)]


def test_playing_again_does_not_take_a_character_another_member_took(
    domains, api_client, campaign, gm, player, friend
):
    from apps.campaigns.services.characters import binding_set
    from apps.campaigns.services.membership import membership_change_role

    _lidda(api_client, campaign, player)
    membership_change_role(campaign=campaign, actor=gm, user=player, role="observer")
    binding_set(campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=friend,
                character_id="pc-1")  # fmt: skip
    membership_change_role(
        campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=player, role="player"
    )
    assert _controller(campaign, gm, "pc-1") == f"user:{friend.pk}"
    assert _controls(campaign) == [("friend@example.test", True), ("player@example.test", False)]


def test_a_new_binding_of_the_recorded_controller_controls(
    domains, api_client, campaign, gm, player, friend
):
    """A viewer's binding records the controller first; the controller's own binding, made
    later, still controls (the record did not move, the binding follows it)."""
    from django.db import transaction

    from apps.campaigns.services.characters import binding_for_created, control_record

    with transaction.atomic():
        ActorBinding.objects.create(campaign=campaign, user=friend, character_id="pc-3")
        control_record(
            campaign=campaign, character_id="pc-3", controller=f"user:{player.pk}", revision=4
        )
        late = binding_for_created(
            campaign=campaign, user=player, character={"id": "pc-3", "name": "Vex"}, revision=4
        )
    assert late.can_control is True
    assert _controls(campaign) == [("friend@example.test", False), ("player@example.test", True)]


def test_rebinding_a_removed_binding_never_claims_stale_control(
    domains, api_client, campaign, gm, player, friend
):
    _lidda(api_client, campaign, player)
    # A row removed before removals cleared can_control (what migration 0005 repairs).
    ActorBinding.objects.create(
        campaign=campaign, user=friend, character_id="pc-1", status="removed", can_control=True
    )
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{friend.id}"
    viewer = api_client.put(url, {"can_control": False}, format="json")
    assert viewer.status_code == 200, viewer.json()
    assert viewer.json()["can_control"] is False
    assert _controls(campaign) == [("friend@example.test", False), ("player@example.test", True)]


def test_reconcile_makes_bindings_made_before_control_was_recorded_follow_the_domain(
    domains, api_client, campaign, gm, player, friend
):
    from io import StringIO

    from django.core.management import call_command

    _lidda(api_client, campaign, player)
    # As bindings stood before control was recorded: the friend marked, the domain's player not.
    CharacterControl.objects.all().delete()
    ActorBinding.objects.filter(user=player).update(can_control=False)
    ActorBinding.objects.create(
        campaign=campaign, user=friend, character_id="pc-1", can_control=True
    )
    ActorBinding.objects.create(
        campaign=campaign, user=friend, character_id="pc-404", can_control=True
    )

    out = StringIO()
    call_command("bindings_reconcile", stdout=out)
    assert out.getvalue() == (
        f"{campaign.id} {campaign.name}: 2 characters read, 3 bindings changed\n"
    )
    assert _controls(campaign) == [
        ("friend@example.test", False), ("friend@example.test", False),
        ("player@example.test", True),
    ]  # fmt: skip
    again = StringIO()
    call_command("bindings_reconcile", str(campaign.id), stdout=again)
    assert again.getvalue().endswith("2 characters read, 0 bindings changed\n")


def test_binding_and_unbinding_tell_the_member_whose_card_changes(
    domains, api_client, campaign, gm, player, friend
):
    """The member's open room reads its card again when a GM binds or unbinds them: a
    `state.changed` for them alone, naming the character."""
    from apps.projections.models import OutboxEvent

    _lidda(api_client, campaign, player)
    api_client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{friend.id}"
    seen = set(OutboxEvent.objects.values_list("pk", flat=True))
    assert api_client.put(url, {"can_control": False}, format="json").status_code == 200
    assert api_client.delete(url).status_code == 200
    events = OutboxEvent.objects.exclude(pk__in=seen).filter(event_type="state.changed")
    campaign.refresh_from_db()
    expected = {
        "authority_revision": campaign.authority_revision,
        "changed_scopes": ["membership"],
        "entity_ids": ["pc-1"],
        "audience": "private",
        "access_version": 0,
    }
    assert [(e.audience, e.payload) for e in events.order_by("pk")] == [
        ({"users": [str(friend.id)]}, expected),
        ({"users": [str(friend.id)]}, expected),
    ]


def test_a_deactivated_account_is_not_bound_nor_given_a_role(
    domains, api_client, campaign, gm, player, friend
):
    """The settings page offers neither; a request made anyway is refused, nothing changed."""
    from apps.accounts.services import user_deactivate

    _lidda(api_client, campaign, player)
    user_deactivate(user=friend, password="s3cret-passw0rd!")
    api_client.force_authenticate(gm)
    bound = api_client.put(
        f"/api/campaigns/{campaign.id}/characters/pc-1/bindings/{friend.id}", {}, format="json"
    )
    role = api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{friend.id}/role", {"role": "gm"}, format="json"
    )
    for response in (bound, role):
        assert (response.status_code, response.json()["error"]["code"]) == (
            400, "account_deactivated"
        )  # fmt: skip
    assert not ActorBinding.objects.filter(user=friend).exists()
    assert campaign.memberships.get(user=friend).role == "player"
    # Taking a role away grants nothing, so it stays possible.
    demoted = api_client.patch(
        f"/api/campaigns/{campaign.id}/members/{friend.id}/role", {"role": "observer"},
        format="json",
    )  # fmt: skip
    assert (demoted.status_code, demoted.json()["role"]) == (200, "observer")


def test_a_character_body_refuses_an_undeclared_field(domains, api_client, campaign, gm, player):
    """As every request body does: a misspelt field is not left out unnoticed."""
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    url = f"/api/campaigns/{campaign.id}/characters"
    body = {"name": "Tordek", "template": "fighter", "level": 2, "levle": 3}
    created = api_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="char-0001")
    assert created.status_code == 400, created.json()
    assert created.json()["error"]["details"]["fields"]["levle"] == ["Unknown field."]
