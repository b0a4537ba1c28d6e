"""An initiative's Dice panel line carries how it was rolled (its natural d20 and, when two dice
were rolled, which was kept), as a check's line does, for the room to show "d20 14 + 2 = 16".
A monster's natural die, with the total, gives away its DEX modifier: as for its attacks and
checks, only a line the GM alone reads shows it."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from tests.turns.test_jobs import narrations, submit

pytestmark = pytest.mark.django_db


def _started(*order: dict) -> Operation:
    return Operation(
        step=1, tool="combat_start",
        result={"structuredContent": {"combat": {"round": 1, "order": list(order)}}},
    )  # fmt: skip


# combat_start's order as the GM who started the fight is answered: every roll in full.
ILSA = {"id": "pc-1", "initiative": 16, "natural": 14, "modifier": 2, "mode": "normal",
        "character": {"name": "Ilsa", "kind": "pc"}}  # fmt: skip
GOBLIN = {"id": "mon-2", "initiative": 9, "natural": 7, "modifier": 2, "mode": "disadvantage",
          "character": {"name": "Goblin", "kind": "monster"}}  # fmt: skip


def test_the_players_initiative_lines_show_a_characters_d20_and_not_a_monsters() -> None:
    assert dice_from([_started(ILSA, GOBLIN)]) == [
        {"tool": "combat_start", "label": "Initiative · Ilsa", "total": 16, "natural": 14,
         "mode": "normal"},
        # Poisoned, so two dice: that shows (its conditions are public), its dice do not.
        {"tool": "combat_start", "label": "Initiative · Goblin", "total": 9, "natural": None,
         "mode": "disadvantage"},
    ]  # fmt: skip


def test_the_gms_initiative_lines_show_every_d20() -> None:
    assert dice_from([_started(ILSA, GOBLIN)], gm_only=True) == [
        {"tool": "combat_start", "label": "Initiative · Ilsa", "total": 16, "natural": 14,
         "mode": "normal"},
        {"tool": "combat_start", "label": "Initiative · Goblin", "total": 9, "natural": 7,
         "mode": "disadvantage"},
    ]  # fmt: skip


def test_a_monster_in_the_public_view_has_no_d20_even_on_the_gms_line() -> None:
    """The public view of combat_start (an agent answered as the public sees it) carries no
    monster die to show."""
    shown = {k: v for k, v in GOBLIN.items() if k not in ("natural", "modifier")}

    assert dice_from([_started(shown)], gm_only=True) == [
        {"tool": "combat_start", "label": "Initiative · Goblin", "total": 9, "natural": None,
         "mode": "disadvantage"},
    ]  # fmt: skip


def test_a_combatant_of_unknown_kind_shows_no_d20_to_the_players() -> None:
    """Only a character's die is the table's: a card that names no kind may be a monster's."""
    unnamed = {**ILSA, "character": {"name": "Ilsa"}}

    (line,) = dice_from([_started(unnamed)])

    assert (line["natural"], line["total"]) == (None, 16)


def test_an_initiative_stored_before_its_roll_was_said_keeps_its_total_alone() -> None:
    old = {k: v for k, v in ILSA.items() if k not in ("natural", "modifier", "mode")}

    assert dice_from([_started(old)], gm_only=True) == [
        {"tool": "combat_start", "label": "Initiative · Ilsa", "total": 16},
    ]


def test_a_gms_combat_start_publishes_each_initiative_to_the_room(
    dnd_room, eager, django_capture_on_commit_callbacks
):
    """The GM starts a fight in the room (a public action: everyone sees a fight start): the
    narration that carries the dice has one line per combatant in the order's order, the
    character's with its d20, the goblin's with none (the GM reads that line too)."""
    from apps.campaigns.services.characters import character_create_for

    room = dnd_room
    ilsa_id = character_create_for(
        campaign=room.campaign, user=room.player,
        form_data={"name": "Ilsa", "template": "fighter", "level": 1},
    ).character_id  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        job, _created = submit(room, room.gm, text="start combat with a goblin")

    (started,) = job.operations.filter(tool="combat_start")
    order = {e["id"]: e for e in started.result["structuredContent"]["combat"]["order"]}
    (goblin_id,) = set(order) - {ilsa_id}
    ilsa, goblin = order[ilsa_id], order[goblin_id]
    # As the domain rolled them: the fighter's DEX 13 gives +1, the goblin's 14 +2.
    assert (ilsa["initiative"] - ilsa["natural"], ilsa["modifier"]) == (1, 1)
    assert (goblin["initiative"] - goblin["natural"], goblin["modifier"]) == (2, 2)
    lines = {
        ilsa_id: {"tool": "combat_start", "label": "Initiative · Ilsa",
                  "total": ilsa["initiative"], "natural": ilsa["natural"], "mode": "normal"},
        goblin_id: {"tool": "combat_start", "label": "Initiative · Goblin",
                    "total": goblin["initiative"], "natural": None, "mode": "normal"},
    }  # fmt: skip
    (carrier,) = [n for n in narrations(job) if n.data.get("dice")]
    assert carrier.audience == Message.Audience.PUBLIC
    assert carrier.data["dice"] == [lines[e_id] for e_id in order]
