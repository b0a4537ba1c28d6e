"""A GM's narration turn tells the model that the narration is already in the room: it applies
what the narration says with the tools and tells the GM what the rules did, adding no story;
a narration that needs nothing of the rules may be answered with no message. A GM's own action
is described as the GM's message, not a player's."""

from __future__ import annotations

import dataclasses

import pytest

from apps.turns.agents.openai import system_prompt
from apps.turns.types import TurnContext

NARRATION = (
    "The message is the GM's narration, already shown to its audience as written. Apply with "
    "the tools only what it says happens (damage, conditions, a rest, a monster's action) and "
    "add no story of your own. If you called tools, answer with one short message to the 'gm' "
    'audience saying what the rules did; if nothing in it needed the rules, answer {"messages": '
    "[]}.\n"
)


def _turn(task: str) -> TurnContext:
    return TurnContext(
        job_id="j1", system_id="dnd5e", phase="play", role="gm", task=task,
        text="we take a long rest", tools=(), trigger_audience="public",
    )  # fmt: skip


@pytest.mark.parametrize(("task", "told"), [("narration", 1), ("action", 0)])
def test_only_a_narration_turn_is_told_it_applies_the_gms_narration(task, told):
    assert system_prompt(_turn(task)).count(NARRATION) == told


@pytest.mark.parametrize(("task", "least"), [("narration", 0), ("action", 1)])
def test_only_a_narration_turn_is_told_it_may_answer_with_no_message(task, least):
    assert (
        system_prompt(_turn(task)).count(f"{least} to 4 messages of at most 4000 characters") == 1
    )


def test_a_narration_turns_instructions_speak_of_the_gms_narration_not_a_players_action():
    turn = TurnContext(
        job_id="j1", system_id="dnd5e", phase="combat", role="gm", task="narration",
        text="the ogre hits Ilsa for 7", tools=(), trigger_audience="public",
        bound_characters={"pc-1": "Ilsa"},
    )  # fmt: skip
    assert system_prompt(turn) == (
        "You are the game master's assistant for a dnd5e tabletop campaign. Phase: combat. "
        "The GM's role: gm. Task: narration. The GM's character id: none. The GM's narration "
        "was sent to the 'public' audience.\n"
        "Use the tools to apply what the GM's narration says happens; the rules server decides "
        "every outcome, so report only results the tools returned. Campaign, revision, "
        "idempotency and identity are filled in for you. At most 8 tool calls.\n"
        f"{NARRATION}"
        "Finish with only a JSON object, no prose around it: "
        '{"messages": [{"text": "...", "audience": "trigger"}], "suggestions": ["..."]}. '
        "0 to 4 messages of at most 4000 characters. Audience: 'trigger' (same readers as the "
        "GM's narration), 'requester' (the GM), 'gm' (GM only, for hidden numbers such as "
        "monster HP), or 'public' (only when the GM's narration was public). At most 4 short "
        "suggestions of what the GM might narrate next. When the narration hands the turn to a "
        'monster, which the GM plays, you may add "gm_suggestions": at most 4 short next '
        "actions for it, for the GM alone. When it hands the turn to a player character, you "
        'may add "suggestions_for": {"<character id>": ["..."]}: at most 4 short next actions '
        "for it, for its player alone. Those reach its player only when the GM's narration was "
        'public; otherwise they are dropped. The player characters, by id: {"pc-1": "Ilsa"}. '
        "Never speak or act for the players' characters."
    )


def test_an_action_turns_instructions_still_speak_of_the_players_action():
    turn = TurnContext(
        job_id="j1", system_id="dnd5e", phase="combat", role="player", task="action",
        text="I attack the ogre", tools=(), trigger_audience="public", character_id="pc-1",
    )  # fmt: skip
    assert system_prompt(turn) == (
        "You are the game master's assistant for a dnd5e tabletop campaign. Phase: combat. "
        "The player's role: player. Task: action. The player's character id: pc-1. The "
        "player's message was sent to the 'public' audience.\n"
        "Use the tools to resolve what the player attempts; the rules server decides every "
        "outcome, so narrate only results the tools returned. Campaign, revision, idempotency "
        "and identity are filled in for you. At most 8 tool calls.\n"
        "Finish with only a JSON object, no prose around it: "
        '{"messages": [{"text": "...", "audience": "trigger"}], "suggestions": ["..."]}. '
        "1 to 4 messages of at most 4000 characters. Audience: 'trigger' (same readers as the "
        "player's message), 'requester' (the player and the GM), 'gm' (GM only, for hidden "
        "numbers such as monster HP), or 'public' (only when the player's message was public). "
        "At most 4 short suggestions of what the player might do next. When the action hands "
        'the turn to a monster, which the GM plays, you may add "gm_suggestions": at most 4 '
        "short next actions for it, for the GM alone. Never speak or act for other players' "
        "characters."
    )


@pytest.mark.parametrize(
    ("task", "role", "told"),
    [
        # A narration is the GM's, already in the room: the model reports what the rules did.
        ("narration", "gm", "Report"),
        ("action", "player", "Narrate"),
    ],
)
def test_an_ended_turn_narrated_is_told_no_more_calls_and_to_tell_only_their_results(
    task, role, told
):
    turn = dataclasses.replace(_turn(task), role=role)
    assert system_prompt(dataclasses.replace(turn, narrate_only=True)) == (
        system_prompt(turn) + "\nThe turn is over: no more tool calls. "
        f"{told} only what the tool results already in the conversation show."
    )


def test_a_gms_own_actions_instructions_speak_of_the_gms_message_not_a_players():
    turn = TurnContext(
        job_id="j1", system_id="dnd5e", phase="combat", role="gm", task="action",
        text="the ogre attacks Ilsa", tools=(), trigger_audience="gm",
        bound_characters={"pc-1": "Ilsa"},
    )  # fmt: skip
    assert system_prompt(turn) == (
        "You are the game master's assistant for a dnd5e tabletop campaign. Phase: combat. "
        "The GM's role: gm. Task: action. The GM's character id: none. The GM's message was "
        "sent to the 'gm' audience.\n"
        "Use the tools to resolve what the GM attempts; the rules server decides every "
        "outcome, so narrate only results the tools returned. Campaign, revision, idempotency "
        "and identity are filled in for you. At most 8 tool calls.\n"
        "Finish with only a JSON object, no prose around it: "
        '{"messages": [{"text": "...", "audience": "trigger"}], "suggestions": ["..."]}. '
        "1 to 4 messages of at most 4000 characters. Audience: 'trigger' (same readers as the "
        "GM's message), 'requester' (the GM), 'gm' (GM only, for hidden numbers such as "
        "monster HP), or 'public' (only when the GM's message was public). At most 4 short "
        "suggestions of what the GM might do next. When the action hands the turn to a "
        'monster, which the GM plays, you may add "gm_suggestions": at most 4 short next '
        "actions for it, for the GM alone. When it hands the turn to a player character, you "
        'may add "suggestions_for": {"<character id>": ["..."]}: at most 4 short next actions '
        "for it, for its player alone. Those reach its player only when the GM's message was "
        'public; otherwise they are dropped. The player characters, by id: {"pc-1": "Ilsa"}. '
        "Never speak or act for the players' characters."
    )
