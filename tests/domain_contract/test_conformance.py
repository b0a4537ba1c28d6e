"""The contract's Conformance section, against every registered server over both transports."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from domain_servers.common.delegation import TOKEN_TYPE
from tests.domain_contract.conftest import (
    OBSERVER,
    OTHER_PLAYER,
    OWNER,
    PHASE_GATED,
    PLAYER,
    STRANGER,
    Harness,
    error_of,
    now,
)

SEED = "5" * 64


# -- catalog ----------------------------------------------------------------------------------


def _assert_bounded(schema: dict[str, Any], path: str) -> None:
    kind = schema.get("type")
    if kind == "string":
        assert "maxLength" in schema or "enum" in schema, path
    elif kind in ("integer", "number"):
        assert "maximum" in schema and "minimum" in schema, path
    elif kind == "array":
        assert "maxItems" in schema, path
        _assert_bounded(schema["items"], f"{path}[]")
    elif kind == "object":
        assert schema.get("additionalProperties") is False, path
        for name, prop in schema["properties"].items():
            _assert_bounded(prop, f"{path}.{name}")
    elif kind != "boolean":
        raise AssertionError(f"{path} has no bounded type")


def test_catalog_sorted_stable_described_bounded(harness: Harness) -> None:
    first = harness.client.list_tools()
    names = [tool.name for tool in first.tools]
    assert names == sorted(names)
    assert len(names) == len(set(names))
    for common in (
        "campaign_create",
        "campaign_get",
        "campaign_rename",
        "character_assign",
        "dice_roll",
        "member_grant",
        "member_leave",
        "member_revoke",
        "phase_set",
    ):
        assert common in names
    for tool in first.tools:
        assert tool.description
        schema = tool.input_schema
        _assert_bounded(schema, tool.name)
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name}"
        assert "campaign_id" in schema["required"]
        write = "idempotency_key" in schema["properties"]
        if write:
            assert {"expected_revision", "idempotency_key"} <= set(schema["required"])
        assert tool.output_schema and tool.output_schema["type"] == "object"
        ann = tool.annotations
        assert ann.read_only_hint is (not write)
        assert ann.destructive_hint is not None
        assert ann.idempotent_hint is True
        assert ann.open_world_hint is False
    # A side effect in between changes nothing in the listing.
    harness.new_campaign(members=False)
    again = harness.client.list_tools()
    assert [t.model_dump() for t in again.tools] == [t.model_dump() for t in first.tools]


# -- delegation -------------------------------------------------------------------------------


def _denied(harness: Harness, campaign: str, **kw: Any) -> str:
    result = harness.write("dice_roll", campaign, 1, {"expression": "1d6"}, **kw)
    error = error_of(result)
    assert error["code"] == "authorization_denied", error
    assert error["retryable"] is False
    assert harness.revision(campaign) == 1
    return error["message"]


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"signer": "unknown"}, "kid is unknown"),
        ({"signer": "impostor"}, "signature is invalid"),
        ({"iss": "someone-else"}, "issuer"),
        ({"audience": "sagasmith-elsewhere"}, "audience"),
        ({"iat": -400, "exp": -100}, "expired"),
        ({"iat": 120, "exp": 200}, "in the future"),
        ({"lifetime": 301}, "lifetime"),
        ({"scope": ["campaign_get"]}, "scope"),
        ({"campaign": "other-campaign"}, "campaign"),
        ({"typ": "JWT"}, "typ"),
    ],
    ids=[
        "unknown-kid",
        "bad-signature",
        "issuer",
        "audience",
        "expired",
        "future-iat",
        "lifetime",
        "scope",
        "campaign",
        "typ",
    ],
)
def test_every_delegation_rejection(
    harness: Harness, overrides: dict[str, Any], fragment: str
) -> None:
    campaign = harness.new_campaign(members=False)
    overrides = dict(overrides)
    signer = overrides.pop("signer", None)
    if signer:
        overrides["signer"] = getattr(harness.keys, signer)
    if "iat" in overrides:
        overrides["iat"] += now()
        overrides["exp"] += now()
    token_campaign = overrides.pop("campaign", campaign)
    token = harness.token("dice_roll", token_campaign, base_rev=1, **overrides)
    assert fragment in _denied(harness, campaign, token=token)


@pytest.mark.parametrize("kid", [["web-2026-01"], {"kid": "web-2026-01"}, 7, None])
def test_non_string_kid_is_denied(harness: Harness, kid: Any) -> None:
    # Correctly signed by the trusted key, but the header's kid is not a string.
    campaign = harness.new_campaign(members=False)
    token = harness.token("dice_roll", campaign, base_rev=1)
    header = {"alg": "EdDSA", "typ": TOKEN_TYPE}
    if kid is not None:
        header["kid"] = kid
    head = base64.urlsafe_b64encode(json.dumps(header).encode()).rstrip(b"=").decode()
    payload = token.split(".")[1]
    signature = harness.keys.trusted.private_key.sign(f"{head}.{payload}".encode())
    forged = f"{head}.{payload}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"
    assert "kid must be a string" in _denied(harness, campaign, token=forged)


def test_missing_token_and_garbage_token(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    result = harness.client.call("campaign_get", {"campaign_id": campaign}, {})
    assert error_of(result)["code"] == "authorization_denied"
    assert "missing" in _denied(harness, campaign, token="")
    assert "compact JWS" in _denied(harness, campaign, token="not.a-token")


def test_jti_is_single_use_even_when_the_call_is_refused(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    jti = "jti-" + campaign
    # Signature valid but scope wrong: refused, and the jti is used up anyway.
    wrong_scope = harness.token("campaign_get", campaign, base_rev=1, jti=jti)
    assert "scope" in _denied(harness, campaign, token=wrong_scope)
    replayed = harness.token("dice_roll", campaign, base_rev=1, jti=jti)
    assert "jti was already used" in _denied(harness, campaign, token=replayed)


def test_base_rev_mismatch_is_stale_revision(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    result = harness.write("dice_roll", campaign, 1, {"expression": "1d6"}, base_rev=0)
    error = error_of(result)
    assert error["code"] == "stale_revision"
    assert error["retryable"] is True
    assert harness.revision(campaign) == 1


def test_role_checks_and_forged_identity_ignored(harness: Harness) -> None:
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    # A player cannot promote themselves, whatever principal the arguments name.
    result = harness.write(
        "member_grant", campaign, revision, {"principal": PLAYER, "role": "gm"}, sub=PLAYER
    )
    assert error_of(result)["code"] == "authorization_denied"
    # Observers may read but not roll; strangers may do neither.
    assert (
        error_of(
            harness.write("dice_roll", campaign, revision, {"expression": "1d4"}, sub=OBSERVER)
        )["code"]
        == "authorization_denied"
    )
    assert error_of(harness.call("campaign_get", campaign, sub=STRANGER))["code"] == (
        "authorization_denied"
    )
    assert not harness.call("campaign_get", campaign, sub=OBSERVER).is_error
    # A player naming someone else as controller still controls what they create.
    created = harness.write(
        "character_create",
        campaign,
        revision,
        {"name": "Wren", "controller": OWNER, "template": "rogue"}
        if harness.entry.system_id == "dnd5e"
        else {"name": "Wren", "controller": OWNER},
        sub=PLAYER,
    )
    assert not created.is_error, created.structured_content
    assert created.structured_content["character"]["controller"] == PLAYER
    rolled = harness.write("dice_roll", campaign, revision + 1, {"expression": "1d4"}, sub=PLAYER)
    assert rolled.structured_content["rolled_by"] == PLAYER
    assert harness.revision(campaign) == revision + 2


def test_phase_denied_changes_nothing(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    tool, args = PHASE_GATED[harness.entry.system_id]
    error = error_of(harness.write(tool, campaign, 1, args))
    assert error["code"] == "phase_denied"
    assert "lobby" in error["message"]
    assert harness.revision(campaign) == 1


def test_unknown_campaign_is_not_found(harness: Harness) -> None:
    error = error_of(harness.call("campaign_get", "no-such-campaign"))
    assert error["code"] == "not_found"
    assert error["retryable"] is False


# -- revisions, idempotency, failures ---------------------------------------------------------


def test_stale_expected_revision(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    harness.write("dice_roll", campaign, 1, {"expression": "1d6"})
    error = error_of(harness.write("dice_roll", campaign, 1, {"expression": "1d6"}))
    assert error["code"] == "stale_revision"
    assert error["retryable"] is True
    assert "refresh" in error["recovery"]
    assert harness.revision(campaign) == 2


def test_exact_replay_after_revision_moved_and_conflict(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    first = harness.write("dice_roll", campaign, 1, {"expression": "4d6kh3+1"}, key="roll-1")
    assert first.meta["idempotent_replay"] is False
    harness.write("dice_roll", campaign, 2, {"expression": "1d6"})
    # The retry's token carries the original base_rev; the revision has moved to 3.
    replay = harness.write("dice_roll", campaign, 1, {"expression": "4d6kh3+1"}, key="roll-1")
    assert replay.meta["idempotent_replay"] is True
    assert replay.structured_content == first.structured_content
    assert replay.content[0].text == first.content[0].text
    assert harness.revision(campaign) == 3
    conflict = harness.write("dice_roll", campaign, 1, {"expression": "1d8"}, key="roll-1")
    error = error_of(conflict)
    assert error["code"] == "idempotency_conflict"
    assert error["retryable"] is False
    assert harness.revision(campaign) == 3


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"expression": "1d1"}, "die size 1"),
        ({"expression": "101d6"}, "dice count 101"),
        ({"expression": "2d6+"}, "unreadable"),
        ({"expression": "x" * 121}, "longer than 120"),
        ({"expression": "1d6", "principal_id": "model:forged"}, "not an accepted argument"),
        ({}, "expression is required"),
        ({"expression": 5}, "must be of type string"),
    ],
    ids=["die-size", "dice-count", "syntax", "too-long", "extra-arg", "missing", "type"],
)
def test_bad_input_commits_nothing(harness: Harness, args: dict[str, Any], fragment: str) -> None:
    campaign = harness.new_campaign(members=False)
    before = harness.call("campaign_get", campaign).structured_content
    error = error_of(harness.write("dice_roll", campaign, 1, args))
    assert error["code"] == "invalid_request"
    assert fragment in error["message"]
    after = harness.call("campaign_get", campaign).structured_content
    assert after == before


@pytest.mark.parametrize(
    ("label", "make"),
    [
        ("depth", lambda: {"a": json.loads("[" * 13 + "]" * 13)}),
        ("items", lambda: {"a": list(range(1001))}),
        ("string", lambda: {"a": "x" * 65_537}),
        ("payload", lambda: {f"k{i}": "y" * 60_000 for i in range(6)}),
    ],
)
def test_argument_hygiene(harness: Harness, label: str, make: Any) -> None:
    campaign = harness.new_campaign(members=False)
    error = error_of(harness.write("dice_roll", campaign, 1, {"expression": "1d6", **make()}))
    assert error["code"] == "invalid_request"
    assert harness.revision(campaign) == 1


# -- randomness, receipts, audience, trace ----------------------------------------------------


def _rolls(harness: Harness, campaign: str, expressions: list[str]) -> list[dict[str, Any]]:
    out = []
    for offset, expression in enumerate(expressions):
        result = harness.write("dice_roll", campaign, 1 + offset, {"expression": expression})
        assert not result.is_error, result.structured_content
        sc = result.structured_content
        out.append({k: sc[k] for k in ("total", "rolls", "detail", "random_stream_receipt")})
    return out


def test_random_stream_is_deterministic(harness: Harness) -> None:
    expressions = ["1d20", "3d6+2", "2d20kh1-1"]
    a = _rolls(harness, harness.new_campaign(SEED, members=False), expressions)
    b = _rolls(harness, harness.new_campaign(SEED, members=False), expressions)
    other = _rolls(harness, harness.new_campaign("6" * 64, members=False), expressions)
    assert a == b
    assert [r["rolls"] for r in a] != [r["rolls"] for r in other]
    positions = [
        (
            r["random_stream_receipt"]["position_before"],
            r["random_stream_receipt"]["position_after"],
            r["random_stream_receipt"]["draw_count"],
        )
        for r in a
    ]
    assert positions == [(0, 1, 1), (1, 4, 3), (4, 6, 2)]
    assert a[0]["random_stream_receipt"]["algorithm"] == "sha256-counter-v1"


def test_receipts_present_and_sorted(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    result = harness.write(
        "member_grant", campaign, 1, {"principal": PLAYER, "role": "player"}, key="grant-1"
    )
    receipt = result.structured_content["receipt"]
    assert receipt == {
        "authority_revision": 2,
        "previous_revision": 1,
        "changed_scopes": ["campaign", "membership"],
        "entity_ids": [PLAYER],
        "audience": "public",
        "idempotency_key": "grant-1",
    }
    created = harness.call("campaign_get", campaign)
    assert created.structured_content["authority_revision"] == 2
    phase = harness.write("phase_set", campaign, 2, {"phase": "play"})
    assert phase.structured_content["receipt"]["changed_scopes"] == ["campaign", "phase"]
    revoke = harness.write("member_revoke", campaign, 3, {"principal": PLAYER})
    assert revoke.structured_content["receipt"]["authority_revision"] == 4
    assert revoke.structured_content["receipt"]["changed_scopes"] == ["campaign", "membership"]
    members = harness.call("campaign_get", campaign).structured_content["campaign"]["members"]
    assert members == [{"principal": OWNER, "role": "owner"}]


def _sheet(harness: Harness) -> dict[str, Any]:
    if harness.entry.system_id == "dnd5e":
        return {"name": "Pregen", "template": "fighter", "level": 1}
    return {"name": "Pregen"}


def test_a_revoked_member_controls_nothing(harness: Harness) -> None:
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    created = harness.write("character_create", campaign, revision, _sheet(harness), sub=PLAYER)
    char_id = created.structured_content["character"]["id"]
    revoked = harness.write("member_revoke", campaign, revision + 1, {"principal": PLAYER})
    assert revoked.structured_content["released_characters"] == [char_id]
    receipt = revoked.structured_content["receipt"]
    assert receipt["changed_scopes"] == ["campaign", f"character:{char_id}", "membership"]
    assert receipt["entity_ids"] == sorted([PLAYER, char_id])
    view = harness.call("character_get", campaign, {"character_id": char_id})
    assert view.structured_content["character"]["controller"] is None

    theirs = harness.write(
        "character_create", campaign, revision + 2, _sheet(harness), sub=OTHER_PLAYER
    ).structured_content["character"]["id"]
    watching = harness.write(
        "member_grant", campaign, revision + 3, {"principal": OTHER_PLAYER, "role": "observer"}
    ).structured_content
    assert watching["released_characters"] == [theirs]
    assert watching["receipt"]["changed_scopes"] == [
        "campaign",
        f"character:{theirs}",
        "membership",
    ]
    view = harness.call("character_get", campaign, {"character_id": theirs})
    assert view.structured_content["character"]["controller"] is None


def test_a_member_leaves_alone_and_only_themselves(harness: Harness) -> None:
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    created = harness.write("character_create", campaign, revision, _sheet(harness), sub=PLAYER)
    char_id = created.structured_content["character"]["id"]
    # A principal argument is not the tool's to take: the requester is the one who leaves.
    error = error_of(
        harness.write("member_leave", campaign, revision + 1, {"principal": OTHER_PLAYER})
    )
    assert error["code"] == "invalid_request"
    left = harness.write("member_leave", campaign, revision + 1, sub=PLAYER, key="leave-1")
    assert not left.is_error, left.structured_content
    assert left.structured_content["principal"] == PLAYER
    assert left.structured_content["released_characters"] == [char_id]
    receipt = left.structured_content["receipt"]
    assert receipt["changed_scopes"] == ["campaign", f"character:{char_id}", "membership"]
    assert receipt["entity_ids"] == sorted([PLAYER, char_id])
    members = harness.call("campaign_get", campaign).structured_content["campaign"]["members"]
    assert PLAYER not in [m["principal"] for m in members]
    view = harness.call("character_get", campaign, {"character_id": char_id})
    assert view.structured_content["character"]["controller"] is None
    # Whoever left is no member: not even the same key replays for them (the role check
    # comes first), so a host that lost the answer learns it from campaign_get.
    for key in ("leave-1", None):
        again = error_of(harness.write("member_leave", campaign, revision + 1, sub=PLAYER, key=key))
        assert again["code"] == "authorization_denied"
    # The owner cannot leave; nothing changes.
    owner = error_of(harness.write("member_leave", campaign, revision + 2))
    assert (owner["code"], owner["message"]) == (
        "invalid_request",
        "the owner cannot leave their own campaign",
    )
    assert harness.revision(campaign) == revision + 2


def test_only_the_assigned_controller_acts_as_a_character(harness: Harness) -> None:
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    assert not harness.write("phase_set", campaign, revision, {"phase": "play"}).is_error
    revision += 1
    dnd5e = harness.entry.system_id == "dnd5e"
    created = harness.write("character_create", campaign, revision, _sheet(harness))  # by owner
    char_id = created.structured_content["character"]["id"]
    revision += 1
    if dnd5e:
        act_tool, act_args = "ability_check", {"character_id": char_id, "ability": "str", "dc": 5}
    else:
        act_tool, act_args = "character_update", {"character_id": char_id, "add_tags": ["brave"]}

    def act(revision: int):
        return harness.write(act_tool, campaign, revision, act_args, sub=PLAYER, character=char_id)

    def assign(revision: int, sub: str = OWNER, key: str | None = None, **args: Any):
        arguments = {"character_id": char_id, **args}
        return harness.write("character_assign", campaign, revision, arguments, sub=sub, key=key)

    assert error_of(act(revision))["code"] == "authorization_denied"
    assert error_of(assign(revision, sub=PLAYER, controller=PLAYER))["code"] == (
        "authorization_denied"
    )
    for outsider in ("user:stranger", OBSERVER):
        refused = error_of(assign(revision, controller=outsider))
        assert refused["code"] == "invalid_request"
        assert refused["message"] == f"{outsider} is not a member who plays in this campaign"
    unknown = harness.write(
        "character_assign", campaign, revision, {"character_id": "nobody", "controller": PLAYER}
    )
    assert error_of(unknown)["code"] == "invalid_request"
    assert harness.revision(campaign) == revision  # refusals commit nothing

    given = assign(revision, controller=PLAYER, key="assign-1").structured_content
    assert given == {
        "character_id": char_id,
        "controller": PLAYER,
        "previous_controller": OWNER,
        "receipt": {
            "authority_revision": revision + 1,
            "previous_revision": revision,
            "changed_scopes": [f"character:{char_id}"],
            "entity_ids": [char_id],
            "audience": "public",
            "idempotency_key": "assign-1",
        },
    }
    revision += 1
    acted = act(revision)
    assert not acted.is_error, acted.structured_content
    revision += 1

    moved = error_of(assign(revision, controller=OTHER_PLAYER, expected_controller=OWNER))
    assert moved["code"] == "invalid_request"
    assert moved["message"] == f"{char_id} is controlled by {PLAYER}, not {OWNER}"
    taken = assign(revision, expected_controller=PLAYER).structured_content  # the gm's alone
    assert (taken["controller"], taken["previous_controller"]) == (None, PLAYER)
    revision += 1
    assert error_of(act(revision))["code"] == "authorization_denied"
    owner_view = harness.call("character_get", campaign, {"character_id": char_id})
    assert owner_view.structured_content["character"]["controller"] is None
    unowned = error_of(assign(revision, controller=PLAYER, expected_controller=OWNER))
    assert unowned["message"] == f"{char_id} is controlled by none, not {OWNER}"
    assert not assign(revision, controller=PLAYER, expected_controller="none").is_error


def test_audience_filtering(harness: Harness) -> None:
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    harness.write("phase_set", campaign, revision, {"phase": "play"})
    revision += 1
    if harness.entry.system_id == "dnd5e":
        spawned = harness.write(
            "monster_spawn",
            campaign,
            revision,
            {"monster_key": "orc", "gm_notes": "carries the key"},
        )
        monster_id = spawned.structured_content["character"]["id"]
        gm_view = harness.call("character_get", campaign, {"character_id": monster_id})
        assert gm_view.structured_content["character"]["hp"] == {
            "current": 15,
            "max": 15,
            "temp": 0,
        }
        assert gm_view.structured_content["character"]["gm_notes"] == "carries the key"
        player_view = harness.call(
            "character_get", campaign, {"character_id": monster_id}, sub=PLAYER
        ).structured_content["character"]
        assert player_view == {
            "id": monster_id,
            "name": "Orc",
            "kind": "monster",
            "monster_key": "orc",
            "conditions": [],
            "status": "unhurt",
        }
    else:
        for offset, (text, audience) in enumerate(
            [
                ("The tide is high.", "public"),
                ("The mayor is a cultist.", "gm"),
                ("You hear whispers.", f"player:{PLAYER}"),
            ]
        ):
            added = harness.write(
                "fact_add", campaign, revision + offset, {"text": text, "audience": audience}
            )
            assert added.structured_content["receipt"]["audience"] == audience

        def facts(sub: str) -> list[str]:
            view = harness.call("story_get", campaign, sub=sub).structured_content
            return [f["text"] for f in view["facts"]]

        assert facts(OWNER) == [
            "The tide is high.",
            "The mayor is a cultist.",
            "You hear whispers.",
        ]
        assert facts(PLAYER) == ["The tide is high.", "You hear whispers."]
        assert facts(OTHER_PLAYER) == ["The tide is high."]
        assert facts(OBSERVER) == ["The tide is high."]


# Per system: a GM's write whose result holds what the public may not see, and those keys.
HIDDEN_IN_RESULT = {
    "dnd5e": ("monster_spawn", {"monster_key": "orc", "gm_notes": "carries the key"}, "character",
              {"hp", "ac", "abilities", "attacks", "gm_notes"}),
    "narrative": ("character_create", {"name": "Mara", "gm_notes": "sold the map"}, "character",
                  {"gm_notes"}),
}  # fmt: skip


def test_a_public_view_narrows_a_writes_result_not_the_write(harness: Harness) -> None:
    """A narrowed token's write is performed as its requester with its own receipt; only the
    result is narrowed. A replay answers at the replaying token's view: in full without one."""
    campaign = harness.new_campaign()
    revision = harness.revision(campaign)
    harness.write("phase_set", campaign, revision, {"phase": "play"})
    revision += 1
    tool, args, part, hidden = HIDDEN_IN_RESULT[harness.entry.system_id]
    narrowed = harness.write(tool, campaign, revision, args, key="narrowed", view="public")
    assert not narrowed.is_error, narrowed.structured_content
    assert narrowed.meta["idempotent_replay"] is False
    shown = narrowed.structured_content
    assert json.loads(narrowed.content[0].text) == shown
    assert not hidden & set(shown[part])
    assert harness.revision(campaign) == revision + 1
    receipt = shown["receipt"]
    assert (receipt["previous_revision"], receipt["authority_revision"]) == (revision, revision + 1)
    assert receipt["idempotency_key"] == "narrowed"

    full = harness.write(tool, campaign, revision, args, key="narrowed")
    assert full.meta["idempotent_replay"] is True
    assert hidden <= set(full.structured_content[part])
    assert full.structured_content["receipt"] == receipt
    again = harness.write(tool, campaign, revision, args, key="narrowed", view="public")
    assert (again.structured_content, again.meta["idempotent_replay"]) == (shown, True)
    assert harness.revision(campaign) == revision + 1


def test_trace_context_is_echoed(harness: Harness) -> None:
    campaign = harness.new_campaign(members=False)
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    result = harness.call(
        "campaign_get", campaign, meta={"traceparent": traceparent, "tracestate": "saga=1"}
    )
    assert result.meta["traceparent"] == traceparent
    assert result.meta["tracestate"] == "saga=1"
    failed = harness.call("campaign_get", "missing-campaign", meta={"traceparent": traceparent})
    assert failed.meta["traceparent"] == traceparent
