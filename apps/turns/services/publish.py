"""Publication: narration, receipts, projections, artifacts, settlement and the job's end state,
in one transaction. If it fails after the domain committed, the job waits and is published
again from the stored journal and agent output; nothing is executed or charged twice."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership
from apps.campaigns.services.authority import receipt_apply, receipt_revision
from apps.campaigns.services.characters import binding_for_created
from apps.campaigns.tasks import campaign_reread
from apps.core.errors import ApplicationError
from apps.domains.client import principal_for
from apps.domains.registry import get_plugin
from apps.quota.models import Reservation
from apps.quota.services import quota_settle
from apps.rooms.models import Message
from apps.rooms.selectors import MANAGER_ROLES
from apps.rooms.services import room_event_record
from apps.turns import conf
from apps.turns.dice import ODDS_SAID, roll_addends, roll_dropped
from apps.turns.errors import PublicationFailed, TurnCancelled, recovery_for
from apps.turns.media import artifact_envelope, artifact_store, image_blocks
from apps.turns.models import Operation, ProjectionSnapshot, RoomTurnJob
from apps.turns.projections import GM, PUBLIC, projection_apply, projection_reads
from apps.turns.selectors import action_quote
from apps.turns.services.jobs import (
    OUTCOME_EVENT,
    LeaseLost,
    enqueue_run,
    held_by,
    job_announce,
    job_cancelled_record,
    job_ended_record,
    job_reservation_release,
    job_update_announced,
)
from apps.turns.types import MAX_SUGGESTIONS, AgentOutput, audience_allowed

logger = logging.getLogger(__name__)

NARRATION_EVENT = "turn.narration"
SUGGESTIONS_EVENT = "turn.suggestions"
COMBAT_PANEL = "combat"


@dataclass(frozen=True)
class _Receipt:
    """receipt_apply reads only `.receipt`: a stored receipt stands in for a live result."""

    receipt: dict[str, Any]


def output_to_json(output: AgentOutput) -> dict[str, Any]:
    return {
        "messages": [{"text": m.text, "audience": m.audience} for m in output.messages],
        "suggestions": list(output.suggestions),
        "suggestions_for": {c: list(items) for c, items in output.suggestions_for.items()},
        "gm_suggestions": list(output.gm_suggestions),
        "turn": asdict(output.turn) if output.turn is not None else None,
        "tool_calls": output.tool_calls,
        "usage": dict(output.usage),
        "declined": bool(output.declined),
        "help_only": bool(output.help_only),
        "final_status": RoomTurnJob.Status.SUCCEEDED,
        "error": None,
    }


def _rolled_line(tool: str, label: str, roll: dict[str, Any]) -> dict[str, Any]:
    """A dice line for a roll of dice alone (a potion's, a spell's, Hit Dice): the dice and
    their total, no hit points."""
    return {
        "tool": tool,
        "label": label,
        "expression": roll.get("expression"),
        "total": roll.get("total"),
        "addends": roll_addends(roll),
        "dropped": roll_dropped(roll),
    }


def _spell_lines(s: dict[str, Any], *, gm_only: bool) -> list[dict[str, Any]]:
    """A spell's dice lines: an attack spell's roll as an attack's line (its caster the
    attacker), a save spell's target's save as a saving throw's line, and what it rolled (its
    healing, every dart's damage, a failed save's damage) as a potion's line shows it: the
    dice, not hit points."""
    lines = []
    if isinstance(s.get("to_hit"), dict):
        attack = {
            **s,
            "attack": s.get("spell_name") or s.get("spell") or "",
            "attacker_id": s.get("caster_id"),
            "attacker_name": s.get("caster_name"),
            # Only a player's cleric or wizard casts: its natural die is the table's.
            "attacker_kind": "pc",
        }
        lines += dice_from([_as_operation("attack", attack)], gm_only=gm_only)
    if isinstance(s.get("save"), dict):
        lines += dice_from([_as_operation("saving_throw", s["save"])], gm_only=gm_only)
    if isinstance(s.get("roll"), dict):
        label = _("%(spell)s · %(name)s") % {
            "spell": s.get("spell_name") or s.get("spell") or "",
            "name": s.get("target_name") or s.get("target_id") or "",
        }
        lines.append(_rolled_line("spell_cast", label, s["roll"]))
    # Its damage's concentration saves (an attack spell's come with its attack line).
    if isinstance(s.get("damage"), dict):
        lines += _concentration_lines(s["damage"], s, gm_only=gm_only)
    return lines


def _concentration_lines(
    damage: dict[str, Any], s: dict[str, Any], *, gm_only: bool
) -> list[dict[str, Any]]:
    """The concentration saves a damaged creature made (`damage`: damage_apply's result, or the
    effect of an attack's or a spell's damage), one line each as any save's, with the spell a
    failure ends. Magic Missile's darts each call for one (`saves`) until one fails. Dropping to
    0 HP ends it with no roll: no line, the narration says why."""
    held = damage.get("concentration")
    if not isinstance(held, dict):
        return []
    saves = held["saves"] if isinstance(held.get("saves"), list) else [held.get("save")]
    spell = held.get("spell") or ""
    lines = []
    for save in saves:
        if not isinstance(save, dict):
            continue
        label = _("Concentration (%(ability)s save) · %(name)s → %(spell)s") % {
            "ability": str(save.get("ability") or "con").upper(),
            "name": save.get("character_name") or s.get("target_name") or s.get("target_id") or "",
            "spell": spell,
        }
        line = _check_line("saving_throw", save, label, gm_only=gm_only)
        if "dc" in save and not save.get("success"):
            line["ends"] = _("%(spell)s ends") % {"spell": spell}
        lines.append(line)
    return lines


def _check_line(tool: str, s: dict[str, Any], label: str, *, gm_only: bool) -> dict[str, Any]:
    """An ability check's or a save's line: its total, and against a DC whether it succeeded."""
    line = {
        "tool": tool,
        "label": label,
        "natural": _natural_shown(s.get("natural"), kind=s.get("character_kind"), gm_only=gm_only),
        "total": s.get("total"),
        # Two d20s rolled, one kept (asked for, or a condition's): the line says it where an
        # attack's line does, so the label names only the roll, as an attack's does.
        "mode": s.get("mode") or "normal",
    }
    if line["natural"] is not None and (bless := _bless_roll(s)) is not None:
        # Bless's d4 (in the total) goes where the natural die goes, and nowhere else.
        line["bless"] = bless
    if "dc" in s:
        line.update(dc=s.get("dc"), success=bool(s.get("success")))
    if s.get("automatic_failure"):
        # The rules failed it whatever was rolled (a paralysed creature's dex save): the line
        # says why, as the narration does, not only the total against the DC.
        line["automatic_failure"] = str(s["automatic_failure"])
    return line


def _initiative_line(tool: str, entry: dict[str, Any], *, gm_only: bool) -> dict[str, Any]:
    """A combatant's initiative (an entry of combat_start's order): its total, and as a check's
    line its natural die and whether two were rolled. An order stored before combat_start said
    how it rolled has its total alone."""
    card = entry.get("character") or {}
    line = {
        "tool": tool,
        "label": _("Initiative · %(name)s") % {"name": card.get("name") or entry.get("id")},
        "total": entry.get("initiative"),
    }
    if "mode" in entry:
        line["natural"] = _natural_shown(
            entry.get("natural"), kind=card.get("kind"), gm_only=gm_only
        )
        line["mode"] = entry["mode"]
    return line


def _natural_shown(natural: Any, *, kind: Any, gm_only: bool) -> Any:
    """The natural d20 a roll's line shows. A monster's, with the total, gives away its stat
    block's modifier: only a GM line shows it. A roll that names no roller's kind (one stored
    before rolls said whose they were) may be a monster's."""
    return natural if gm_only or kind == "pc" else None


def _bless_roll(rolled: dict[str, Any]) -> int | None:
    """The d4 Bless added to a roll (`{"bless": {"roll": n}}`), or None if it was not blessed."""
    bless = rolled.get("bless")
    return bless.get("roll") if isinstance(bless, dict) else None


def _as_operation(tool: str, structured: dict[str, Any]) -> Operation:
    """A spell's part as the tool whose line it reads like (unsaved: only its lines are made)."""
    return Operation(step=0, tool=tool, result={"structuredContent": structured})


def dice_from(
    operations: list[Operation], by: str = "", by_id: str = "", *, gm_only: bool = False
) -> list[dict[str, Any]]:
    """Dice results to show in the room, from the stored results (already filtered by the
    domain for the requester). Only roll facts: never hit points or stat blocks. `by` (and
    their user id, `by_id`) names who rolled where the roll itself names nobody (a plain roll,
    an oracle question). Unless the lines go to the GM only, a monster's attack, check or save
    shows no natural die: with the total it gives away the bonus or modifier of its stat
    block."""
    dice: list[dict[str, Any]] = []
    for op in operations:
        s = (op.result or {}).get("structuredContent") or {}
        if not isinstance(s, dict):
            continue
        if op.tool == "dice_roll":
            dice.append(
                {
                    "tool": op.tool,
                    "label": s.get("label") or "",
                    "expression": s.get("expression"),
                    "total": s.get("total"),
                    # The panel shows the sum and any dropped dice from these, not from the
                    # domain's detail text.
                    "addends": roll_addends(s),
                    "dropped": roll_dropped(s),
                    "by": by,
                    "by_id": by_id,
                }
            )
        elif op.tool == "attack":
            to_hit = s.get("to_hit") or {}
            damage = s.get("damage") or {}
            line: dict[str, Any] = {
                "tool": op.tool,
                "label": s.get("attack") or "",
                "attacker_id": s.get("attacker_id"),
                "target_id": s.get("target_id"),
                # Named at the time: a line replayed outside combat still says who.
                "attacker_name": s.get("attacker_name"),
                "target_name": s.get("target_name"),
                "natural": _natural_shown(
                    to_hit.get("natural"), kind=s.get("attacker_kind"), gm_only=gm_only
                ),
                "total": to_hit.get("total"),
                # Whether two d20s were rolled and which was kept (Pack Tactics, a prone
                # target): the table sees why an attack went as it did.
                "mode": to_hit.get("mode") or "normal",
                "hit": bool(s.get("hit")),
                "critical": bool(s.get("critical")),
                "damage": damage.get("total") if damage else None,
                "damage_type": damage.get("damage_type") if damage else None,
            }
            if line["natural"] is not None and (bless := _bless_roll(to_hit)) is not None:
                # As a check's: Bless's d4 shown only where the natural die is.
                line["bless"] = bless
            dice.append(line)
            # A hit on a concentrating creature: its save follows the blow that called for it.
            if isinstance(damage.get("effect"), dict):
                dice.extend(_concentration_lines(damage["effect"], s, gm_only=gm_only))
        elif op.tool == "combat_start":
            # Everyone's initiative, as the turn order (shown to all) ranks them.
            for entry in (s.get("combat") or {}).get("order") or []:
                dice.append(_initiative_line(op.tool, entry, gm_only=gm_only))
        elif op.tool == "heal" and isinstance(s.get("potion"), dict):
            potion = s["potion"]
            label = _("Potion of healing · %(name)s") % {
                "name": s.get("target_name") or s.get("target_id") or ""
            }
            dice.append(_rolled_line(op.tool, label, potion))
        elif op.tool == "spell_cast":
            dice.extend(_spell_lines(s, gm_only=gm_only))
        elif op.tool == "damage_apply":
            dice.extend(_concentration_lines(s, s, gm_only=gm_only))
        elif op.tool == "short_rest" and isinstance(s.get("roll"), dict):
            # The Hit Dice a short rest spent, as a spell's line shows its healing: the dice.
            label = _("Hit Dice · %(name)s") % {
                "name": s.get("character_name") or s.get("character_id") or ""
            }
            dice.append(_rolled_line(op.tool, label, s["roll"]))
        elif op.tool == "death_save":
            outcome = str(s.get("outcome") or "").replace("_", " ")
            line = {
                "tool": op.tool,
                "label": _("Death save · %(name)s")
                % {"name": s.get("character_name") or s.get("character_id") or ""},
                "expression": "d20",
                # A blessed save's total is d20 + d4 (10 or more succeeds); an unblessed one
                # carries no total: its d20 is its total.
                "total": s.get("total", s.get("natural")),
                "result": outcome,
            }
            # Only a character makes death saves: its dice are the table's.
            if (bless := _bless_roll(s)) is not None:
                line["bless"] = bless
            dice.append(line)
        elif op.tool == "oracle_ask":
            line = {
                "tool": op.tool,
                "label": s.get("question") or "",
                "expression": "d100",
                "total": s.get("roll"),
                "result": s.get("result"),
            }
            # The odds asked at, in the reply's words: "YES, AND" reads differently at likely
            # and at even odds. An answer stored without known odds keeps the line it had.
            if said := ODDS_SAID.get(str(s.get("likelihood"))):
                line["odds"] = _("%(odds)s odds") % {"odds": said}
            dice.append({**line, "by": by, "by_id": by_id})
        elif "total" in s and ("dc" in s or op.tool == "ability_check"):
            # An ability check may have no DC (the GM compares its total, a Stealth roll with
            # the watchers' Perception): its line is the roll, with no DC and no outcome.
            what = (s.get("skill") or s.get("ability") or "").replace("_", " ")
            kind = _("save") if s.get("kind") == "save" else _("check")
            label = f"{what} {kind}".strip().capitalize()
            if s.get("character_name"):
                label = f"{label} · {s['character_name']}"
            dice.append(_check_line(op.tool, s, label, gm_only=gm_only))
    return dice


def _message_audience(job: RoomTurnJob, audience: str, requester_is_gm: bool):
    """(room audience, recipient ids) for an agent message audience."""
    if not audience_allowed(
        audience=audience, trigger_audience=job.trigger_audience, requester_is_gm=requester_is_gm
    ):
        audience = "trigger"
    if audience == "trigger":
        return job.trigger_audience, []
    if audience == "gm":
        return Message.Audience.GM, []
    if audience == "requester":
        return Message.Audience.PRIVATE, [str(job.requester_id)]
    return Message.Audience.PUBLIC, []


class _Requester:
    """Whether the requester is still an active member, asked only when something is addressed
    to them alone: a player removed while their turn ran gets no private events (the room
    refuses them), and the public outcome is published all the same."""

    def __init__(self, job: RoomTurnJob) -> None:
        self.job = job
        self._present: bool | None = None

    @property
    def present(self) -> bool:
        if self._present is None:
            self._present = CampaignMembership.objects.filter(
                campaign_id=self.job.campaign_id,
                user_id=self.job.requester_id,
                status=CampaignMembership.Status.ACTIVE,
            ).exists()
        return self._present


def _suggestions_by_recipient(
    campaign: Campaign,
    job: RoomTurnJob,
    stored: dict[str, Any],
    requester: _Requester,
    requester_is_gm: bool,
) -> dict[str, list[str]]:
    """Each person's suggestions (user id -> one list, requester first): the requester's own,
    a character's for the active member who controls it, and a monster's for each active GM,
    joined to the requester's when that is them (a second event would replace the first on
    their page). Anyone else is a wider audience than a private or GM-only action's: only a
    public action reaches a player; the GM may read any."""
    by_user: dict[str, list[str]] = {}
    if stored.get("suggestions") and requester.present:
        by_user[str(job.requester_id)] = list(stored["suggestions"])

    def offer(user: str, suggestions: list[str]) -> None:
        merged = by_user.setdefault(user, [])
        merged += [s for s in suggestions if s not in merged]
        del merged[MAX_SUGGESTIONS:]

    for_gm = stored.get("gm_suggestions") or []
    if for_gm and audience_allowed(
        audience="gm", trigger_audience=job.trigger_audience, requester_is_gm=requester_is_gm
    ):
        gms = CampaignMembership.objects.filter(
            campaign=campaign,
            status=CampaignMembership.Status.ACTIVE,
            role__in=MANAGER_ROLES,
        ).order_by("pk")
        for user_id in gms.values_list("user_id", flat=True):
            offer(str(user_id), for_gm)
    wanted = stored.get("suggestions_for") or {}
    if not wanted:
        return by_user  # the usual turn: nothing to look up
    others_allowed = audience_allowed(
        audience="public", trigger_audience=job.trigger_audience, requester_is_gm=requester_is_gm
    )
    controllers = dict(
        ActorBinding.objects.filter(
            campaign=campaign,
            character_id__in=list(wanted),
            status=ActorBinding.Status.ACTIVE,
            can_control=True,
            user__campaign_memberships__campaign=campaign,
            user__campaign_memberships__status=CampaignMembership.Status.ACTIVE,
        ).values_list("character_id", "user_id")
    )
    for character_id, suggestions in wanted.items():
        user_id = controllers.get(character_id)
        if user_id is None:
            continue  # nobody plays it
        user = str(user_id)
        if user != str(job.requester_id) and not others_allowed:
            continue
        offer(user, suggestions)
    return by_user


def _turn_stated(
    job: RoomTurnJob, stored: dict[str, Any], receipts: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The turn the agent said its suggestions are for, at the revision its last write made
    (the one it started at, without writes): what it saw, whatever turn another job of the room
    published meanwhile. None if it said none."""
    stated = stored.get("turn")
    revision = max((receipt_revision(r) for r in receipts), default=job.start_revision)
    if not isinstance(stated, dict) or revision is None:
        return None
    return {
        "revision": revision, "phase": stated.get("phase"),
        "round": stated.get("round"), "combatant": stated.get("combatant"), "known": True,
    }  # fmt: skip


def _turn_offered_for(campaign: Campaign) -> dict[str, Any]:
    """The turn suggestions published now are for, as the room's panels show it at the
    campaign's revision: its phase, and in combat the round and whose turn it is (None outside
    it). A page drops them once its panels show another turn, and ignores them arriving after
    it. `known` is false when no read of the combat panel at this revision is stored (none made
    yet, or a passing domain fault kept the row old): the page then goes by the phase alone."""
    turn: dict[str, Any] = {
        "revision": campaign.authority_revision, "phase": campaign.phase,
        "round": None, "combatant": None, "known": True,
    }  # fmt: skip
    if not any(panel.key == COMBAT_PANEL for panel in get_plugin(campaign.system_id).panels):
        return turn  # a system without combat turns
    # The GM's (or everyone's) row: every turn that changes combat reads it again.
    current = ProjectionSnapshot.objects.filter(
        campaign_id=campaign.pk,
        scope=COMBAT_PANEL,
        audience__in=(GM, PUBLIC),
        authority_revision__gte=campaign.authority_revision,
    )
    data = current.values_list("data", flat=True).first()
    if data is None:
        return {**turn, "known": False}
    combat = data.get("combat")
    if isinstance(combat, dict) and isinstance(combat.get("order"), list):
        turn.update(round=combat.get("round"), combatant=combat.get("current"))
    return turn


def _bind_created_characters(campaign: Campaign, job: RoomTurnJob, operations) -> None:
    """A character a player's turn created is theirs to act as, as if made with the form: the
    delegation of their later turns names it."""
    for op in operations:
        if op.tool != "character_create":
            continue  # the usual turn: nothing to look at
        character = (op.result or {}).get("structuredContent", {}).get("character")
        if (
            isinstance(character, dict)
            and character.get("id")
            and character.get("controller") == principal_for(job.requester)
        ):
            binding_for_created(
                campaign=campaign,
                user=job.requester,
                character=character,
                revision=receipt_revision(op.receipt),
            )


def _actual_credits(
    stored: dict[str, Any], operations: list[Operation], refused: Callable[[], bool]
) -> int:
    """One credit per turn, one per executed tool call, one per started 1000 model tokens. A
    turn that changed nothing and used no model is free: one not understood (no call), one
    the rules refused (`refused()`: a call was refused), or one the agent declined after
    looking (a misspelt command asked back, an action refused by the agent itself)."""
    usage = stored.get("usage") or {}
    # The total an agent reports is its answers' charged tokens (AgentOutput.usage); usage
    # stored without one is charged its parts.
    tokens = int(
        usage["total_tokens"]
        if "total_tokens" in usage
        else usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
    )
    used_model = tokens or int(usage.get("model_calls", 0))
    declined = bool(stored.get("declined"))
    if (
        not used_model
        and not any(op.write for op in operations)
        and (not operations or declined or refused())
    ):
        return 0
    return 1 + len(operations) + (tokens + 999) // 1000


def _refused(job: RoomTurnJob, journal: dict[int, Operation] | None) -> bool:
    if journal is not None:
        return any(op.state == Operation.State.REFUSED for op in journal.values())
    return Operation.objects.filter(job=job, state=Operation.State.REFUSED).exists()


def _lock_held(job: RoomTurnJob, worker: str, *columns: str) -> tuple[Any, ...]:
    """Lock the job's row and read `columns` of it, if this worker still holds this attempt;
    raises LeaseLost otherwise. The lock keeps a cancel or the recovery sweep off the row until
    the caller's transaction commits; only the columns checked and asked for are read."""
    status, holder, attempt, *values = (
        RoomTurnJob.objects.select_for_update()
        .values_list("status", "worker", "attempt", *columns)
        .get(pk=job.pk)
    )
    if (status, holder, attempt) != (RoomTurnJob.Status.RUNNING, worker, job.attempt):
        raise LeaseLost(_("The job's lease passed to another worker."))
    return tuple(values)


def _tell_requester(
    campaign: Campaign, job: RoomTurnJob, event_type: str, *, data: dict[str, Any], body: str = ""
) -> None:
    """A room event for the player who acted alone (their outcome, their suggestions)."""
    room_event_record(
        campaign=campaign, event_type=event_type, body=body, data=data,
        audience=Message.Audience.PRIVATE, recipient_ids=[str(job.requester_id)],
    )  # fmt: skip


def _note_cancelled(
    campaign: Campaign,
    job: RoomTurnJob,
    final: str,
    *,
    acted: bool = False,
    dice: list[dict[str, Any]] | None = None,
) -> None:
    """The room told that a turn it saw was cancelled and who cancelled it, as a queued turn's
    note does; the one who did reads it addressed to them (the room's page picks it). `acted`:
    a write of it committed on the domain, which stands; `dice`: what that write rolled, shown
    with the note to everyone who saw the action."""
    # Read again: the cancel came while the worker held the job it had loaded.
    by = RoomTurnJob.objects.select_related("cancelled_by").get(pk=job.pk).cancelled_by
    data = {"dice": dice} if dice else {}
    if by is None:
        # Cancelled before the canceller was kept, or their account is gone.
        if acted:
            message = _(
                "“%(action)s” was cancelled after the rules had acted: what they did stands."
            )
        else:
            message = _("“%(action)s” was cancelled.")
        job_ended_record(
            campaign=campaign, job=job, status=final,
            message=message % {"action": action_quote(job.text)}, **data,
        )  # fmt: skip
        return
    job_cancelled_record(campaign=campaign, job=job, status=final, by=by, acted=acted, **data)


def _note_answered_privately(
    campaign: Campaign,
    job: RoomTurnJob,
    final: str,
    *,
    requester_is_gm: bool,
    requester_answered: bool,
    requester: _Requester,
) -> None:
    """The room saw the action but none of its answer (a refusal, a private aside; not a reply
    that is only help): it is told an answer was given, so the action does not stand there
    unanswered. A GM's note names their action, not them as the one answered: at their own
    table, "the game master" is them. `requester_answered`: the requester reads some of the
    answer; otherwise it went to the game master alone, and the requester is told so too."""
    if requester_is_gm and job.task == "narration":
        message = _("%(name)s's narration was answered privately.")
    elif requester_is_gm:
        message = _("%(name)s's action was answered privately.")
    elif requester_answered:
        message = _("The game master answered %(name)s privately.")
    else:
        message = _("%(name)s's action was answered to the game master only.")
    job_ended_record(
        campaign=campaign, job=job, status=final,
        message=message % {"name": job.requester.label},
        # Their page leaves it out, as a GM's does: they read the answer itself (a GM reads
        # every answer), or their own note below. It is for the others who saw the action.
        answered_privately=str(job.requester_id),
    )  # fmt: skip
    if not requester_answered and requester.present:
        _tell_requester(
            campaign, job, OUTCOME_EVENT,
            body=_("Your action was answered to the game master only."),
            data={"job_id": str(job.pk), "status": final},
        )  # fmt: skip


def _note_dropped(campaign: Campaign, job: RoomTurnJob, final: str, *, partly: bool) -> None:
    """The room told that a turn ended because its player left; `partly`: a write of it may
    have happened on the domain."""
    if partly:
        message = _(
            "“%(action)s” ended: its player is no longer in the campaign, and part of it may "
            "have happened."
        )
    else:
        message = _("“%(action)s” was dropped: its player is no longer in the campaign.")
    job_ended_record(
        campaign=campaign, job=job, status=final,
        message=message % {"action": action_quote(job.text)},
    )  # fmt: skip


def turn_publish(
    *, job: RoomTurnJob, worker: str, journal: dict[int, Operation] | None = None
) -> str:
    """Publish the stored outcome of a running job this worker holds; returns the final status.
    `journal` is the run's own journal (step -> operation, as written by this worker); without
    it the operations are read. Raises LeaseLost if the job is no longer this worker's, and
    whatever publication raised (nothing of it is kept)."""
    stored = job.agent_output or {}
    final = stored.get("final_status") or RoomTurnJob.Status.SUCCEEDED
    if journal is not None:
        operations = [
            op for _step, op in sorted(journal.items()) if op.state == Operation.State.RETURNED
        ]
    else:
        operations = list(
            Operation.objects.filter(job=job, state=Operation.State.RETURNED).order_by("step")
        )
    campaign = Campaign.objects.select_related("owner").get(pk=job.campaign_id)
    receipts = [op.receipt for op in operations if op.receipt]
    # Domain reads for the projections happen here, before the transaction opens.
    refresh = projection_reads(
        campaign=campaign, receipts=receipts, requester=job.requester,
        turn_audience=job.trigger_audience,
    )  # fmt: skip
    images = [(op, block) for op in operations for block in image_blocks(op.result)]
    committed = any(op.write for op in operations)
    requester_is_gm = job.role in ("owner", "gm") or campaign.owner_id == job.requester_id
    fault, limit = conf.fault()
    now = timezone.now()
    with transaction.atomic():
        (cancel_requested,) = _lock_held(job, worker, "cancel_requested")
        phase_written = False
        for receipt in receipts:
            # The newest receipt sets the phase its refresh read, in the same UPDATE.
            phase = refresh.phase if receipt_revision(receipt) == refresh.revision else None
            wrote = receipt_apply(campaign=campaign, result=_Receipt(receipt), phase=phase)
            phase_written |= bool(wrote and phase)
        if not requester_is_gm:
            _bind_created_characters(campaign, job, operations)
        requester = _Requester(job)
        narration = [
            (message["text"], *_message_audience(job, message["audience"], requester_is_gm))
            for message in stored.get("messages") or []
        ]
        narration = [n for n in narration if not n[2] or requester.present]
        # Dice and images ride on one message only, so nothing shows twice: the first one the
        # whole trigger audience sees (a narrower one would hide them from some who acted).
        carrier = next(
            (i for i, (_t, audience, recipients) in enumerate(narration)
             if audience == job.trigger_audience and not recipients),
            0,
        )  # fmt: skip
        # An image is bound to the audience of the message that shows it, never a wider one: the
        # carrier, or without narration the requester's own outcome.
        artifact_audience, artifact_recipients = (
            narration[carrier][1:] if narration
            else (Message.Audience.PRIVATE, [str(job.requester_id)])
        )  # fmt: skip
        artifacts = [
            artifact_envelope(
                artifact_store(
                    campaign_id=campaign.pk,
                    block=block,
                    audience=artifact_audience,
                    recipient_ids=artifact_recipients,
                    job_id=job.pk,
                    step=op.step,
                )  # fmt: skip
            )
            for op, block in images
        ]
        data = {
            "job_id": str(job.pk),
            "trigger_message_id": str(job.trigger_message_id),
            "dice": dice_from(
                operations,
                by=job.requester.label,
                by_id=str(job.requester_id),
                gm_only=bool(narration) and narration[carrier][1] == Message.Audience.GM,
            ),  # fmt: skip
            "artifacts": artifacts,
            "authority_revision": campaign.authority_revision,
        }
        for index, (text, audience, recipients) in enumerate(narration):
            room_event_record(
                campaign=campaign,
                event_type=NARRATION_EVENT,
                body=text,
                data=data if index == carrier else {"job_id": str(job.pk)},
                audience=audience,
                recipient_ids=recipients,
            )
        answered = narration and final == RoomTurnJob.Status.SUCCEEDED
        # Not of a reply that is only help (the help list, a typo asked back): the rest of the
        # room missed nothing of the game.
        if (
            answered
            and not stored.get("help_only")
            and job.trigger_audience == Message.Audience.PUBLIC
            and all(audience != Message.Audience.PUBLIC for _t, audience, _r in narration)
        ):
            _note_answered_privately(
                campaign, job, final, requester_is_gm=requester_is_gm,
                # A GM reads the game master's lines; a player only those addressed to them.
                requester_answered=requester_is_gm
                or any(audience == Message.Audience.PRIVATE for _t, audience, _r in narration),
                requester=requester,
            )  # fmt: skip
        error = stored.get("error")
        cancelled = final == RoomTurnJob.Status.CANCELLED
        if cancelled:
            # What the domain did stands, so its dice reach everyone who saw the action, as a
            # finished turn's would (with its narration, if it had any), not the player alone:
            # else they could roll, cancel and roll again while the table saw no roll.
            _note_cancelled(
                campaign, job, final, acted=committed,
                dice=[] if narration else dice_from(
                    operations, by=job.requester.label, by_id=str(job.requester_id),
                    gm_only=job.trigger_audience == Message.Audience.GM,
                ),
            )  # fmt: skip
        elif final != RoomTurnJob.Status.SUCCEEDED and not requester.present:
            # Its player left or was removed: the others are told, in words of their own (the
            # error was worded for the player).
            _note_dropped(
                campaign, job, final,
                partly=job.operations.filter(state=Operation.State.UNKNOWN).exists(),
            )  # fmt: skip
        # The requester's own outcome: why it failed (a cancelled turn's note says all of it).
        own_outcome = final != RoomTurnJob.Status.SUCCEEDED and not cancelled
        if own_outcome and requester.present:
            _tell_requester(
                campaign, job, OUTCOME_EVENT,
                body="" if cancelled else (error or {}).get("message") or "",
                data={**data, "status": final, "error": error},
            )  # fmt: skip
        offers = _suggestions_by_recipient(campaign, job, stored, requester, requester_is_gm)
        # After the narration, so the room's sockets get what was said before the panels'
        # `state.changed` (which only makes pages re-read them).
        projection_apply(campaign=campaign, refresh=refresh, phase_written=phase_written)
        # The turn the agent said they are for; else read once the panels' rows of this
        # revision are written: what the turn now is.
        turn = (
            (_turn_stated(job, stored, receipts) or _turn_offered_for(campaign)) if offers else None
        )
        for recipient, suggestions in offers.items():
            room_event_record(
                campaign=campaign, event_type=SUGGESTIONS_EVENT,
                data={"job_id": str(job.pk), "suggestions": suggestions, "turn": turn},
                audience=Message.Audience.PRIVATE, recipient_ids=[recipient],
            )  # fmt: skip
        if refresh.phase_unread:
            # Otherwise the phase the room's turns are given tools for stays the old one.
            transaction.on_commit(partial(campaign_reread.delay, str(campaign.pk)), robust=True)
        charged = None
        if job.reservation_id:
            actual = 0
            if final == RoomTurnJob.Status.SUCCEEDED or committed:
                actual = _actual_credits(stored, operations, lambda: _refused(job, journal))
            if actual:
                # quota_settle locks and reads the reservation itself: only its key is needed.
                entry = quota_settle(reservation=Reservation(pk=job.reservation_id), actual=actual)
                charged = entry.amount
            elif job_reservation_release(job, final):
                charged = 0
        if fault == "fail_publish" and job.attempt <= limit:
            raise PublicationFailed(_("Injected publication fault."))
        ending = {
            "status": final,
            "result_revision": campaign.authority_revision,
            "charged": charged,
            "finished_at": now,
            "lease_expires_at": None,
            "error_code": error["code"] if error else "",
            "error_message": error["message"][:2000] if error else "",
            "retryable": bool(error["retryable"]) if error else False,
            "recovery": (error.get("recovery") or "")[:300] if error else "",
            "updated_at": timezone.now(),  # what auto_now would write: the end of the body
        }
        job.cancel_requested = cancel_requested
        job_update_announced(job, ending)  # the row is locked above
    return final


def turn_publish_or_wait(
    *,
    job: RoomTurnJob,
    worker: str,
    journal: dict[int, Operation] | None = None,
    prepare: Callable[[], None] | None = None,
) -> str:
    """Publish; if publication (or `prepare`, run first and outside any transaction) fails,
    move the job to `waiting` and schedule another try, with a growing but bounded wait. A turn
    whose every write was refused (nothing happened on the domain) ends `failed` once its
    tries are spent; one the domain may have acted on waits for as long as it takes, since
    ending it would drop what the domain did."""
    try:
        if prepare is not None:
            prepare()
        return turn_publish(job=job, worker=worker, journal=journal)
    except LeaseLost:
        raise
    except Exception as exc:
        logger.warning("Publishing turn %s failed; it waits for recovery", job.pk, exc_info=True)
        give_up = job.attempt >= conf.publish_attempts() and not _domain_may_have_acted(job)
        # Worded for the people who read the job row (the requester among them): an application
        # error's own message; the text of anything else is for the log above.
        if isinstance(exc, ApplicationError):
            message = exc.message
        elif give_up:
            message = str(_("The turn's outcome could not be published."))  # it will not be
        else:
            message = str(_("The turn's outcome could not be published yet."))
        message = message[:2000]
        if give_up:
            return _give_up(job, worker, message)
        delay = min(conf.retry_seconds() * max(1, job.attempt), conf.retry_max_seconds())
        now = timezone.now()
        with transaction.atomic():
            moved = held_by(job, worker).update(
                status=RoomTurnJob.Status.WAITING,
                available_at=now + timedelta(seconds=delay),
                lease_expires_at=None,
                worker="",
                error_code=PublicationFailed.code,
                error_message=message,
                retryable=True,
                recovery=PublicationFailed.recovery,
                updated_at=now,
            )
            if moved:
                job.refresh_from_db()
                job_announce(job)
                transaction.on_commit(lambda: enqueue_run(job.pk, countdown=delay))
        return RoomTurnJob.Status.WAITING


def _domain_may_have_acted(job: RoomTurnJob) -> bool:
    return job.operations.filter(write=True).exclude(state=Operation.State.REFUSED).exists()


def _give_up(job: RoomTurnJob, worker: str, message: str) -> str:
    """End a turn that wrote nothing and could not be published, with the room told as
    publication would tell it and the reservation released, in one transaction: cancelled if
    its stored ending says so, else failed with `message`. Publication is what keeps failing,
    so none of it is used (no domain read, receipt or narration): only room entries, the
    reservation and the job row. Returns the final status; raises LeaseLost if the job is no
    longer this worker's."""
    campaign = Campaign.objects.get(pk=job.campaign_id)
    with transaction.atomic():
        # Locked first, as publication does; the stored ending is read under the lock.
        cancel_requested, stored = _lock_held(job, worker, "cancel_requested", "agent_output")
        stored = stored or {}
        cancelled = stored.get("final_status") == RoomTurnJob.Status.CANCELLED
        final = RoomTurnJob.Status.CANCELLED if cancelled else RoomTurnJob.Status.FAILED
        if cancelled:
            # The cancel as the worker stored it (TurnCancelled), not the failed publication.
            error = stored.get("error") or {
                "code": TurnCancelled.code,
                "message": str(_("The turn was cancelled.")),
                "retryable": TurnCancelled.retryable,
                "recovery": recovery_for(TurnCancelled, narration=job.task == "narration"),
            }
        else:
            error = {
                "code": PublicationFailed.code,
                "message": message,
                "retryable": False,
                "recovery": str(_("Act again.")),
            }
        # The room before the account, as publication takes them.
        if cancelled:
            _note_cancelled(campaign, job, final)
        elif _Requester(job).present:
            _tell_requester(
                campaign, job, OUTCOME_EVENT,
                body=error["message"],
                data={
                    "job_id": str(job.pk),
                    "trigger_message_id": str(job.trigger_message_id),
                    "status": final,
                    "error": error,
                },
            )  # fmt: skip
        else:
            # A player who left gets no private entry (the room refuses it): the others are
            # told instead, as publication tells them. Nothing was written on the domain.
            _note_dropped(campaign, job, final, partly=False)
        job_reservation_release(job, final)
        now = timezone.now()
        job.cancel_requested = cancel_requested
        # The row is locked above.
        job_update_announced(job, {
            "status": final,
            "charged": 0,
            "finished_at": now,
            "lease_expires_at": None,
            "error_code": error["code"],
            "error_message": (error.get("message") or "")[:2000],
            "retryable": bool(error.get("retryable")),
            "recovery": (error.get("recovery") or "")[:300],
            "updated_at": now,
        })  # fmt: skip
    return final
