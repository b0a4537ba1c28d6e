"""How a chat message that reads like a game command is recognised, to hint on the sender's
page that Action mode has the GM run it. Only a hint: nothing here changes what is sent.

A small list by hand, not the scripted GM's grammar (it has no public way to ask, and many of
its first words, "look", "help", "what", "end", are everyday talk too): each entry is the
opening words of one of its commands that chat seldom starts with. Help is asked for by
whole messages alone (HELP_WORDS).
"""

from __future__ import annotations

COMMON_OPENERS = ("roll",)
ACTION_OPENERS: dict[str, tuple[str, ...]] = {
    "dnd5e": (
        "attack",
        "heal",
        "cure",
        "knock",
        "move to",
        "move next to",
        "death save",
        "end my turn",
        "end turn",
        "start combat",
        "start a combat",
        "start a fight",
        "end combat",
        "end the combat",
        "saving throw",
    ),
    "narrative": (
        "ask the oracle",
        "ask oracle",
        "advance",
        "open a scene",
        "open scene",
        "open a thread",
        "open thread",
        "end the scene",
        "end scene",
        "resolve",
        "record",
        "create clock",
        "create a clock",
        "note that",
    ),
}


# A chat message that is only one of these asks for help ("help", "?", "commands"): words the
# GM answers with its help list, but only in an action, as chat goes to the table alone. Only
# the whole message: "help me with this door" is talk.
HELP_WORDS = ("help", "?", "commands")


def action_openers(system_id: str) -> list[str]:
    """The lower-case opening words that make a chat message in this system look like a command
    (a message whose words begin with one of them)."""
    return [*COMMON_OPENERS, *ACTION_OPENERS.get(system_id, ())]
