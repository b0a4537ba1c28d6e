"""Tools every system shares: campaigns, membership, character control, phase and dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain_servers.common import dice
from domain_servers.common.errors import denied, invalid
from domain_servers.common.random_stream import ALGORITHM, derive_seed, seed_fingerprint
from domain_servers.common.server import (
    ALL_ROLES,
    GM_ROLES,
    PLAYING_ROLES,
    PRINCIPAL_PATTERN,
    RANDOM_RECEIPT_SCHEMA,
    Call,
    Outcome,
    ToolSpec,
    View,
    nothing_hidden,
    principal,
    public_part,
    string,
)
from domain_servers.common.text import words

GRANTABLE_ROLES = ["gm", "observer", "player"]
NO_CONTROLLER = "none"
# What the membership tools report of the characters they took from a member.
RELEASED_OUTPUT = {"released_characters": {"type": "array", "items": {"type": "string"}}}


def campaign_tools(
    system_id: str,
    settable_phases: list[str],
    initial_state: Callable[[], dict[str, Any]],
    summary: Callable[[Call], dict[str, Any]],
) -> list[ToolSpec]:
    """The shared tools; `initial_state` seeds system data, `summary` extends campaign_get.

    A write whose change shows in campaign_get (name, phase, members or anything `summary`
    adds) names the `campaign` scope, since hosts refresh campaign views by it. The random
    stream position alone does not: every roll moves it, and it is reported on each result.
    """

    def campaign_create(call: Call) -> Outcome:
        seed = call.args.get("random_seed") or derive_seed(system_id, call.campaign_id)
        call.state.update(
            {
                "campaign_id": call.campaign_id,
                "name": words(call.args["name"], "name"),
                "system_id": system_id,
                "phase": "lobby",
                "members": {call.requester: "owner"},
                "random_stream": {"algorithm": ALGORITHM, "seed": seed, "position": 0},
                "next_seq": 1,
                **initial_state(),
            }
        )
        call.role = "owner"
        return Outcome(
            {"campaign": _campaign_view(call, summary)},
            scopes=["campaign", "membership", "phase"],
            entity_ids=[call.campaign_id],
        )

    def campaign_get(call: Call) -> View:
        return View({"campaign": _campaign_view(call, summary)})

    def campaign_rename(call: Call) -> Outcome:
        # campaign_get is what a game master reads the campaign's name from: a rename the host
        # alone knew of was narrated under the name the campaign was created with.
        previous = call.state["name"]
        call.state["name"] = words(call.args["name"], "name")
        return Outcome(
            {"campaign": _campaign_view(call, summary), "previous_name": previous},
            scopes=["campaign"],
            entity_ids=[call.campaign_id],
        )

    def member_grant(call: Call) -> Outcome:
        target, role = call.args["principal"], call.args["role"]
        members = call.state["members"]
        if members.get(target) == "owner":
            raise invalid("the owner's role cannot be changed")
        if role == "gm" and call.role != "owner":
            raise denied("only the owner may grant the gm role")
        if members.get(target) == "gm" and call.role != "owner":
            raise denied("only the owner may change a gm's role")
        previous = members.get(target)
        members[target] = role
        released = _release_characters(call, target) if role not in PLAYING_ROLES else []
        return _membership_changed(
            {"principal": target, "role": role, "previous_role": previous}, released
        )

    def member_revoke(call: Call) -> Outcome:
        target = call.args["principal"]
        members = call.state["members"]
        if target not in members:
            raise invalid(f"{target} is not a member of this campaign")
        if members[target] == "owner":
            raise invalid("the owner cannot be revoked")
        if members[target] == "gm" and call.role != "owner":
            raise denied("only the owner may revoke a gm")
        previous = members.pop(target)
        return _membership_changed(
            {"principal": target, "previous_role": previous}, _release_characters(call, target)
        )

    def member_leave(call: Call) -> Outcome:
        # The one membership change a member makes alone, and only to themselves: the
        # principal is the token's requester, never an argument.
        members = call.state["members"]
        if members[call.requester] == "owner":
            raise invalid("the owner cannot leave their own campaign")
        previous = members.pop(call.requester)
        return _membership_changed(
            {"principal": call.requester, "previous_role": previous},
            _release_characters(call, call.requester),
        )

    def character_assign(call: Call) -> Outcome:
        # Who plays a character is the host's binding; this makes the rules enforce it.
        char_id = call.args["character_id"]
        char = call.state["characters"].get(char_id)
        if char is None:
            raise invalid(f"character_id {char_id!r} is not a character in this campaign")
        if char.get("kind") == "monster":
            raise invalid(f"{char_id} is a monster; monsters stay with the gm")
        previous = char.get("controller")
        expected = call.args.get("expected_controller")
        if expected is not None and expected != (previous or NO_CONTROLLER):
            # The caller decided on a controller it read; someone changed it since.
            raise invalid(f"{char_id} is controlled by {previous or NO_CONTROLLER}, not {expected}")
        controller = call.args.get("controller")
        check_controller(call, controller)
        char["controller"] = controller
        return Outcome(
            {"character_id": char_id, "controller": controller, "previous_controller": previous},
            scopes=[f"character:{char_id}"],
            entity_ids=[char_id],
        )

    def phase_set(call: Call) -> Outcome:
        phase = call.args["phase"]
        if call.state["phase"] == "combat":
            raise invalid("combat is running; end it with combat_end first")
        previous = call.state["phase"]
        call.state["phase"] = phase
        return Outcome({"phase": phase, "previous_phase": previous}, scopes=["campaign", "phase"])

    def dice_roll(call: Call) -> Outcome:
        rolled = dice.roll(call.args["expression"], call.rng)
        # A blank label is no label, as an empty one always was.
        if label := call.args.get("label", "").strip():
            rolled["label"] = label
        rolled["rolled_by"] = call.requester
        return Outcome(rolled, scopes=["dice"], audience="public")

    return [
        ToolSpec(
            name="campaign_create",
            description=(
                f"Create a {system_id} campaign; the requester becomes its owner. "
                "expected_revision must be 0."
            ),
            handler=campaign_create,
            write=True,
            public=public_part("campaign", _read_by),
            roles=ALL_ROLES,
            phases=None,
            creates_campaign=True,
            params={
                "name": string("Campaign display name.", 120, minLength=1),
                "random_seed": string(
                    "Optional 64-hex seed for the campaign random stream.",
                    64,
                    pattern="^[0-9a-f]{64}$",
                ),
            },
            required=("name",),
            output={"campaign": {"type": "object", "description": "The new campaign."}},
        ),
        ToolSpec(
            name="campaign_get",
            description="Read the campaign: name, phase, members, random stream position.",
            handler=campaign_get,
            write=False,
            roles=ALL_ROLES,
            phases=None,
            output={"campaign": {"type": "object", "description": "Campaign view."}},
        ),
        ToolSpec(
            name="campaign_rename",
            description=(
                "Rename the campaign (owner or gm only); the name follows the rules of "
                "campaign_create's."
            ),
            handler=campaign_rename,
            write=True,
            public=public_part("campaign", _read_by),
            roles=GM_ROLES,
            phases=None,
            params={"name": string("The campaign's new display name.", 120, minLength=1)},
            required=("name",),
            output={
                "campaign": {"type": "object", "description": "The renamed campaign."},
                "previous_name": {"type": "string"},
            },
        ),
        ToolSpec(
            name="member_grant",
            description=(
                "Grant or change a member's role (owner or gm only); an observer controls no "
                "character."
            ),
            handler=member_grant,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=None,
            params={
                "principal": principal("Principal to grant, e.g. user:<uuid>."),
                "role": {
                    "type": "string",
                    "enum": GRANTABLE_ROLES,
                    "maxLength": 16,
                    "description": "Role to grant.",
                },
            },
            required=("principal", "role"),
            output={
                "principal": {"type": "string"},
                "role": {"type": "string"},
                **RELEASED_OUTPUT,
            },
        ),
        ToolSpec(
            name="member_revoke",
            description=(
                "Remove a member from the campaign (owner or gm only); the characters they "
                "controlled are left with no controller."
            ),
            handler=member_revoke,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=None,
            destructive=True,
            params={"principal": principal("Principal to remove.")},
            required=("principal",),
            output={
                "principal": {"type": "string"},
                **RELEASED_OUTPUT,
            },
        ),
        ToolSpec(
            name="member_leave",
            description=(
                "Leave the campaign as the requester (any member but the owner); the characters "
                "they controlled are left with no controller."
            ),
            handler=member_leave,
            write=True,
            public=nothing_hidden,
            roles=ALL_ROLES,
            phases=None,
            destructive=True,
            output={
                "principal": {"type": "string"},
                **RELEASED_OUTPUT,
            },
        ),
        ToolSpec(
            name="character_assign",
            description=(
                "Give a character to the member who plays it, or with no controller keep it for "
                "the gm alone (owner or gm only). Only the controller may act as it."
            ),
            handler=character_assign,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=None,
            params={
                "character_id": string("The character to assign.", 80, minLength=1),
                "controller": principal("The playing member who controls it; omit for none."),
                "expected_controller": {
                    "type": "string",
                    "maxLength": 160,
                    "pattern": f"^({NO_CONTROLLER}|{PRINCIPAL_PATTERN[1:-1]})$",
                    "description": (
                        f"Assign only if this is the current controller ('{NO_CONTROLLER}' for "
                        "none); otherwise change nothing."
                    ),
                },
            },
            required=("character_id",),
            output={
                "character_id": {"type": "string"},
                "controller": {"type": ["string", "null"]},
                "previous_controller": {"type": ["string", "null"]},
            },
        ),
        ToolSpec(
            name="phase_set",
            description="Move the campaign between phases (owner or gm only).",
            handler=phase_set,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=None,
            params={
                "phase": {
                    "type": "string",
                    "enum": settable_phases,
                    "maxLength": 16,
                    "description": "The new phase.",
                }
            },
            required=("phase",),
            output={"phase": {"type": "string"}},
        ),
        ToolSpec(
            name="dice_roll",
            description=(
                "Roll dice from the campaign's seeded stream: terms like 2d6+3, 1d20-1, "
                "2d20kh1 (advantage) or 2d20kl1; N 1..100, S 2..1000."
            ),
            handler=dice_roll,
            write=True,
            public=nothing_hidden,
            roles=PLAYING_ROLES,
            phases=None,
            params={
                "expression": string("Dice expression, e.g. 2d6+3.", 120, minLength=1),
                "label": string("Optional label shown with the roll.", 120),
            },
            required=("expression",),
            output={
                "total": {"type": "integer"},
                "expression": {"type": "string"},
                "rolls": {"type": "array"},
                "detail": {"type": "string"},
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
        ),
    ]


def check_controller(call: Call, controller: str | None) -> None:
    """Only a member who plays controls a character (observers and former members control
    none), whether it is assigned or created for them."""
    if controller is not None and call.state["members"].get(controller) not in PLAYING_ROLES:
        raise invalid(f"{controller} is not a member who plays in this campaign")


def _membership_changed(result: dict[str, Any], released: list[str]) -> Outcome:
    """A member_grant, member_revoke or member_leave outcome: the membership changed, and so
    did every character it released."""
    return Outcome(
        {**result, "released_characters": released},
        scopes=["campaign", "membership", *(f"character:{c}" for c in released)],
        entity_ids=[result["principal"], *released],
    )


def _release_characters(call: Call, target: str) -> list[str]:
    """A former member, or one now only watching, controls nothing: their characters stay
    with the gm until assigned again. Returns their ids, sorted."""
    released = sorted(
        char_id
        for char_id, char in call.state["characters"].items()
        if char.get("controller") == target
    )
    for char_id in released:
        call.state["characters"][char_id]["controller"] = None
    return released


def _campaign_view(call: Call, summary: Callable[[Call], dict[str, Any]]) -> dict[str, Any]:
    state = call.state
    stream = state["random_stream"]
    return {
        "campaign_id": state["campaign_id"],
        "name": state["name"],
        "system_id": state["system_id"],
        "phase": state["phase"],
        "members": [{"principal": p, "role": r} for p, r in sorted(state["members"].items())],
        **_reader(call),
        "random_stream": {
            "algorithm": stream["algorithm"],
            "seed_fingerprint": seed_fingerprint(stream["seed"]),
            "position": stream["position"],
        },
        **summary(call),
    }


def _reader(call: Call) -> dict[str, Any]:
    """What a campaign view says of the one who reads it."""
    return {"your_role": call.state["members"].get(call.requester), "audience": call.audience}


def _read_by(call: Call, campaign: dict[str, Any]) -> dict[str, Any]:
    """A campaign view another reader was given, as `call`'s reader is given it."""
    return {**campaign, **_reader(call)}
