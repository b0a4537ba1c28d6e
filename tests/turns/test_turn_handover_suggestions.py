"""A turn that hands the combat to a player's character offers that player their options, to
them alone, whoever acted: the GM ending a monster's turn, another player ending theirs, or
the GM starting combat with them first."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.rooms.models import Message
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.services import turn_action_submit, turn_run
from apps.turns.types import AgentMessage, AgentOutput, ToolInfo, TurnContext
from tests.turns.test_jobs import _fighter
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant, _Stub

pytestmark = pytest.mark.django_db


def test_the_gm_ending_a_monsters_turn_offers_the_next_player_their_options(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    ilsa = table.characters[principal_for(player)]
    table.run(player, "end turn", job_id="p-end")
    table.run(gm, "end turn", job_id="g-end-1")
    handed = table.run(gm, "end turn", job_id="g-end-2")
    (ended,) = [o for o in handed.caller.outcomes if o.tool == "combat_end_turn"]
    assert ended.structured["current"] == ilsa
    # The GM plays the monsters, not Ilsa: a look at the field for them, Ilsa's turn for hers.
    assert handed.output.suggestions == ("describe", "end Ilsa's turn")
    assert handed.output.suggestions_for == {ilsa: ("attack goblin 2", "end turn")}
    # A numbered monster is named as the table says it, and the suggestion works as written.
    attack = table.run(player, "attack goblin 2", job_id="p-attack")
    [attacked] = [o for o in attack.caller.outcomes if o.tool == "attack"]
    assert attacked.structured["target_id"] == "mon-3"


def _end_turn(role: str, character_id: str | None, order: list[dict[str, Any]], ended: str,
              current: str) -> AgentOutput:  # fmt: skip
    turn = TurnContext(
        job_id=f"{role}-{ended}-{current}",
        system_id="dnd5e",
        phase="combat",
        role=role,
        task="action",
        text="end turn",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_end_turn")
        ),
        character_id=character_id,
    )
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": ended, "order": order}},
            "combat_end_turn": {"ended": ended, "current": current, "round": 1},
        }
    )
    return ScriptedAgent().run_turn(turn, stub)


def test_a_player_ending_their_turn_offers_the_next_player_theirs():
    order = [
        _combatant("pc-1", "Ash", "pc"),
        _combatant("pc-2", "Bram", "pc", conditions=["prone"]),
        _combatant("mon-3", "Wolf", "monster"),
    ]
    output = _end_turn("player", "pc-1", order, ended="pc-1", current="pc-2")
    assert output.suggestions == ()
    assert output.suggestions_for == {"pc-2": ("stand up", "attack the wolf", "end turn")}


def test_a_dying_character_whose_turn_comes_is_offered_its_death_save():
    order = [
        _combatant("mon-3", "Wolf", "monster"),
        _combatant("pc-2", "Bram", "pc", status="down", conditions=["prone", "unconscious"]),
    ]
    output = _end_turn("gm", None, order, ended="mon-3", current="pc-2")
    assert output.suggestions_for == {"pc-2": ("death save",)}


def test_a_monsters_turn_offers_no_player_anything():
    order = [_combatant("pc-1", "Ash", "pc"), _combatant("mon-3", "Wolf", "monster")]
    output = _end_turn("player", "pc-1", order, ended="pc-1", current="mon-3")
    assert (output.suggestions, output.suggestions_for) == ((), {})


# -- publication ---------------------------------------------------------------------------------


def _suggestion_events(job) -> list[tuple[str, list[str], list[str]]]:
    """(audience, recipient ids, suggestions) of each suggestions event the job wrote."""
    return [
        (m.audience, [str(r.user_id) for r in m.recipient_links.all()], m.data["suggestions"])
        for m in Message.objects.filter(
            event_type="turn.suggestions", data__job_id=str(job.pk)
        ).order_by("sequence")
    ]


def _run(room, user, text, *, audience="public"):
    job, _ = turn_action_submit(
        membership=room.membership(user), text=text, idempotency_key=f"k-{text}",
        audience=audience,
    )  # fmt: skip
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    return job


def test_a_player_whose_turn_the_gm_hands_over_is_sent_their_options_alone(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    _fighter(room, room.player, "Ilsa")
    player_events = lambda job: [e for e in _suggestion_events(job) if e[1] != [str(room.gm.pk)]]  # noqa: E731
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "start combat with a goblin")
        if not player_events(job):
            # The goblin won initiative: the GM ends its turn, and Ilsa's comes.
            job = _run(room, room.gm, "end turn")
    assert _suggestion_events(job) == [
        ("private", [str(room.gm.pk)], ["describe", "end Ilsa's turn"]),
        ("private", [str(room.player.pk)], ["attack the goblin", "end turn"]),
    ]


class _HandsOver:
    """An agent whose turn hands the combat to `character_id`, with its options."""

    def __init__(self, character_id: str, own: tuple[str, ...] = ()) -> None:
        self.character_id = character_id
        self.own = own

    def run_turn(self, context, call):
        return AgentOutput(
            messages=(AgentMessage("Bram is up."),),
            suggestions=self.own,
            suggestions_for={self.character_id: ("attack the wolf", "end turn")},
        )


def test_options_for_a_character_go_to_its_controller_only(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    bram = _fighter(room, room.player, "Bram").character_id
    monkeypatch.setattr(
        "apps.turns.services.run.agent_provider", lambda: _HandsOver(bram, own=("describe",))
    )
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "end turn")
    assert _suggestion_events(job) == [
        ("private", [str(room.gm.pk)], ["describe"]),
        ("private", [str(room.player.pk)], ["attack the wolf", "end turn"]),
    ]
    job.refresh_from_db()  # stored for a publication retried later
    assert job.agent_output["suggestions_for"] == {bram: ["attack the wolf", "end turn"]}


def test_options_for_the_requesters_own_character_join_their_own(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    # One event per person: a second would replace the first on their page.
    room = dnd_room
    bram = _fighter(room, room.player, "Bram").character_id
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: _HandsOver(bram))
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.player, "end turn")
    assert _suggestion_events(job) == [
        ("private", [str(room.player.pk)], ["attack the wolf", "end turn"]),
    ]


def test_options_for_a_character_nobody_plays_are_not_sent(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: _HandsOver("pc-99"))
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "end turn")
    assert _suggestion_events(job) == []


def test_a_gm_only_action_sends_no_player_anything(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    # Nothing of a GM-only action reaches a player, its suggestions included.
    room = dnd_room
    bram = _fighter(room, room.player, "Bram").character_id
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: _HandsOver(bram))
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "end turn", audience="gm")
    assert _suggestion_events(job) == []


def test_a_death_save_that_passes_the_turn_offers_the_next_player_theirs():
    # The dead pass the turn: whoever comes next is offered it as after an "end turn".
    turn = TurnContext(
        job_id="died",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text="death save",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "death_save")
        ),
        character_id="pc-1",
    )
    order = [
        _combatant("pc-1", "Ash", "pc", status="down", conditions=["prone", "unconscious"]),
        _combatant("pc-2", "Bram", "pc"),
        _combatant("mon-3", "Wolf", "monster"),
    ]
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "pc-1", "order": order}},
            "death_save": {"outcome": "dead", "natural": 4, "current": "pc-2"},
        }
    )
    output = ScriptedAgent().run_turn(turn, stub)
    assert output.suggestions_for == {"pc-2": ("attack the wolf", "end turn")}
