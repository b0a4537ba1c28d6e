"""The scripted agent against live domain servers, through the real ToolCaller and domain_call.

Campaigns use a fixed random seed and job ids are fixed per step, so every roll and every
phrasing is exact.
"""

from __future__ import annotations

import uuid

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent, help_text
from apps.turns.tool_calls import ToolCaller
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

DND_HELP = (
    "I understand:\n"
    "- attack [<target>] [with <weapon>] [with advantage | with disadvantage]; "
    "<name> attacks [<target>] (or hits, shoots, stabs <target>); "
    "<name> attacks <target> as a reaction (an opportunity attack)\n"
    "- check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] "
    "(or: roll stealth, roll a dex save); for someone: perception check for <name>, "
    "dex save for <name> [dc N]\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], "
    "e.g. roll 4d6 drop lowest, roll a d20 and a d6\n"
    "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
    "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in combat)\n"
    "- death save for <name>; heal <target> N (a potion without N)\n"
    "- grant <target> N temp hp (temporary hit points; they do not stack)\n"
    "- damage <target> N [<type>], e.g. damage goblin 9 fire (or: deal 7 fire damage to "
    "<target>, <target> takes 4 piercing damage; in combat as narration)\n"
    "- a monster's spell: roll its dice, then damage <target> N [<type>] (in combat as "
    "narration; a concentrating target rolls its save) or heal <target> N; players cast "
    "their own spells\n"
    "- long rest [for <name>] (as narration: hit points and spell slots back)\n"
    "- short rest for <name>, N hit dice (as narration: Hit Dice heal)\n"
    "- poison <target> (or blind, charm, deafen, frighten, paralyze, petrify, restrain, stun); "
    "knock <target> prone; knock <target> unconscious (or <name> falls asleep, passes out, "
    "faints)\n"
    "- cure <target> of <condition> (or unpoison <target>, remove <condition> from <target>, "
    "<target> is no longer <condition>); stand up (whoever is up gets up), <name> stands up "
    "(or gets up); wake <target>\n"
    "- start combat [with goblin, 2 orcs, a new orc]; end combat; set phase <lobby|play>\n"
    "- describe, or look at <target>; whose turn is it?, who's next?, who's winning?; "
    "what's <target>'s hp? (a monster's: to you alone)\n"
    "- what spells does <name> have?, how many spell slots does <name> have left?\n"
    "- is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is <target>?, "
    "how many goblins are there?, who's here?, where am I?, how can I move?, what can I do?"
)
DND_PLAYER_HELP = (
    "I understand:\n"
    "- attack [<target>] [with <weapon>] [with advantage | with disadvantage] [as a reaction]; "
    "<name> hits (or shoots, stabs) <target>; punch (or kick) <target>, an unarmed strike\n"
    "- check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] "
    "(or: roll stealth, roll a dex save)\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], "
    "e.g. roll 4d6 drop lowest, roll a d20 and a d6\n"
    "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
    "<name> moves to X,Y (or walks east, moves next to <name>); end turn or pass (in combat)\n"
    "- death save (at 0 HP); stand up (or <name> gets up); heal <target> or heal me (a potion)\n"
    "- dodge, dash, disengage or hide [as a bonus action]; help <name> [attack <target>]; "
    "shove <target> [away] (in combat: your character's action)\n"
    "- give me N temp hp (temporary hit points; they do not stack)\n"
    "- cast cure wounds or healing word [on <target>] [at level N] (a cleric)\n"
    "- cast magic missile at <target> [at level N] (a wizard)\n"
    "- cast fire bolt at <target> (a wizard) or sacred flame on <target> (a cleric)\n"
    "- cast shield of faith [on <target>] (a cleric; +2 AC while concentrating); "
    "end concentration\n"
    "- cast bless on <target>, <target> and me [at level N] (a cleric; +1d4 to attack rolls "
    "and saves while concentrating)\n"
    "- short rest, spend N hit dice (or: spend a hit die; out of combat)\n"
    "- describe, or look at <target>; whose turn is it?, who's next?, who's winning?; "
    "what's my hp?, "
    "show my character "
    "(or look at me)\n"
    "- what spells do I have?, how many spell slots do I have left?, what spells does "
    "<name> have?\n"
    "- is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, "
    "how hurt is <target>?, how many goblins are there?, who's here?, where am I?, "
    "how far can I move?, what can I do?"
)
NARRATIVE_HELP = (
    "I understand:\n"
    '- ask the oracle "<question>" [likely|unlikely|even|very likely|...], '
    "or <question>? (likely)\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], e.g. roll a d20 and a d6\n"
    "- advance [clock] <name> [by N | twice] (or add N to the <name> clock); "
    "create clock <name> [with] N segments, e.g. create clock Doom 6\n"
    "- open scene <title>[: what the players see]; end scene; record fact <text> [gm only] "
    "(or note that <text>); set phase <lobby|play>\n"
    "- open thread <title>; resolve thread <title>[: how it ended]\n"
    "- describe, or look (or: what's happening?, show the clocks, list facts)\n"
    "- is the <name> clock full?, how full is the <name> clock?, how many clocks are there?, "
    "who's here?"
)
NARRATIVE_PLAYER_HELP = (
    "I understand:\n"
    '- ask the oracle "<question>" [likely|unlikely|even|very likely|...], '
    "or <question>? (likely)\n"
    "- roll <dice> [drop lowest | with advantage] [for <label>], e.g. roll a d20 and a d6\n"
    "- describe, or look (or: what's happening?, show the clocks, list facts)\n"
    "- is the <name> clock full?, how full is the <name> clock?, how many clocks are there?, "
    "who's here?"
)


def dnd_table_in_combat(gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    run = table.run(gm, "Start combat with 2 goblins", job_id="start")
    return table, run


def test_help_and_unknown_intents_list_the_grammar(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    assert help_text("dnd5e", gm=True) == DND_HELP
    assert table.run(gm, "help").texts == [(DND_HELP, "requester")]
    # A player reads what they can do, not the GM's commands.
    assert table.run(player, "help").texts == [(DND_PLAYER_HELP, "requester")]
    unknown = table.run(player, "dance a jig")
    assert unknown.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
    assert unknown.tools == [] and unknown.output.tool_calls == 0
    narrative = make_table("narrative", gm, player)
    assert narrative.run(player, "?").texts == [(NARRATIVE_PLAYER_HELP, "requester")]
    assert narrative.run(gm, "help").texts == [(NARRATIVE_HELP, "requester")]
    assert table.revision() == before


def test_a_refusal_names_the_field_as_a_player_would(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    run = table.run(player, "roll 1d6 for " + "a" * 121)
    assert run.texts == [
        ("That cannot happen: the label is longer than 120 characters.", "requester")
    ]
    assert table.revision() == before


def test_setting_the_phase_the_campaign_is_in_says_so(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    assert table.run(gm, "set phase play", job_id="play").texts == [
        ("The campaign moves from lobby to play.", "trigger")
    ]
    assert table.run(gm, "set phase play", job_id="again").texts == [
        ("The campaign is already in play.", "trigger")
    ]


def test_gm_only_intents_are_refused_to_a_player_and_change_nothing(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    for text, what in [
        ("start combat with a goblin", "start combat"),
        ("set phase play", "set the phase"),
    ]:
        run = table.run(player, text)
        assert run.texts == [(f"Only the GM can {what}.", "requester")]
        assert run.tools == []
    assert table.revision() == before
    assert table.campaign()["phase"] == "lobby"


def test_dnd5e_gm_starts_combat_from_the_lobby_and_a_player_acts(live_domains, gm, player):
    table, start = dnd_table_in_combat(gm, player)
    # The lobby forbids combat_start, so the agent moves the phase to play before its first
    # other write (once it has read that there is a foe to fight).
    assert start.tools == [
        "campaign_get", "character_get", "phase_set", "monster_spawn", "monster_spawn",
        "combat_start",
    ]  # fmt: skip
    assert start.texts == [
        ("Roll for initiative! The order: Ilsa (20), Goblin 2 (18), Goblin (6).", "trigger"),
        ("Ilsa acts first.", "trigger"),
    ]
    # Ilsa is up: the GM is offered nothing that takes her player's turn, only a GM's options.
    assert start.output.suggestions == ("describe", "end Ilsa's turn")
    combat = table.call(gm, "combat_status").structured["combat"]
    assert [(e["id"], e["initiative"]) for e in combat["order"]] == [
        ("pc-1", 20), ("mon-3", 18), ("mon-2", 6),
    ]  # fmt: skip
    # Each step's idempotency key is the job key and the step number.
    receipts = [o.structured["receipt"]["idempotency_key"] for o in start.caller.outcomes
                if "receipt" in o.structured]  # fmt: skip
    assert receipts == ["job-start:3", "job-start:4", "job-start:5", "job-start:6"]

    attack = table.run(player, "attack the goblin with longsword", job_id="attack")
    assert attack.tools == ["combat_status", "attack"]
    # A player sees no monster HP, so no GM line is written for them.
    assert attack.texts == [
        ("A solid hit. Ilsa strikes Goblin with Longsword for 6 slashing damage.", "trigger")
    ]
    goblin = table.call(gm, "character_get", character_id="mon-2").structured["character"]
    assert goblin["hp"] == {"current": 1, "max": 7, "temp": 0}

    # The sides start face to face: Ilsa at (5, 0), the goblins at (6, 0) and (6, 1).
    assert table.run(player, "move to 4,1", job_id="move").texts == [
        ("Ilsa crosses 5 ft to (4, 1); 25 ft of movement remain. Ilsa leaves the reach of "
         "Goblin and Goblin 2: each may make an opportunity attack.", "trigger")
    ]  # fmt: skip
    assert table.run(player, "check stealth dc 12", job_id="check").texts == [
        ("Ilsa's stealth check succeeds with 14 (DC 12).", "trigger")
    ]
    assert table.run(player, "perception check", job_id="check2").texts == [
        (
            "Ilsa's perception check succeeds with 19 (DC 10). "
            "No DC was named, so the default DC 10 was used.",
            "trigger",
        )
    ]
    assert table.run(player, "save dex dc 14", job_id="save").texts == [
        ("Ilsa's dex save succeeds with 14 (DC 14).", "trigger")
    ]
    assert table.run(player, "roll 2d6+3 for damage", job_id="roll").texts == [
        ("The dice tumble (damage): 2d6+3 = 5 (1 + 1 + 3).", "trigger")
    ]
    assert table.run(player, "describe", job_id="describe").texts == [
        ("Steel and shouting all around: Ilsa (unhurt), Goblin 2 (unhurt), Goblin (bloodied).",
         "trigger")
    ]  # fmt: skip
    assert table.run(player, "look at the goblin", job_id="look").texts == [
        ("Ilsa studies the Goblin: bloodied.", "trigger")
    ]
    assert table.run(player, "end turn", job_id="end-turn").texts == [
        ("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")
    ]
    # Now the goblin's: the player is told so in the table's words, and nothing is sent.
    early = table.run(player, "end turn", job_id="end-turn-early")
    assert early.texts == [("It is Goblin 2's turn: wait for yours.", "requester")]
    assert early.tools == ["combat_status"]


def test_a_gm_who_ends_a_players_turn_is_said_to(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, a player's character, is up
    ended = table.run(gm, "end turn", job_id="gm-ends-ilsa")
    assert ended.texts == [("The GM ends Ilsa's turn. Goblin 2 acts next (round 1).", "trigger")]
    # The monster the GM plays ends its own turn, as a player's character does.
    assert table.run(gm, "end turn", job_id="gm-ends-goblin").texts[0][0] == (
        "Goblin 2 ends the turn. Goblin acts next (round 1)."
    )


def test_looking_around_after_a_fight_leaves_out_the_fallen_monsters(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.call(gm, "damage_apply", target_id="mon-2", amount=50,
               expected_revision=table.revision(), idempotency_key="fell")  # fmt: skip
    table.run(gm, "end combat", job_id="end")
    looked = table.run(player, "look around", job_id="look")
    ((text, _audience),) = looked.texts
    assert "Goblin 2 (unhurt)" in text and "Ilsa (unhurt)" in text
    assert "Goblin (" not in text


def test_the_last_one_standing_is_said_to_act_again_not_to_follow_itself(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    for goblin in ("mon-2", "mon-3"):
        _gm_write(table, "damage_apply", target_id=goblin, amount=50)
    assert table.run(player, "end turn", job_id="end").texts == [
        ("Ilsa acts again (round 2): nobody else is left standing.", "trigger")
    ]


def test_a_second_gm_end_turn_for_the_same_turn_does_not_end_the_next_one(live_domains, gm, player):
    # Two "end turn"s for Goblin 2's turn (two tabs, or a turn running beside another): the
    # second one's write meets a newer revision and is sent again, as a turn's writes are.
    # It must not end the turn of whoever is up by then, who has not acted yet.
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end-turn")
    status = table.call(gm, "combat_status").structured["combat"]
    goblin = status["current"]
    order = [entry["id"] for entry in status["order"]]
    up_next = order[(order.index(goblin) + 1) % len(order)]
    turn = table.context(gm, "end turn", job_id="gm-end-late")
    caller = ToolCaller(
        system_id=table.system_id,
        campaign_id=table.campaign_id,
        requester=gm,
        job_key="job-gm-end-late",
        tools=turn.tools,
        base_revision=table.revision(gm),
        turn=turn.job_id,
        character=turn.character_id,
        stale_refreshes=2,
    )
    first = []
    inner = caller.__call__

    def racing(name, arguments):
        if name == "combat_end_turn" and not first:
            first.append(table.run(gm, "end turn", job_id="gm-end-first"))
        return inner(name, arguments)

    late = ScriptedAgent().run_turn(turn, racing)
    assert "ends the turn" in first[0].texts[0][0]
    assert table.call(gm, "combat_status").structured["combat"]["current"] == up_next
    [(text, audience)] = [(m.text, m.audience) for m in late.messages]
    assert audience == "requester" and "that turn has already ended" in text


def test_a_monster_still_standing_is_said_to_rejoin_and_a_new_one_is_fresh(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "attack the goblin with longsword", job_id="attack")  # Goblin: 1/7 HP
    table.run(gm, "end combat", job_id="end")

    def fighting():
        combat = table.call(gm, "combat_status").structured["combat"]
        return sorted(entry["id"] for entry in combat["order"])

    again = table.run(gm, "start combat with a goblin", job_id="again")
    assert "monster_spawn" not in again.tools
    # After the initiative line, which says the fight has begun.
    assert again.texts[1] == ("Back in the fight from before: Goblin.", "trigger")
    assert fighting() == ["mon-2", "pc-1"]
    table.run(gm, "end combat", job_id="end-again")
    fresh = table.run(gm, "start combat with a new goblin", job_id="fresh")
    assert fresh.tools.count("monster_spawn") == 1
    assert not any(text.startswith("Back in the fight") for text, _audience in fresh.texts)
    assert fighting() == ["mon-4", "pc-1"]
    hp = table.call(gm, "character_get", character_id="mon-4").structured["character"]["hp"]
    assert (hp["current"], hp["max"]) == (7, 7)


def test_dnd5e_gm_acts_as_the_current_monster_and_sees_its_hp_alone(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "attack the goblin", job_id="attack")
    table.run(player, "end turn", job_id="end-turn")
    # mon-3 acts now; the GM has no character, so it attacks as the current combatant.
    run = table.run(gm, "attack mon-2", job_id="gm-attack")
    assert run.caller.outcomes[-1].structured["attacker_id"] == "mon-3"
    texts = run.texts
    assert texts[-1][1] == "gm"
    hp = table.call(gm, "character_get", character_id="mon-2").structured["character"]["hp"]
    assert texts[-1][0] == f"Goblin: {hp['current']}/7 HP."
    assert all(audience == "trigger" for _text, audience in texts[:-1])


def test_dnd5e_refusals_from_the_rules_reach_only_the_requester(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    # It is Ilsa's turn; the GM's goblin may not move.
    run = table.run(gm, "end combat", job_id="end")
    assert run.texts == [("Combat ends after 1 round; the dust settles.", "trigger")]
    moved = table.run(player, "move to 2,1", job_id="move-after")
    assert moved.texts == [("You cannot move on the grid in the play phase.", "requester")]
    unknown = table.run(player, "attack the dragon", job_id="dragon")
    assert unknown.texts == [
        ("I cannot find “the dragon” here. Present: Goblin, Goblin 2, Ilsa.",
         "requester")
    ]  # fmt: skip
    bad_dice = table.run(player, "roll 0d6", job_id="bad-dice")
    assert bad_dice.texts[0][1] == "requester"
    assert bad_dice.texts[0][0].startswith("That cannot happen: ")
    assert bad_dice.texts[0][0].endswith(".")
    assert table.revision() == before + 1  # only combat_end wrote
    phase = table.run(gm, "set phase lobby", job_id="phase")
    assert phase.texts == [("The campaign moves from play to lobby.", "trigger")]


def test_same_job_id_same_narration_and_phrasing_varies_by_job(live_domains, gm, player):
    first, first_start = dnd_table_in_combat(gm, player)
    second, second_start = dnd_table_in_combat(gm, player)
    assert first_start.output == second_start.output
    one = first.run(player, "roll 1d20", job_id="same")
    two = second.run(player, "roll 1d20", job_id="same")
    assert one.output == two.output
    phrasings = set()
    for index in range(8):
        table = make_table("dnd5e", gm, player)
        phrasings.add(table.run(player, "roll 1d20", job_id=f"vary-{index}").texts[0][0])
    assert len(phrasings) >= 2  # same roll (same seed), different seeded phrasing


def test_narrative_intents(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    lobby = table.run(player, 'ask the oracle "Is it raining?" likely', job_id="o0")
    # The refusal says the way forward, which otherwise only the help list tells.
    assert lobby.texts == [
        ("You cannot ask the oracle in the lobby phase. Play starts when the GM says so.",
         "requester"),
    ]  # fmt: skip
    gm_lobby = table.run(gm, 'ask the oracle "Is it raining?"', job_id="o-gm")
    assert gm_lobby.texts == [
        ("You cannot ask the oracle in the lobby phase. Say “set phase play” to start playing.",
         "requester"),
    ]  # fmt: skip
    secret = table.run(gm, "record fact The duke is a vampire gm only", job_id="f0")
    assert secret.texts == [("Noted: The duke is a vampire.", "gm")]
    assert table.run(gm, "set phase play", job_id="p").texts == [
        ("The campaign moves from lobby to play.", "trigger")
    ]
    # The reply says the odds asked at, and a twist in words.
    assert table.run(player, 'ask the oracle "Is the door locked?" very likely',
                     job_id="o1").texts == [
        ("Asked “Is the door locked?” at very likely odds, the oracle answers: Yes, and "
         "something more happens (rolled 4 on d100; yes on 85 or less).", "trigger")
    ]  # fmt: skip
    oracle = table.run(player, 'Ask the oracle: "Does anyone follow us?"', job_id="o2")
    assert oracle.texts == [
        (
            "Asked “Does anyone follow us?” at even odds, the oracle answers: No (rolled 76 on "
            "d100; yes on 50 or less).",
            "trigger",
        )
    ]
    assert oracle.caller.outcomes[0].structured["likelihood"] == "even"
    assert table.run(gm, "create clock Doom with 6 segments", job_id="c").texts == [
        ("A new clock: Doom, 6 segments, empty.", "trigger")
    ]
    by_two = table.run(gm, "advance clock doom by 2", job_id="a1")
    assert by_two.tools == ["story_get", "clock_advance"]
    assert by_two.texts == [("The Doom clock ticks to 2/6.", "trigger")]
    assert table.run(gm, "advance the clock Doom", job_id="a2").texts == [
        ("Doom: 3 of 6 segments filled.", "trigger")
    ]
    assert table.run(player, "advance clock doom", job_id="a3").texts == [
        ("Only the GM can advance a clock.", "requester")
    ]
    assert table.run(gm, "open scene The Drowned Chapel", job_id="s").texts == [
        ("Scene: The Drowned Chapel.", "trigger")
    ]
    assert table.run(gm, "record fact The chapel bell is cracked", job_id="f1").texts == [
        ("Noted: The chapel bell is cracked.", "trigger")
    ]
    assert table.run(player, "roll 1d6", job_id="r").texts == [
        ("The dice tumble: 1d6 = 1.", "trigger")
    ]
    expected = "Scene: The Drowned Chapel. Clocks: Doom 3/6. Known: The chapel bell is cracked."
    assert table.run(player, "look around", job_id="l1").texts == [(expected, "trigger")]
    # The GM sees the hidden fact too, but only in a GM-only message.
    assert table.run(gm, "describe", job_id="l2").texts == [
        (expected, "trigger"),
        ("Known: The duke is a vampire.", "gm"),
    ]
    story = table.call(gm, "story_get").structured
    assert [(f["text"], f["audience"]) for f in story["facts"]] == [
        ("The duke is a vampire", "gm"),
        ("The chapel bell is cracked", "public"),
    ]
    assert [(c["name"], c["filled"]) for c in story["clocks"]] == [("Doom", 3)]
    assert story["scene"]["title"] == "The Drowned Chapel"


@pytest.mark.parametrize(
    ("expression", "values", "text"),
    [
        ("1d20", [14], ""),
        ("1d20+5", [12], "12 + 5"),
        ("2d6-1", [3, 4], "3 + 4 - 1"),
        ("2d20kh1+3", [13, 9], "13 + 3"),  # the dropped 9 does not count
        ("1d8-1d4", [6, 3], "6 - 3"),
    ],
)
def test_a_rolls_breakdown_names_the_dice_that_count(expression, values, text):
    from apps.turns.agents.scripted import _breakdown
    from domain_servers.common import dice

    class Scripted:
        def __init__(self):
            self.values = iter(values)

        def randint(self, low, high):
            return next(self.values)

    assert _breakdown(dice.roll(expression, Scripted())) == text


def _gm_write(table, tool, **arguments):
    outcome = table.call(
        table.gm, tool, expected_revision=table.revision(), idempotency_key=uuid.uuid4().hex,
        **arguments,
    )  # fmt: skip
    return outcome.structured


def test_dnd5e_an_attack_out_of_reach_is_refused_by_name(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "move to 2,0", job_id="away")
    before = table.revision()
    # Ilsa at (2, 0), the first living goblin (mon-2) at (6, 1): 4 squares, 20 ft.
    far = table.run(player, "attack the goblin", job_id="far")
    assert far.tools == ["combat_status", "attack"]
    assert far.texts == [
        ("That cannot happen: Goblin is 20 ft away from Ilsa; Longsword reaches 5 ft. "
         "Move closer first.", "requester"),
    ]  # fmt: skip
    assert table.revision() == before


def test_dnd5e_a_dead_target_is_named_after_combat(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    for goblin in ("mon-2", "mon-3"):
        _gm_write(table, "damage_apply", target_id=goblin, amount=50)
    table.run(gm, "end combat", job_id="end")
    # Attacks are allowed out of combat (play phase), so the dead target is the reason.
    assert table.run(player, "attack goblin", job_id="dead").texts == [
        ("That cannot happen: Goblin is already dead.", "requester")
    ]


def test_dnd5e_bad_dice_and_dc_get_clear_answers(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end combat", job_id="end")
    before = table.revision()
    assert table.run(player, "roll 1000d1000", job_id="big").texts == [
        ("That cannot happen: dice count 1000 is outside 1..100.", "requester")
    ]
    for who, text, answer in [
        (gm, "check perception dc abc", "The DC must be a number, like `check perception dc 12`."),
        (player, "stealth check dc x", "The DC must be a number, like `check stealth dc 12`."),
        (player, "save dex dc abc", "The DC must be a number, like `save dex dc 12`."),
        (player, "save dex dc 99", "The DC must be between 1 and 40."),
        (gm, "check perception dc 12",
         "As the GM you have no character to make an ability check with; in combat you act as "
         "whoever's turn it is. To roll for someone else, use “roll 1d20+3”."),
    ]:  # fmt: skip
        run = table.run(who, text, job_id=text)
        assert run.texts == [(answer, "requester")], text
        assert run.tools == [], text
    assert table.revision() == before


def test_narrative_clock_amounts_are_parsed_and_bounded(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    table.run(gm, "create clock Doom with 6 segments", job_id="c")
    before = table.revision()
    ticks = "Advance a clock by 1 to 12 segments, or by -1 to -12 to empty it."
    for text, answer in [
        ("advance clock Doom by 100", ticks),
        ("advance clock Doom by -13", ticks),
        ("advance clock Doom by 0", ticks),
        ("create clock Huge with 1000000 segments", "A clock has at most 12 segments."),
        ("create clock Zero with 0 segments", "A clock needs at least 2 segments."),
    ]:
        run = table.run(gm, text, job_id=text)
        assert run.texts == [(answer, "requester")], text
        assert run.tools == [], text
    assert table.revision() == before
    assert table.run(gm, "advance clock Doom by 12", job_id="full").texts == [
        ("Doom is complete (6/6). Something happens now.", "trigger")
    ]
    assert table.run(gm, "advance clock Doom", job_id="more").texts == [
        ("That cannot happen: the Doom clock is already complete.", "requester")
    ]


def test_a_gm_only_action_keeps_its_fact_secret_and_refuses_what_everyone_sees(
    live_domains, gm, player
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    secret = table.run(gm, "record fact The heir is a changeling", job_id="f",
                       trigger_audience="gm")  # fmt: skip
    assert secret.texts == [("Noted: The heir is a changeling.", "gm")]
    bracketed = table.run(gm, "record fact The butler lied (gm only)", job_id="f2")
    assert bracketed.texts == [("Noted: The butler lied.", "gm")]
    for text, what in (
        ("create clock Ritual with 4 segments", "create a clock"),
        ("open scene The Vampire Lair", "open a scene"),
        ("open thread The missing heir", "open a thread"),
        ("set phase lobby", "set the phase"),
    ):
        refused = table.run(gm, text, job_id=f"gm-only {text}", trigger_audience="gm")
        assert refused.texts == [
            (f"Everyone sees it when you {what}: send it as a public action.", "requester")
        ]
        assert refused.tools == []
    story = table.call(player, "story_get").structured
    assert (story["facts"], story["clocks"], story["scene"], story["threads"]) == ([], [], None, [])
    assert [f["audience"] for f in table.call(gm, "story_get").structured["facts"]] == ["gm", "gm"]


def test_a_title_that_ends_on_its_own_mark_gets_no_full_stop_after_it(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    assert table.run(gm, "open thread Who killed the lamplighter?", job_id="t").texts[0][0] in (
        "A new thread: Who killed the lamplighter?", "A thread opens: Who killed the lamplighter?",
    )  # fmt: skip
    assert table.run(gm, "open scene Ambush!", job_id="s").texts[0][0].endswith(": Ambush!")


def test_narrative_threads_open_and_resolve_in_the_order_made(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    for n in range(10):
        table.run(gm, f"create clock C{n} with 4 segments", job_id=f"c{n}")
    assert table.run(gm, "open thread The missing heir", job_id="t1").texts == [
        ("A new thread: The missing heir.", "trigger")
    ]
    assert table.run(player, "open thread Mine", job_id="t2").texts == [
        ("Only the GM can open a thread.", "requester")
    ]
    resolved = table.run(gm, "resolve thread the missing: found in the crypt", job_id="t3")
    assert resolved.texts == [
        ("The thread “The missing heir” is resolved: found in the crypt.", "trigger")
    ]
    assert table.run(gm, "resolve thread heir", job_id="t4").texts == [
        ("There is no open thread to resolve.", "requester")
    ]
    story = table.call(player, "story_get").structured
    assert [(t["title"], t["status"], t["resolution"]) for t in story["threads"]] == [
        ("The missing heir", "resolved", "found in the crypt")
    ]
    # clock-2 .. clock-11: as made, not as text ("clock-11" before "clock-2").
    assert [c["name"] for c in story["clocks"]] == [f"C{n}" for n in range(10)]


def test_a_player_asking_to_start_combat_during_combat_is_told_only_the_gm_can(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    assert table.run(player, "start combat", job_id="again").texts == [
        ("Only the GM can start combat.", "requester")
    ]


def test_dnd5e_a_downed_character_saves_from_its_next_turn_and_is_healed(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    texts = table.run(player, "death save", job_id="ds0").texts
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])  # down, not dead
    texts += table.run(player, "make a death saving throw", job_id="ds1").texts
    # Unconscious: Ilsa cannot drink a potion herself.
    texts += table.run(player, "heal ilsa", job_id="h0").texts
    texts += table.run(gm, "heal Ilsa 0", job_id="h-bad").texts
    texts += table.run(gm, "heal Ilsa 5", job_id="h1").texts
    assert texts == [
        ("That cannot happen: Ilsa is not dying.", "requester"),
        (
            "That cannot happen: Ilsa dropped this turn: the first death save comes at the "
            "start of the next.",
            "requester",
        ),
        ("That cannot happen: Ilsa cannot give a potion while unconscious.", "requester"),
        ("Heal 1 to 10000 hit points.", "requester"),
        ("Ilsa is back up with 5 HP.", "trigger"),
    ]


def test_dnd5e_a_player_drinks_a_potion_and_stands_up_on_their_turn(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=11)
    _gm_write(table, "condition_add", target_id=ilsa, condition="prone")
    # A number from a player is no amount: the potion is rolled (2d4+2) by the rules.
    potion = table.run(player, "heal Ilsa for 9999", job_id="potion")
    # Then the combat is read again for Ilsa's options.
    healed = next(o for o in potion.caller.outcomes if o.tool == "heal").structured
    assert (healed["source"], healed["healer_id"], healed["target_id"]) == (
        "potion_of_healing", ilsa, ilsa,
    )  # fmt: skip
    assert potion.texts == [
        ("Ilsa drinks a potion of healing (2d4+2 = 8). Ilsa recovers 8 HP (now 9).", "trigger"),
        ("Players heal with a potion of healing (2d4+2); only the GM sets an amount.", "requester"),
    ]
    # The potion took Ilsa's action: no second one this turn.
    assert table.run(player, "heal Ilsa", job_id="potion-2").texts == [
        ("That cannot happen: Ilsa has no action left this turn.", "requester")
    ]
    stood = table.run(player, "I stand up", job_id="stand")
    assert stood.tools == ["stand_up", "combat_status"]  # then the turn's options
    assert stood.texts == [("Ilsa stands up, using 15 ft of movement (15 ft left).", "trigger")]
    assert (
        "prone"
        not in table.call(gm, "character_get", character_id=ilsa).structured["character"][
            "conditions"
        ]
    )
    assert table.run(player, "get up", job_id="stand-2").texts == [
        ("That cannot happen: Ilsa is not prone.", "requester")
    ]
    # The GM stands whoever is up by the same rules: it costs Ilsa's movement.
    _gm_write(table, "condition_add", target_id=ilsa, condition="prone")
    assert table.run(gm, "stand", job_id="gm-stand").texts == [
        ("Ilsa stands up, using 15 ft of movement (no movement left).", "trigger")
    ]


def test_dnd5e_a_move_to_where_the_character_stands_is_narrated_as_staying(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    # Ilsa is up, at (5, 0).
    stay = table.run(player, "move to 5,0", job_id="stay")
    assert stay.texts == [("Ilsa stays at (5, 0), with 30 ft of movement left.", "trigger")]


def test_dnd5e_a_prone_character_is_narrated_crawling_at_double_cost(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    # The tester's repro: down to 0 HP, healed, still prone. Ilsa is up, at (5, 0).
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    _gm_write(table, "heal", target_id=ilsa, amount=5)
    before = table.revision()
    # 15 ft crawled costs 30 ft, all of it; 20 ft would cost 40 and is refused.
    refused = table.run(player, "move to 1,3", job_id="crawl-far")
    assert refused.texts == [
        ("That cannot happen: Ilsa is prone and crawling 20 ft costs 40 ft of movement; Ilsa "
         "has only 30 ft left this turn (standing up costs half the speed).", "requester")
    ]  # fmt: skip
    assert table.revision() == before
    crawl = table.run(player, "move to 2,3", job_id="crawl")
    assert crawl.tools == ["combat_move", "combat_status"]
    assert crawl.texts == [
        ("Ilsa crawls to (2, 3), 15 ft for 30 ft of movement, with no movement left. Ilsa "
         "leaves the reach of Goblin and Goblin 2: each may make an opportunity attack.",
         "trigger")
    ]  # fmt: skip
    ilsa_view = table.call(gm, "character_get", character_id=ilsa).structured["character"]
    assert ilsa_view["conditions"] == ["prone"]


def test_dnd5e_a_hit_on_a_dying_character_narrates_its_death_save_failures(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=1)
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    table.run(player, "end turn", job_id="end-turn")
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    for n in range(6):
        run = table.run(gm, "attack ilsa", job_id=f"gm-attack-{n}")
        result = run.caller.outcomes[-1].structured
        if result.get("hit"):
            break
        table.run(gm, "end turn", job_id=f"gm-end-{n}")
        table.run(player, "end turn", job_id=f"p-end-{n}")
    assert result["hit"] and result["critical"]
    effect = result["damage"]["effect"]
    assert effect["death_save_failures_added"] == 2
    assert run.texts[0] == (
        "Critical hit! Goblin 2's Scimitar hits Ilsa (18 to hit): 9 slashing. "
        "(Advantage: Ilsa is prone and unconscious.) "
        "Ilsa takes 2 death-save failures (2 of 3).",
        "trigger",
    )


def test_dnd5e_the_second_goblin_is_goblin_2(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    looked = table.run(player, "look at goblin 2", job_id="look-2")
    assert looked.texts == [("Ilsa looks Goblin 2 over: unhurt.", "trigger")]


def test_a_gm_only_fact_stays_secret_when_the_gm_ends_it_with_punctuation(live_domains, gm, player):
    """ "gm only." and "(GM only)!" hide the fact like "gm only" does: the punctuation is
    not read as part of a public fact's text, and the action itself is posted GM-only."""
    from apps.turns.agents.scripted import ScriptedAgent

    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    texts = (
        "record fact The mole is Juno gm only.",
        "record fact The boss is dead (GM only)!",
        "record fact The vault is empty, gm only",
    )
    # Any ending, and misspelt commands: the marker alone makes the action GM-only.
    endings = ("?", ";", " !", "!?", " 🤫", "。", "！", "*", "}")
    marked = [f"record fact The mole is Juno gm only{end}" for end in endings]
    marked += ["recrod fact The mole is Juno gm only", "record fcat The mole is Juno gm only."]
    for text in (*texts, *marked):
        assert (
            ScriptedAgent.action_audience(system_id="narrative", text=text, audience="public")
            == "gm"
        ), text
    assert (
        ScriptedAgent.action_audience(
            system_id="narrative", text="record fact The mole is Juno", audience="public"
        )
        == "public"
    )
    more = (
        "record fact The heir lives gm only?",
        'record fact The map is false "gm only"',
        "record fact gm only: the abbot knows",
    )
    runs = [table.run(gm, text, job_id=f"f{n}") for n, text in enumerate((*texts, *more))]
    assert [run.texts for run in runs] == [
        [("Noted: The mole is Juno.", "gm")],
        [("Noted: The boss is dead.", "gm")],
        [("Noted: The vault is empty.", "gm")],
        [("It is established: The heir lives.", "gm")],
        [("It is established: The map is false.", "gm")],
        [("Noted: gm only: the abbot knows.", "gm")],
    ]
    assert table.call(player, "story_get").structured["facts"] == []
    assert [
        (f["text"], f["audience"]) for f in table.call(gm, "story_get").structured["facts"]
    ] == [
        ("The mole is Juno", "gm"),
        ("The boss is dead", "gm"),
        ("The vault is empty", "gm"),
        ("The heir lives", "gm"),
        ("The map is false", "gm"),
        ("gm only: the abbot knows", "gm"),
    ]


def test_resolving_a_thread_by_name_picks_the_open_one_over_a_resolved_namesake(
    live_domains, gm, player
):
    """Titles repeat ("Rescue" twice) and share prefixes: the thread to resolve is an open
    one, so an older resolved thread of that name never blocks it."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    table.run(gm, "open thread Rescue", job_id="t1")
    table.run(gm, "resolve thread Rescue: done", job_id="t2")
    table.run(gm, "open thread Find the client", job_id="t3")
    table.run(gm, "resolve thread find", job_id="t4")
    table.run(gm, "open thread Rescue", job_id="t5")
    table.run(gm, "open thread Find the money", job_id="t6")
    assert table.run(gm, "resolve thread Rescue: again", job_id="t7").texts == [
        ("The thread “Rescue” is resolved: again.", "trigger")
    ]
    assert table.run(gm, "resolve thread find", job_id="t8").texts == [
        ("The thread “Find the money” is resolved.", "trigger")
    ]
    # An exact title beats an open thread whose title only starts so.
    table.run(gm, "open thread The Heist", job_id="t9")
    table.run(gm, "resolve thread The Heist", job_id="t10")
    table.run(gm, "open thread The Heist aftermath", job_id="t11")
    assert table.run(gm, "resolve thread the heist", job_id="t12").texts == [
        ("That cannot happen: the thread “The Heist” is already resolved.", "requester")
    ]
    story = table.call(player, "story_get").structured
    assert [(t["title"], t["status"]) for t in story["threads"]] == [
        ("Rescue", "resolved"),
        ("Find the client", "resolved"),
        ("Rescue", "resolved"),
        ("Find the money", "resolved"),
        ("The Heist", "resolved"),
        ("The Heist aftermath", "open"),
    ]


def test_advancing_a_clock_by_name_picks_one_that_can_move(live_domains, gm, player):
    """A finished "Alarm" clock does not block the new "Alarm": filling picks a clock not yet
    complete, emptying one not yet empty; with none, the rules say why."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    table.run(gm, "create clock Alarm with 2 segments", job_id="c1")
    table.run(gm, "advance clock alarm by 2", job_id="a1")
    table.run(gm, "create clock Alarm with 4 segments", job_id="c2")
    assert table.run(gm, "advance clock alarm", job_id="a2").texts == [
        ("Alarm: 1 of 4 segments filled.", "trigger")
    ]
    assert table.run(gm, "advance clock alarm by -2", job_id="a3").texts == [
        ("Alarm: 0 of 2 segments filled.", "trigger")
    ]
    # The name still decides first: a movable clock whose name only starts so does not
    # take the turn of a finished one named exactly.
    table.run(gm, "create clock Doom with 2 segments", job_id="c3")
    table.run(gm, "advance clock doom by 2", job_id="a4")
    table.run(gm, "create clock Doom of the city with 6 segments", job_id="c4")
    assert table.run(gm, "advance clock doom", job_id="a5").texts == [
        ("That cannot happen: the Doom clock is already complete.", "requester")
    ]
    story = table.call(player, "story_get").structured
    assert [(c["name"], c["filled"], c["segments"]) for c in story["clocks"]] == [
        ("Alarm", 0, 2),
        ("Alarm", 1, 4),
        ("Doom", 2, 2),
        ("Doom of the city", 0, 6),
    ]


def test_a_clock_or_open_thread_of_a_name_already_running_is_refused_saying_its_state(
    live_domains, gm, player
):
    """Sending "create clock Doom! …" twice would leave two "Doom!" clocks for "advance clock doom!"
    to guess between: the second is refused, whatever its case, with the first one's state.
    Likewise an open thread's title; a finished namesake does not block a new one."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="p")
    table.run(gm, "create clock Doom! with 4 segments", job_id="c1")
    table.run(gm, "advance clock doom!", job_id="a1")
    table.run(gm, "open thread The missing heir", job_id="t1")
    before = table.revision()
    doom = "There is already a clock “Doom!” (1/4). Advance it, or give the new clock another name."
    heir = (
        "There is already an open thread “The missing heir”. "
        "Resolve it, or give the new thread another title."
    )
    for text, answer in [
        ("create clock Doom! with 4 segments", doom),
        ("create clock called doom with 6 segments", doom),
        ("create clock “DOOM!” with 2 segments", doom),
        ("open thread The missing heir", heir),
        ("open thread the Missing Heir.", heir),
    ]:
        run = table.run(gm, text, job_id=text)
        assert run.texts == [(answer, "requester")], text
        assert run.tools == ["story_get"], text
    assert table.revision() == before
    table.run(gm, "advance clock doom by 3", job_id="a2")
    table.run(gm, "resolve thread the missing heir: found", job_id="t2")
    assert table.run(gm, "create clock doom! with 2 segments", job_id="c2").texts == [
        ("A new clock: doom!, 2 segments, empty.", "trigger")
    ]
    assert table.run(gm, "open thread The missing heir", job_id="t3").texts == [
        ("A thread opens: The missing heir.", "trigger")
    ]
    story = table.call(player, "story_get").structured
    assert [(c["name"], c["filled"], c["segments"]) for c in story["clocks"]] == [
        ("Doom!", 4, 4),
        ("doom!", 0, 2),
    ]
    assert [(t["title"], t["status"]) for t in story["threads"]] == [
        ("The missing heir", "resolved"),
        ("The missing heir", "open"),
    ]
