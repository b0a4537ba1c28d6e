"""A turn that hands the combat to a monster offers the GM its options, to the GM alone: the GM
plays the monsters, whoever's action (a player's "end turn") passed the turn to one."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.test_jobs import _fighter
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_turn_handover_suggestions import _run, _suggestion_events

pytestmark = pytest.mark.django_db


def test_a_player_ending_their_turn_offers_the_gm_the_monsters_options(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    assert table.characters[principal_for(player)] == "pc-1"
    ended = table.run(player, "end turn", job_id="p-end")
    # Nothing for the player (a monster is up); the monster's options for the GM.
    assert (ended.output.suggestions, ended.output.suggestions_for) == ((), {})
    assert ended.output.gm_suggestions == ("goblin 2 attacks Ilsa", "end turn")
    # The GM's own turn keeps its options their own.
    handed = table.run(gm, "end turn", job_id="g-end")
    assert handed.output.suggestions == ("goblin attacks Ilsa", "end turn")
    assert handed.output.gm_suggestions == ()


class _HandsToMonster:
    """An agent whose turn hands the combat to a monster, with its options for the GM."""

    def run_turn(self, context, call):
        return AgentOutput(
            messages=(AgentMessage("The wolf is up."),),
            suggestions=("describe",) if context.role == "player" else (),
            gm_suggestions=("wolf attacks Bram", "end turn"),
        )


def test_a_monsters_options_go_to_the_gm_alone(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    _fighter(room, room.player, "Bram")
    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: _HandsToMonster())
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.player, "end turn")
    assert _suggestion_events(job) == [
        ("private", [str(room.player.pk)], ["describe"]),
        ("private", [str(room.gm.pk)], ["wolf attacks Bram", "end turn"]),
    ]
    job.refresh_from_db()  # stored for a publication retried later
    assert job.agent_output["gm_suggestions"] == ["wolf attacks Bram", "end turn"]


def test_a_gm_requesters_monster_options_join_their_own(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    # One event per person: a second would replace the first on their page.
    room = dnd_room

    class _Both(_HandsToMonster):
        def run_turn(self, context, call):
            output = super().run_turn(context, call)
            return AgentOutput(messages=output.messages, suggestions=("describe",),
                               gm_suggestions=output.gm_suggestions)  # fmt: skip

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: _Both())
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "end turn")
    assert _suggestion_events(job) == [
        ("private", [str(room.gm.pk)], ["describe", "wolf attacks Bram", "end turn"]),
    ]
