"""The scripted agent reads the table kindly: suggestions that fit who asks, forgiving phrasing
and typos (asked about, never acted on), one wording for refusals and narration fit for the room.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant

pytestmark = pytest.mark.django_db

# A turn not yet begun, as combat_status gives it.
FULL = {"action": 1, "bonus_action": 1, "reaction": 1, "movement": 30}

WRITES = ("attack", "combat_move", "combat_end_turn", "dice_roll")


def test_gm_suggestions_never_take_a_players_turn(live_domains, gm, player):
    table, start = dnd_table_in_combat(gm, player)
    # Ilsa (a player character) is up: nothing the GM is offered acts for her (ending her
    # turn, named, is the GM's).
    assert start.output.suggestions == ("describe", "end Ilsa's turn")
    attack = table.run(player, "attack goblin 2", job_id="p-attack")
    assert attack.output.suggestions == ("end turn",)
    # The player ends the turn; a monster is up, which is nothing for the player to do.
    ended = table.run(player, "end turn", job_id="p-end")
    assert ended.texts == [("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")]
    assert ended.output.suggestions == ()
    # The GM plays the monster whose turn it is: "goblin" is the goblin that is up (mon-3).
    bite = table.run(gm, "goblin attacks Ilsa", job_id="g-attack")
    assert [o.structured["attacker_id"] for o in bite.caller.outcomes if o.tool == "attack"] == [
        "mon-3"
    ]
    assert bite.output.suggestions == ("end turn",)
    handed = table.run(gm, "end turn", job_id="g-end")
    assert handed.output.suggestions == ("goblin attacks Ilsa", "end turn")
    # Each suggestion works as written.
    assert table.run(gm, "goblin attacks Ilsa", job_id="g-attack-2").tools[-1] == "attack"
    back = table.run(gm, "end turn", job_id="g-end-2")
    assert "Ilsa" in back.texts[0][0]
    assert back.output.suggestions == ("describe", "end Ilsa's turn")
    # A player names only their own character as the attacker.
    refused = table.run(player, "goblin attacks Ilsa", job_id="p-as-goblin")
    assert refused.texts == [("You can only act as your own character.", "requester")]
    assert "attack" not in refused.tools


class _Stub:
    """A call_tool that answers from a table of structured results."""

    def __init__(self, results: dict[str, dict[str, Any]]) -> None:
        self.results = results
        self.calls: list[str] = []

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        self.calls.append(tool)
        return ToolOutcome(tool=tool, step=len(self.calls), ok=True, structured=self.results[tool])


def _stub_turn(text: str, **extra: Any) -> TurnContext:
    names = ("attack", "combat_status", "combat_end_turn")
    return TurnContext(
        job_id="stub",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text=text,
        tools=tuple(ToolInfo(n, "", {"type": "object", "properties": {}}) for n in names),
        character_id="pc-1",
        **extra,
    )


@pytest.mark.parametrize("hit", [True, False])
def test_an_attack_on_your_turn_suggests_end_turn_hit_or_miss(hit):
    result = {
        "attack": "Longsword",
        "hit": hit,
        "critical": False,
        "to_hit": {"total": 15 if hit else 4, "natural": 12 if hit else 1},
        "damage": {"total": 5, "damage_type": "slashing", "effect": {}},
    }
    combat = {
        "current": "pc-1",
        "order": [
            _combatant("pc-1", "Ilsa", "pc", initiative=15, budget=FULL, position=[5, 0]),
            _combatant("mon-2", "Goblin", "monster", initiative=12, budget=FULL, position=[6, 0]),
        ],
    }
    stub = _Stub({"combat_status": {"combat": combat}, "attack": result})
    output = ScriptedAgent().run_turn(_stub_turn("attack the goblin"), stub)
    assert stub.calls == ["combat_status", "attack"]
    assert output.suggestions == ("end turn",)


@pytest.mark.parametrize("other_goblin", ["unhurt", "dead"])
def test_the_blow_that_fells_the_last_foe_says_the_fight_can_end(other_goblin):
    result = {
        "attack": "Longsword", "hit": True, "critical": False,
        "to_hit": {"total": 15, "natural": 12},
        "damage": {"total": 7, "damage_type": "slashing", "effect": {"dead": True}},
    }  # fmt: skip
    combat = {
        "current": "pc-1",
        "order": [
            _combatant("pc-1", "Ilsa", "pc", initiative=15, budget=FULL, position=[5, 0]),
            _combatant("mon-2", "Goblin", "monster", initiative=12, budget=FULL, position=[6, 0]),
            _combatant("mon-3", "Goblin 2", "monster", status=other_goblin, initiative=8,
                       budget=FULL, position=[6, 1]),
        ],
    }  # fmt: skip
    stub = _Stub({"combat_status": {"combat": combat}, "attack": result})
    output = ScriptedAgent().run_turn(_stub_turn("attack mon-2"), stub)
    last = "No foe is left standing: the GM can say “end combat”."
    assert (output.messages[-1].text == last) is (other_goblin == "dead")
    # The GMs are offered it as a command too, and a look at the field, in the order of their
    # options on a player's turn.
    assert output.gm_suggestions == (("end combat", "describe") if other_goblin == "dead" else ())


def test_forgiving_phrasing_maps_to_the_grammar(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    swing = table.run(player, "I swing my sword at the goblin!", job_id="swing")
    assert swing.tools == ["combat_status", "attack"]
    assert swing.caller.outcomes[-1].structured["target_id"] == "mon-2"
    assert swing.caller.outcomes[-1].structured["attack"] == "Longsword"  # "my sword" is colour
    # Understood and sent (the rules then say Ilsa's action is spent), not the help list.
    # A job's id is ASCII, as a real job's is: it prefixes each write's idempotency key.
    attacks = ("⚔️ attack goblin 🗡️", "I hit the goblin 2 with my longsword.", "Stab goblin")
    for index, text in enumerate(attacks):
        again = table.run(player, text, job_id=f"again-{index}")
        assert again.tools == ["combat_status", "attack"], text
        assert again.texts == [
            ("That cannot happen: Ilsa has no action left this turn.", "requester")
        ], text
    for text, expression in [("Roll a d20", "1d20"), ("roll d20", "1d20"), ("roll a 2d6", "2d6")]:
        rolled = table.run(player, text, job_id=text)
        assert rolled.tools == ["dice_roll", "combat_status"], text  # then the turn's options
        assert rolled.caller.outcomes[0].structured["expression"] == expression, text
    for index, (text, square) in enumerate([("move to 4 3", [4, 3]), ("move 4,4", [4, 4]),
                                            ("Move to (3, 4).", [3, 4])]):  # fmt: skip
        moved = table.run(player, text, job_id=f"move-{index}")
        assert moved.caller.outcomes[0].structured["to"] == square, text


def test_initiative_and_moves_off_the_map_get_answers_not_the_help_list(live_domains, gm, player):
    lobby = make_table("dnd5e", gm, player)
    assert lobby.run(player, "I roll for initiative", job_id="init").texts == [
        ("Initiative is rolled for everyone when the GM starts combat.", "requester")
    ]
    table, _start = dnd_table_in_combat(gm, player)
    assert table.run(player, "roll initiative", job_id="init-2").texts == [
        ("Initiative was rolled when combat began; it is Ilsa's turn.", "requester")
    ]
    before = table.revision()
    for text, answer in [
        ("move to -1, 2", "(-1, 2) is outside the map: columns and rows count from 0."),
        ("move to 12 0", "(12, 0) is outside the map (columns 0–11, rows 0–5)."),
        ("move 3, 6", "(3, 6) is outside the map (columns 0–11, rows 0–5)."),
        ("move to 500, 1", "(500, 1) is outside the map."),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts == [(answer, "requester")], text
        assert not set(run.tools) - {"combat_move", "combat_status"}, text
    assert table.revision() == before


def test_typos_are_asked_about_never_acted_on(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    for text, command in [
        ("atack the gobin", "attack the goblin"),
        ("attack the gobin", "attack the goblin"),
        ("atack goblin 2", "attack goblin 2"),
        ("chek perception", "check perception"),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts[0][1] == "requester", text
        assert run.texts[0][0].endswith(f"Did you mean: {command}?"), text
        assert run.output.suggestions == (command,), text
        assert not set(run.tools) & set(WRITES), text
    assert table.run(player, "attack the gobin", job_id="gobin").texts == [
        ("I cannot find “the gobin” here. Did you mean: attack the goblin?", "requester")
    ]
    # Nothing close enough, or two names as close: the list of who is present, as before.
    assert table.run(player, "attack the orc", job_id="orc").texts == [
        ("I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert table.revision() == before
    # The suggestion then works as written.
    assert table.run(player, "attack the goblin", job_id="attack").tools[-1] == "attack"


def test_refusals_are_one_sentence_in_one_wording(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end combat", job_id="end")
    texts = {table.run(player, "roll 0d6", job_id=f"bad-{n}").texts[0] for n in range(6)}
    assert texts == {("That cannot happen: dice count 0 is outside 1..100.", "requester")}


def test_a_public_look_names_who_looks(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    texts = {table.run(player, "look at goblin", job_id=f"look-{n}").texts[0] for n in range(6)}
    assert texts == {
        ("Ilsa studies the Goblin: unhurt.", "trigger"),
        ("Ilsa looks the Goblin over: unhurt.", "trigger"),
    }
    assert all("You " not in text for text, _audience in texts)
    gm_look = table.run(gm, "look at Ilsa", job_id="gm-look")
    assert gm_look.texts[0][0] in (
        "The GM studies Ilsa: unhurt.",
        "The GM looks Ilsa over: unhurt.",
    )


def test_narration_for_the_whole_room_is_not_addressed_to_one_reader(live_domains, gm, player):
    """What everyone reads says "the oracle answers", not "You ask": the asker is one of them."""
    story = make_table("narrative", gm, player)
    story.run(gm, "set phase play", job_id="play")
    keep, _start = dnd_table_in_combat(gm, player)
    keep.run(gm, "end combat", job_id="end")
    texts = set()
    for index in range(12):
        for table, text in ((story, 'ask the oracle "Is it?"'), (keep, "look around")):
            run = table.run(player, text, job_id=f"room-{index}")
            texts |= {t for t, audience in run.texts if audience == "trigger"}
    assert len(texts) >= 4  # both wordings of each were drawn
    assert [t for t in texts if t.startswith("You ")] == []


def test_the_first_of_numbered_namesakes_answers_to_its_number_one(live_domains, gm, player):
    """The table reads "Goblin" and "Goblin 2": "goblin 1" is the first of them, as said aloud."""
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up; Goblin is mon-2
    attack = table.run(player, "attack goblin 1", job_id="one")
    assert [o.structured["target_id"] for o in attack.caller.outcomes if o.tool == "attack"] == [
        "mon-2"
    ]
    assert table.run(player, "look at goblin 1", job_id="look").texts == [
        ("Ilsa studies the Goblin: bloodied.", "trigger")
    ]


def test_dice_kept_or_dropped_are_rolled_as_a_table_says_it(live_domains, gm, player):
    """ "roll 4d6 drop lowest" got the help list though the rules keep dice (4d6kh3)."""
    table, _start = dnd_table_in_combat(gm, player)
    for text, expression in [
        ("roll 4d6 drop lowest", "4d6kh3"),
        ("roll 4d6 and drop the lowest die", "4d6kh3"),
        ("roll 3d6 drop highest", "3d6kl2"),
        ("roll 4d6 keep highest 3", "4d6kh3"),
        ("roll d20 with advantage", "2d20kh1"),
        ("roll 2d20 with advantage", "2d20kh1"),
        ("roll 1d20+5 with disadvantage for stealth", "2d20kl1+5"),
    ]:
        rolled = table.run(player, text, job_id=text)
        assert rolled.tools == ["dice_roll", "combat_status"], text  # then the turn's options
        assert rolled.caller.outcomes[0].structured["expression"] == expression, text
    # A single die has nothing to drop: asked back with an example, nothing rolled.
    assert table.run(player, "roll 1d6 drop lowest", job_id="one").texts == [
        ("Dropping or keeping dice needs several of one kind, as in: roll 4d6 drop lowest.",
         "requester"),
    ]  # fmt: skip
