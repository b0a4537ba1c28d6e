""" "I use my action to attack the goblin", "use my action to dodge": the action said before
what it is spent on is how a table words a turn; the command after it is understood."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("I use my action to attack the goblin",
         ("attack", {"attacker_id": "pc-1", "target_id": "mon-2"})),
        ("use my action to shoot goblin 2",
         ("attack", {"attacker_id": "pc-1", "target_id": "mon-3"})),
        ("I use my action to dodge",
         ("combat_action", {"character_id": "pc-1", "action": "dodge"})),
    ],
)  # fmt: skip
def test_the_command_an_action_is_used_for_is_sent(live_domains, gm, player, text, call):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, _output = _sent(table, player, text)
    assert calls == [call]


def test_an_action_used_for_something_unknown_is_not_understood(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "I use my action to juggle", job_id="juggle")
    assert run.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
    assert table.revision() == before
