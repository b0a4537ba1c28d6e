""" "Ilsa, make a dex save", "Goblin 2, attack Ilsa": a line addressed to a creature present,
with a comma, is the same line said of that creature ("Ilsa makes a dex save", "Goblin 2
attacks Ilsa"), by the same seat rules; one addressed to no creature here is answered as
before."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

# (addressed, named, who says it, what is said first on both tables, the rules' tool)
SAID = [
    ("Ilsa, make a dex save", "Ilsa makes a dex save", "player", [], "saving_throw"),
    ("Ilsa, roll a dex save dc 12", "Ilsa rolls a dex save dc 12", "player", [], "saving_throw"),
    ("Ilsa, roll perception", "Ilsa rolls perception", "player", [], "ability_check"),
    ("Ilsa, make a stealth check!", "Ilsa makes a stealth check!", "gm", [], "ability_check"),
    ("Ilsa, move to 2,0", "Ilsa moves to 2,0", "player", [], "combat_move"),
    ("Ilsa, walk 2 squares east", "Ilsa walks 2 squares east", "player", [], "combat_move"),
    (
        "Goblin 2, attack Ilsa",
        "Goblin 2 attacks Ilsa",
        "gm",
        ["end Ilsa's turn"],
        "attack",
    ),
    (
        "goblin 2, shoot Ilsa with its shortbow",
        "goblin 2 shoots Ilsa with its shortbow",
        "gm",
        ["end Ilsa's turn"],
        "attack",
    ),
]


@pytest.mark.parametrize(("addressed", "named", "seat", "first", "tool"), SAID)
def test_a_line_addressed_to_a_creature_is_the_line_said_of_it(
    live_domains, gm, player, addressed, named, seat, first, tool
):
    user = {"gm": gm, "player": player}[seat]
    runs = []
    for said in (named, addressed):
        table, _start = dnd_table_in_combat(gm, player)  # the same seed: the same rolls
        for n, text in enumerate(first):
            table.run(gm, text, job_id=f"first-{n}")
        runs.append(table.run(user, said, job_id="said"))
    told, asked = runs
    assert tool in told.tools, told.texts
    # The same tool calls: who is addressed is looked up in the read the line's own needs.
    assert (asked.texts, asked.tools, asked.output.suggestions) == (
        told.texts,
        told.tools,
        told.output.suggestions,
    )


def test_a_player_addressing_another_creature_is_told_they_act_as_their_own(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "Goblin 2, attack Ilsa", job_id="not-mine")
    assert run.texts == [("You can only act as your own character.", "requester")]
    assert "attack" not in run.tools
    assert table.revision() == before


@pytest.mark.parametrize(
    "text",
    [
        "Bob, make a dex save",
        "Tom, attack the goblin",
        "Friends, move to 2,0",
        # Only a whole name addresses a creature: "Go" is no "Goblin".
        "Go, attack the goblin",
    ],
)
def test_a_line_addressed_to_no_creature_here_is_answered_as_before(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="nobody")
    assert run.texts == [(NOT_ADDRESSED[text], "requester")]
    assert not {"saving_throw", "attack", "combat_move"} & set(run.tools)
    assert table.revision() == before


NOT_ADDRESSED = {
    "Bob, make a dex save": (
        "I did not understand that. To make a check or a save, say: check <ability or skill> "
        "[dc N], or save <ability> [dc N] (or say “help” for what I understand)."
    ),
    "Tom, attack the goblin": (
        "I did not understand that. To attack, say: attack <target> [with <weapon>] "
        "(or say “help” for what I understand)."
    ),
    "Friends, move to 2,0": (
        "I did not understand that. Closest: move to X,Y. Say “help” for everything I understand."
    ),
    "Go, attack the goblin": (
        "I did not understand that. To attack, say: attack <target> [with <weapon>] "
        "(or say “help” for what I understand)."
    ),
}
