"""The model is told that suggestions for another player's character reach that player only
from a public action: publication drops them otherwise (a private or GM-only action is no
business of theirs), so a model counting on them is told beforehand."""

from __future__ import annotations

from apps.turns.agents.openai import system_prompt
from apps.turns.types import TurnContext


def test_the_prompt_says_another_players_suggestions_need_a_public_action():
    turn = TurnContext(
        job_id="j1", system_id="dnd5e", phase="combat", role="player", task="action",
        text="end turn", tools=(), trigger_audience="private", character_id="pc-1",
        bound_characters={"pc-1": "Ilsa", "pc-2": "Bram"},
    )  # fmt: skip
    party = (
        ' When it hands the turn to a player character, you may add "suggestions_for": '
        '{"<character id>": ["..."]}: at most 4 short next actions for it, for its player '
        "alone. Those for a character another player controls reach that player only when the "
        "player's message was public; otherwise they are dropped. The player characters, by "
        'id: {"pc-1": "Ilsa", "pc-2": "Bram"}. Never speak'
    )
    assert party in system_prompt(turn)
