"""The scripted agent: offline and deterministic, for development, tests and benchmarks.

It understands a small grammar of player intents per system (case-insensitive; words in
brackets are optional), calls only the tools of the turn's facade through `call_tool`, and
narrates from the tool results. Phrasing varies but is seeded by the job id, so a re-run of the
same job with the same results writes the same words. Anything else that names a thing the
grammar knows (a thread, clock, scene, fact, combat, the phase, a turn, a check...) is told that
thing's nearest command ("To open a thread, say: open thread <title>"; a player, that only the
GM can, for the GM's), and anything else the help reply; in
narrative, a free action ("I search the room") or question ("is the door locked?") that only a
GM could judge is answered with the oracle's command in the player's words instead.

Read kindly: emoji and trailing punctuation are ignored (a roll's label, in either system, keeps
its own closing "!", "?" or "..."; a full stop is the sentence's), "I …" first-person forms
("I'd like to …", "I'm going to …", "let me …"; "we …" too, a player speaking for their
character: "we make a dex save"), "please", "ok" and a closing "please", in dnd5e "use my
action to …" before a command,
a question's missing apostrophe ("whats my hp", "whos here") and,
in dnd5e, "swing/strike/hit/shoot/stab/slash [my sword] at X" (= attack X; "goblin 2
hits Ilsa" = goblin 2 attacks Ilsa), "fire [my crossbow] at X" (= attack X [with crossbow]),
"make an attack on|against X", "make an attack roll against X" and "roll to hit X" (= attack
X; "Ilsa rolls to hit X", "Ilsa makes an attack on X" and "Ilsa, make an attack against X"
= Ilsa attacks X), "attack X using <weapon>", "punch|kick X" (= attack X with Unarmed
Strike; "Ilsa punches X", "throw a punch at X", "swing my fists at X") and "roll a d20"
(= roll 1d20) are
understood, as is
"roll two d6" (= roll 2d6) in either system. A command asked about ("can I attack the
goblin?", "could I …", "may I …") is offered as the command to send, nothing done on a
question; a read asked so ("can I see my hp?") is answered; a blow or step asked about of a
thing or a creature nobody here is ("can I kick the door?", "can I attack the orc?") is
answered as the line itself is, never offered as a command that would not be acted on. A misspelt
first word or target name with a single close match (difflib) is never acted on: the reply asks
"Did you mean: attack the goblin?" and suggests that command.

dnd5e
    attack [<target>] [with <weapon>]    attack as your character (no target, or "the
                                         nearest <kind>|enemy": the nearest foe, of that
                                         kind); "with my fists" or "unarmed"
                                         (no "with"): the Unarmed Strike every player
                                         character has; the GM in combat attacks
                                         as the current combatant (e.g. a monster); also
                                         "<who> attacks <target>" (a player: own character;
                                         the GM: "goblin" is the goblin whose turn it is);
                                         "<who> attacks" with no target: the nearest foe
                                         standing, or, with two as near, asks which;
                                         said of several ("the goblins attack Ilsa"),
                                         asks the GM to name one at a time;
                                         "... with (or at) advantage|disadvantage" asks for
                                         that roll (the rules still cancel it against the
                                         situation);
                                         "... as a reaction" makes it the attacker's reaction:
                                         the opportunity attack a move out of its reach just
                                         provoked ("goblin 2 attacks Ilsa as a reaction",
                                         offered to the GM after the move; a player's own:
                                         "attack the goblin as a reaction"); also "goblin 2
                                         makes an opportunity attack against Ilsa", "make
                                         an opportunity attack on the goblin"
    check <ability|skill> [dc N]         ability check, DC 10 unless given (bounded by the
                                         tool's schema; the narration then says DC 10 was
                                         the default); "... with advantage|disadvantage"
                                         (before or after the DC; a save too) asks for that
                                         roll, as for an attack; also
                                         "<skill> check [dc N]", "roll <skill> [dc N]"
    save <ability> [dc N]                saving throw, DC 10 unless given (said); also
                                         "<ability> save [dc N]", "roll a dex save"
    <skill> check for <name> [dc N]      GM: whose check or save, a character's or a
                                         creature's ("perception check for Ilsa", "Ilsa
                                         makes|rolls a perception check", "Ilsa rolls
                                         stealth", "dex save for Goblin dc 12", "check
                                         perception for Ilsa"); a player names only their
                                         own character
    roll <dice> [for <label>]            e.g. roll 2d6+3, roll 2d20kh1+5 for initiative;
                                         "roll a d20 and a d6" (also "," or "&") rolls
                                         each, in either system
    roll <dice> drop lowest | keep highest N | with advantage   e.g. roll 4d6 drop lowest
                                         ("roll with advantage": a d20, in either system)
    move to X,Y                          move on the combat grid (combat only); also
                                         "move 4 5", "move to (4, 5)", "move to square 4,5"
    move to <target>                     to the free square beside it nearest you (also
                                         "move next to <target>", "approach <target>")
    move N squares|feet <direction>      from where you stand, 5 ft a square (diagonals
                                         too): north, south, east, west, north-east ("NE",
                                         "northeast"), ...; up, down, left and right as the
                                         map shows them (north is up, towards row 0); also
                                         "move north [N squares]", "walk"/"run"/"step"/"go"
                                         (for "move to X,Y" too; all but "go" for "move to
                                         <target>");
                                         each also as "<name> moves ..." (the GM: that
                                         creature; a player: own character)
    roll for initiative                  answered: combat start rolls it for everyone
    death save                           at 0 HP, your character's death saving throw (in
                                         combat; "make|roll my death save" too); the GM:
                                         "death save for <name>" or
                                         "<name> makes a death save", also outside combat
    heal <target> [[for] N]              a player's character gives a potion of healing
                                         (2d4+2, its action in combat; N is ignored); the
                                         GM restores N hit points (a potion without N);
                                         "heal me|myself" is your own character
    cast cure wounds|healing word [on <target>] [at level N]
                                         a player's cleric heals with a spell slot (no
                                         target: your own character; "at 2nd level",
                                         "with a level 2 slot" too); also "heal <target>
                                         with cure wounds", "use healing word on <target>";
                                         the GM is told to heal the amount instead
    cast magic missile at <target> [at level N]
                                         a player's wizard, with a spell slot (also "use
                                         magic missile on <target>"); the GM is told to
                                         deal the damage instead
    cast shield of faith [on <target>]   a player's cleric, with a spell slot (its bonus
                                         action in combat; no target: your own character):
                                         +2 AC while it concentrates; a second
                                         concentration spell ends the first (said);
                                         damage told (a hit, a spell) says the caster's
                                         concentration save, its total against the DC: kept,
                                         or the spell ends (at 0 HP with no save)
    cast bless [on <target>, <target> and me] [at level N]
                                         a player's cleric, with a spell slot (its action
                                         in combat; no target: your own character): up to
                                         3 creatures, one more per slot level above 1st;
                                         each adds 1d4 to attack rolls and saving throws
                                         while it concentrates; a total said then says the
                                         die in it ("(+3 from Bless.)"; a death save "8 + 2
                                         from Bless = 10"), a monster's never
    <creature> casts <spell> [at|on <target>]
                                         the GM is answered as for "cast <spell>" (a
                                         monster's spell is rolled, then its damage or
                                         healing applied); a player, to say "cast <spell>"
    end concentration                    your character ends the spell it concentrates on,
                                         on every creature it is on (free, at any time;
                                         also "drop shield of faith", "drop bless", "stop
                                         concentrating [on bless]"); naming a spell it is
                                         not concentrating on is refused
    short rest [, spend N hit dice]      out of combat, your character spends Hit Dice
                                         (one unless said; also "I take a short rest and
                                         spend 2 hit dice", "spend a hit die"); the GM, as
                                         narration:
                                         "short rest for <name>[, N hit dice]"
    long rest [for <name>]               GM, as narration: the party (or one character)
                                         gets hit points and spell slots back (also "we
                                         take a long rest", "<name> takes a long rest");
                                         a spell held by concentration ends (said)
    give me N temp hp                    temporary hit points for your character (also
                                         "grant <target> N temp hp", "<target> gains N temp
                                         hp"): they do not stack, the higher is kept; a
                                         player grants only their own characters, the GM
                                         anyone (a monster's numbers are said to the GM only)
    damage <target> N [<type>]           GM: N damage outside an attack (a trap, a fall, a
                                         spell the rules do not cast): "damage goblin 9
                                         fire", "damage Ilsa 5", also "deal 7 fire damage
                                         to the goblin", "the goblin takes 4 piercing
                                         damage"; a type the rules do not know is refused
                                         in their words. Told as an attack's hit is: the
                                         target's state and concentration save to all, a
                                         monster's HP (and what its resistance, immunity
                                         or vulnerability made of it) to the GM alone; a
                                         character's temporary hit points absorbing it,
                                         and its resistances, to all. A player is told to
                                         attack instead; in combat the GM sends it as
                                         narration (the action row says so)
    stand up | get [back] up | I stand   leave prone (in combat: half your speed); the GM:
                                         whoever is up stands, by the same rules (outside
                                         combat the GM lifts prone instead); also
                                         "<name> stands up|gets up" (a player: own
                                         character). Offered first to a prone combatant on
                                         its turn
    dodge | dash | disengage | hide      in combat, your character takes that action (its
                                         action for the turn): Dodge until its next turn,
                                         Dash doubles the turn's movement, Disengage moves
                                         without opportunity attacks, Hide is a Stealth
                                         check against the foes' passive Perception; also
                                         "take (or use) the Dodge action", "<name> dodges" (own
                                         character only); "... as a bonus action" for a
                                         rogue's Cunning Action (a goblin's Nimble Escape).
                                         Outside combat "I hide [dc N]" is a Stealth check
                                         (no DC: its total, for the GM to compare with the
                                         watchers' Perception)
    help <name> [attack <target>]        in combat, your character's Help action: the
                                         ally's next attack on that foe (unnamed: the one
                                         beside you; none: its next check) has advantage
                                         (also "help <name> with|against <target>")
    shove <target> [prone | away]        in combat, one attack of your Attack action:
                                         Athletics against the target's Athletics or
                                         Acrobatics; a win knocks it prone or pushes it 5 ft
                                         (also "push <target> back", "<name> shoves ...")
    poison <target> | knock <target> prone
                                         GM: gives a condition (also blind, charm, deafen,
                                         frighten, paralyze, petrify, restrain, stun); one
                                         a creature is immune to is refused in those words;
                                         "knock <target> down" is prone too, and "knock
                                         <target> unconscious|out", "knock out <target>",
                                         "<target> falls unconscious", "<target> is knocked
                                         out", "<target> falls asleep|passes out|faints"
                                         make it unconscious (and, by the rules, prone); a
                                         subject that is no creature here ("the sun wakes
                                         up") is answered with those present
    cure <target> of <condition>         GM: lifts a condition (also "unpoison <target>",
                                         "remove <condition> from <target>", "<target> is no
                                         longer <condition>"; "poison", "fear", "being
                                         stunned" name one too); "wake [up] <target>",
                                         "<target> wakes [up]" lift unconscious (the
                                         rules refuse it at 0 HP; prone stays until it
                                         stands up); a player is told only the GM can
    end turn                             end the current combat turn (also "pass", "next
                                         turn", "I'm ending my turn"; in combat "next" too,
                                         the GM's for a monster only); also
                                         "end <name>'s turn", refused once it is no longer
                                         theirs (the GM is offered it, beside "describe",
                                         on a player's turn)
    start combat [with goblin, 2 orcs]   GM ("begin" too, "encounter" or "fight" for
                                         "combat", "against" for "with"; "seven orcs" in
                                         words too): sets
                                         the phase to play if needed,
                                         spawns the named monsters (reusing living ones
                                         already present, which it names; "a new goblin" is
                                         always spawned,
                                         named past the living only: "Goblin" once the
                                         goblins of earlier fights are dead)
                                         and starts combat with every living party character
                                         and those monsters (all living monsters if none named;
                                         with none, it asks for a foe and writes nothing)
    end combat                           GM: end combat and return to play ("stop"/"finish"
                                         too; "end the fight|encounter")
    set phase <lobby|play>               GM (also "change the phase to play", "switch to
                                         the lobby")
    describe | look [at <target>]        narration only, from read tools; also "what's
                                         happening?", "look around [the room]", "check on
                                         <target>"
    whose turn is it? | what round?      the current turn and round (to you; "who's up?")
    who's next?                          whose turn follows the current one (to you)
    who's winning?                       the fight summed up: each side's statuses, the
                                         foes still standing, which side has the upper hand
                                         (to you; also "how's the fight going?")
    is <target> dead|alive|hurt|dying|stable|<condition>?
                                         yes or no, from its status and conditions (to you;
                                         "are the goblins dead?" says how each fares; "am I
                                         poisoned?": your character)
    how hurt is <target>? | who's here?  a look at it, a look around (also "how's <target>
                                         [doing]?"); "what's <target>'s hp?" ("how many hp
                                         does <target> have?"): a character's hit points
                                         (to you), a monster's to the GM alone (a player is
                                         told its status); also "goblin 2 hp"
    how many <creatures> are there?      the living ones of that plural, named ("how many
                                         enemies are left?": every monster); to you
    where am I?                          in combat, your square and the nearest foe (to you);
                                         "where is <target>?" ("how far away is <target>?"):
                                         its square and how far it is from yours
    what can I do?                       in combat, the current turn's options for you;
                                         outside it, a few things to try (to you)
    what's my hp | show my character     your character's line: HP, AC (a spell's bonus
                                         named), speed, attacks, conditions, the spell it
                                         concentrates on and on whom (to you; also "my
                                         character sheet", "look at me", "how am I
                                         doing?", "how much hp do I have [left]?");
                                         "what spells do I have?", "how many spell slots
                                         do I have left?": its spells by level and slots
                                         left; "what spells does Ash have?": another's, as
                                         the rules show it to you
    <name>, <command>                    a line addressed to a creature ("Ilsa, make a dex
                                         save", "Goblin 2, attack Ilsa", "Ilsa, punch the
                                         goblin", "Ilsa, roll to hit the goblin") is that
                                         command said of it ("Ilsa makes a dex save", "Ilsa
                                         punches the goblin", "Ilsa rolls to hit the
                                         goblin")
    help [with combat|spells|moving|...] this list, to you alone (a part of the game named
                                         is no Help action); a GM's help request, sent as
                                         an action or as narration, is posted to the GMs
                                         alone (as narration only in a command's terse
                                         words, "help", "help spells", "?": "Help me!" or
                                         "What can I do?" narrated is story, posted as
                                         sent)
    "How do I …?" is answered with the form of the command it names ("how do I attack?": "To
    attack, say: attack <target> [with <weapon>]."; "how can I move?", "how far can I move?":
    a move's forms and, in combat, the movement your character has left), in either system;
    any other question with the questions above, not the whole list. A command said "again"
    ("attack the goblin again") is that command; said "twice" or "N times", it is answered one
    at a time, the command once offered (of a target nobody here is, "kick the door twice", it
    is answered as the command once is). "Use second wind", a fighter's feature the rules do
    not have, is answered with what heals instead ("heal me"; the GM: its roll and "heal <name>
    N"), not the help list. The GM's "the goblin flees" ("goblin 2 runs away", "retreats") in
    combat is answered with how a flight is moved ("goblin 2 moves to X,Y" on its turn, and its
    Disengage as narration): the rules move a creature only to a square.

narrative
    ask the oracle "<question>" [impossible|very unlikely|unlikely|even|likely|very likely|
                                 certain]  the likelihood defaults to even ("50/50" is even;
                                 "very-likely" and "(likely)" are read too, and "probably
                                 [not]", "almost certainly [not]"); the quotes may
                                 be single, or left out: "ask the oracle is it raining? likely"
                                 (odds after an unquoted question follow its "?", a comma or
                                 a dash, or are bracketed); also "oracle: <question>", and
                                 a yes-or-no question with its odds in brackets: "is the
                                 door locked? (likely)" (said without brackets, the odds may
                                 be a guess at the answer: the command is offered, not sent)
    advance clock <name> [by N]          GM; N defaults to 1 (negative empties; "by 2
                                         segments", "by two", "twice", "thrice" and
                                         "again" too); bounded by the
                                         tool's schema, like the segments below; also
                                         "advance the <name> clock [by N]", "tick [up]" for
                                         advance, and "advance <name> [by N]" for a clock of
                                         that whole name (other words after "advance" are not
                                         understood);
                                         "add N [segments] to the <name> clock" too
    reset clock <name>                   GM; no clock is deleted: the reply says how
                                         "advance <name> by -N" winds it back (also
                                         "delete|remove|clear the <name> clock")
    create clock [called] <name> with N segments
                                         GM; 2..12 segments (N in digits or words: "four");
                                         the name keeps its own marks and words ("Doom!",
                                         "The Cult Rises"), only quotes around it are dropped
                                         ("the" before "clock" is no name's); also
                                         "create clock <name> (N segments)", "create clock
                                         <name>, N segments", "create a N-segment clock
                                         [called] <name>", "create clock <name> N
                                         [segments]" (a number word needs "segments");
                                         "add", "start", "make" or "new" for "create"
    open scene <title>                   GM; ends the current scene ("start", "begin",
                                         "create" and "new" too);
                                         "open a scene at the old mill" is titled "The old
                                         mill" (a quoted title, or "At …", is kept whole);
                                         "open scene <title>: <description>": after the
                                         title's colon, what the players see (a colon in a
                                         quoted title, or with no space after it, is kept)
    end scene                            GM; ends the current scene with none after it
    open thread <title>                  GM ("start", "begin", "create", "add", "new" too;
                                         "called", "named" or "titled" before a scene's or a
                                         thread's title is not part of it)
    resolve thread <title>[: <how>]      GM; by title, title prefix or id; "close"/"finish"/
                                         "end"/"complete" too, "close the <title>
                                         thread[: <how>]", and " - <how>" for ": <how>"
    record fact <text> [gm only]         GM; "gm only" (or a GM-only action) hides the fact,
                                         the action and the reply ("add"/"note"/"new" too;
                                         also "note that <text>", "note: <text>", "fact:
                                         <text>"; "remember that …" is answered with this)
    roll <dice> [for <label>]
    set phase <lobby|play>               GM (also "change the phase to play", "switch to
                                         the lobby")
    is the <name> clock full|empty?      the clock's segments, to you (also "how full is
                                         the <name> clock?"): not a question for the oracle
    how many clocks are there?           the clocks, counted and named, to you
    who's here?                          the story's characters, to you (who else is in the
                                         scene is the GM's to say; "who's there?" is the
                                         fiction's, for the GM or the oracle)
    describe | look                      the current scene, clocks, open threads and facts
                                         you may see
                                         (a fact told to you alone is said to you alone);
                                         also "what's happening?", "show the clocks", "list
                                         facts", "what clocks are there?", "show the
                                         threads", "what threads are open?", "look around …",
                                         "describe …" (whatever is named: the scene is read)
    help                                 this list (to you alone; a GM's help request, sent
                                         as an action or as narration, is posted to the
                                         GMs alone; narrated, "Help me!" is story)
    help <oracle|clocks|scenes|threads|facts>
                                         that part's commands from your seat, to you (also
                                         "help with the clock", "how do I use the oracle")
    A roll said "twice" or "N times" is answered one at a time, the roll once offered; a
    label that says it in a clause of its own ("roll 1d6 for the bell that rings twice") or
    with a doer of its own ("roll a d20 for the door I kicked 3 times") keeps it, in either
    system.

In a GM-only action, what would change everyone's panels (combat, movement, attacks, the phase,
scenes, clocks, threads) is refused: send it as a public action. Dice, checks, the oracle and
facts stay as secret as the action.

In dnd5e, hit points healed or granted and a DC may be said in words ("heal Ilsa for five",
"dc twenty-one", "dc twenty one").

Names ("the goblin", "Ilsa", "mon-3") are resolved to entity ids through read tools
(`campaign_get`, `character_get`, `combat_status`, `story_get`); a living match is preferred,
then the lowest id. A number said aloud ("the second goblin", "goblin two", "goblin number 2")
names what its digits name ("Goblin 2"). "The other goblin" ("the other one": any monster) is
the one goblin standing, besides the one acting, once the rest fell; with several standing,
the requester is asked which. A target nobody here has, nor nearly has (a near miss is asked
about: "Did you mean"), is refused with those present when said after the words of an attack
with a weapon or a spell ("attack the orc", "roll to hit the orc", "shoot the orc", "cast …")
or after "move" ("move to the dragon"); said after a blow of the body or a step in the
fiction's words ("kick the door", "throw a punch at the bartender", "walk to the tavern",
"approach the altar", "help Bram with the rope") it may be a thing, not a creature: the line is
answered as one not understood, for the GM to rule on, as one that only points ("hit it") is.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import random
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.turns.dice import ODDS_SAID, addends_text, roll_addends, roll_dropped
from apps.turns.types import (
    AgentMessage,
    AgentOutput,
    CallTool,
    OfferedTurn,
    ToolOutcome,
    TurnContext,
)

DEFAULT_DC = 10
ABILITY_ALIASES = {
    "str": "str",
    "strength": "str",
    "dex": "dex",
    "dexterity": "dex",
    "con": "con",
    "constitution": "con",
    "int": "int",
    "intelligence": "int",
    "wis": "wis",
    "wisdom": "wis",
    "cha": "cha",
    "charisma": "cha",
}
SKILLS = frozenset(
    {
        "acrobatics", "animal_handling", "arcana", "athletics", "deception", "history",
        "insight", "intimidation", "investigation", "medicine", "nature", "perception",
        "performance", "persuasion", "religion", "sleight_of_hand", "stealth", "survival",
    }
)  # fmt: skip
LIKELIHOODS = (
    "impossible",
    "very_unlikely",
    "unlikely",
    "even",
    "likely",
    "very_likely",
    "certain",
)
UNIT_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9,
}  # fmt: skip
# A count said before what is counted ("a goblin", "two orcs", "by three"): up to six.
COUNT_WORDS = {"a": 1, "an": 1, **{word: n for word, n in UNIT_WORDS.items() if n <= 6}}
MAX_SPAWN = 12
# A full stop a template puts after a title or name that ends on its own mark ("Who did it?."),
# or after one that already has one ("vampire.."); an ellipsis keeps its three dots.
DOUBLED_STOP = re.compile(r"(?<=[?!])\.(?=\s|$)|(?<=[^.]\.)\.(?=\s|$)")
ARTICLES = re.compile(r"^(?:the|a|an|my)\s+", re.IGNORECASE)
# Whose weapon it is, said before it ("with its scimitar", "with her longsword"): only colour.
WEAPON_OWNER = re.compile(r"^(?:its|his|her|their|your)\s+", re.IGNORECASE)
# A weapon said that is the body's own ("unarmed", "my fists", "bare hands"): the Unarmed
# Strike the rules give every player character.
UNARMED = re.compile(
    r"(?:(?:my|his|her|its|their|your|bare)\s+)*(?:fists?|hands?|feet|foot|unarmed)"
    r"|unarmed\s+strikes?|(?:punch|kick|head-?butt)(?:e?s)?",
    re.IGNORECASE,
)
UNARMED_STRIKE = "Unarmed Strike"
# The blow an Unarmed Strike is told as, from the words said for it: a punch unless said.
KICKED = re.compile(r"\b(?:kick|feet|foot)", re.IGNORECASE)
HEAD_BUTTED = re.compile(r"\bhead-?butt", re.IGNORECASE)
TYPO_CUTOFF = 0.8  # difflib ratio: "atack" and "gobin" are close, "gob" or "orc" are not
ECHO_LENGTH = 60  # a name the requester typed, said back in a reply, is cut to this
# The domain tells apart two of one name by the id ("Goblin (mon-4)"); players never read ids.
ID_AFTER_NAME = re.compile(r" \((?:pc|mon)-\d+\)")


class Refusal(Exception):
    """Stops the turn with a reply to the requester; nothing further is called."""


class NotHere(Refusal):
    """A name that fits nobody here: the refusal lists those present. A handler whose words
    may be no creature at all ("push the door open") reads it as not understood."""


class NotUnderstood(Exception):
    """An intent that read the story and found its words name nothing there ("advance the
    plot" beside no clock "plot"): the text is answered as not understood."""


ARGUMENT_PATH = re.compile(r"\barguments\.([a-z_]+)")


def _refusal(reason: str) -> str:
    """A domain refusal as one sentence, worded the same every time, ending in a full stop."""
    reason = reason.strip().rstrip(";:,")
    # A schema's path ("arguments.label is longer ...") in the words a player uses.
    reason = ARGUMENT_PATH.sub(lambda m: "the " + m[1].replace("_", " "), reason)
    if not reason.endswith((".", "!", "?")):
        reason += "."
    return _("That cannot happen: %(reason)s") % {"reason": reason}


def _echo(text: str) -> str:
    """A name or phrase the requester typed, as a reply says it back: on one line, and cut
    to ECHO_LENGTH characters with "…" (a pasted page is not repeated in full)."""
    text = " ".join(text.split())
    return text if len(text) <= ECHO_LENGTH else text[: ECHO_LENGTH - 1].rstrip() + "…"


def _integer(text: str) -> int:
    """A signed digit run as an int; a run too long for any bound stays merely huge."""
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    return sign * (int(digits) if len(digits) <= 9 else 10**9)


def _count(text: str, words: Mapping[str, int] = COUNT_WORDS) -> int:
    """A count as typed: a number word ("four") or a signed digit run."""
    said = text.lower()
    return words[said] if said in words else _integer(said)


TEEN_WORDS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
TENS_WORDS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
NUMBER_WORDS = {**UNIT_WORDS, **TEEN_WORDS, **TENS_WORDS}
# An amount as typed, in digits or words under a hundred ("five", "fifteen", "twenty-one").
AMOUNT = (
    r"(?:[+-]?\d+|(?:"
    + "|".join(TENS_WORDS)
    + r")(?:[\s-](?:"
    + "|".join(UNIT_WORDS)
    + r"))?|"
    + "|".join([*TEEN_WORDS, *UNIT_WORDS])
    + r")"
)


def _amount(text: str) -> int:
    """An amount matched by AMOUNT as an int: "fifteen" is 15, "twenty-one" 21, "-3" -3."""
    words = text.lower().replace("-", " ").split()
    if words and words[0] in NUMBER_WORDS:
        return sum(NUMBER_WORDS[w] for w in words)
    return _integer(text)


def _seed(job_id: str) -> int:
    return int.from_bytes(hashlib.sha256(job_id.encode()).digest()[:8], "big")


def _clean_name(text: str) -> str:
    return ARTICLES.sub("", text.strip().strip("\"'“”.!").strip()).strip()


def _given_name(text: str) -> str:
    """A name given mid-sentence ("create clock Doom! with …"): no sentence stop can follow it
    there, so its own marks ("Doom!", "Who knows?") and words ("The Cult Rises") are kept; only
    the quotes around it go."""
    return text.strip().strip("\"'“”").strip()


def _id_key(entity_id: str) -> tuple[str, int, str]:
    # mon-10 sorts after mon-9.
    prefix, _sep, number = entity_id.rpartition("-")
    return (prefix, int(number), entity_id) if number.isdigit() else (entity_id, 0, entity_id)


@dataclass
class Entity:
    id: str
    name: str
    kind: str
    status: str
    monster_key: str | None = None
    conditions: tuple[str, ...] = ()
    position: tuple[int, int] | None = None  # its square on the combat grid, in combat
    # What is left of its turn in combat (action, movement, "death_save_made"), when read.
    budget: Mapping[str, int] = dataclasses.field(default_factory=dict)

    @property
    def death_save_due(self) -> bool:
        """Dying on its turn with this turn's death save still to make, as the rules' budget
        says: owed to a turn that started dying (one that drops during its own turn saves as
        its next starts; a stable one makes none). Until it is made the rules will not end the
        turn. A budget not read is taken to owe it."""
        return (
            self.status == "down"
            and "stable" not in self.conditions
            and bool(self.budget.get("death_save_due") if self.budget else 1)
            and not self.budget.get("death_save_made")
        )

    @property
    def alive(self) -> bool:
        return self.status != "dead"


class Session:
    """One turn: the context, the seeded phrasing and every tool call made."""

    def __init__(self, turn: TurnContext, call_tool: CallTool) -> None:
        self.turn = turn
        self.call_tool = call_tool
        self.rng = random.Random(_seed(turn.job_id))  # noqa: S311 - phrasing, not security
        self.calls = 0
        self.messages: list[AgentMessage] = []
        self.suggestions: list[str] = []
        # A character's options for its player, who is not the requester (their turn came).
        self.suggestions_for: dict[str, list[str]] = {}
        # A monster's options for the GM, who is not the requester (its turn came).
        self.gm_suggestions: list[str] = []
        # The turn the suggestions are for, where a write's result said it (whose turn, which
        # round): publication names them with it, not with a later turn of the room.
        self.offered_turn: OfferedTurn | None = None
        # The combat as this turn last read it: the turn options made from it are for. Stale
        # once a write succeeded after it.
        self.combat_read: Mapping[str, Any] | None = None
        self.combat_read_stale = False
        # Set once the options of a turn (a new one or the current one) were offered.
        self.turn_offered = False
        # The intent's match on the normalized text, so a typo can be answered as a command.
        self.match: re.Match[str] | None = None
        # The intent's target was said in the fiction's words, as its parse marked it (a blow
        # of the body, a step: "kick the door", "walk to the tavern"): it may be a thing.
        self.said_in_fiction = False
        self._plaining = False  # reading the roster to word a domain text: no second read
        # The roster an addressed line ("Ilsa, make a dex save") read to find whom it names:
        # the first roster read of the line said of them, not read twice.
        self.roster_kept: list[Entity] | None = None
        # Who acts on the creature named, never "the other" one of its own kind.
        self.actor: str | None = None

    # -- tools -----------------------------------------------------------------------------------

    def offered(self, tool: str) -> bool:
        return tool in self.turn.tool_names

    def require(
        self, tool: str, *, what: str, gm_only: bool = False, seen_by_all: bool = False
    ) -> None:
        """Refuse, in player words, a tool this turn may not call. `seen_by_all`: its effect
        shows in everyone's panels, so a GM-only action cannot keep it secret."""
        narration = self.turn.task == "narration"
        if self.offered(tool):
            if seen_by_all and self.turn.trigger_audience == "gm":
                raise Refusal(
                    (
                        _("Everyone sees it when you %(what)s: send it as narration to everyone.")
                        if narration
                        else _("Everyone sees it when you %(what)s: send it as a public action.")
                    )
                    % {"what": what}
                )
            return
        if gm_only and not self.turn.is_gm:
            raise Refusal(_("Only the GM can %(what)s.") % {"what": what})
        if narration and tool in self._action_tools():
            raise Refusal(
                _("A GM's narration cannot %(what)s: send it as an Action.") % {"what": what}
            )
        refusal = _("You cannot %(what)s in the %(phase)s phase.") % {
            "what": what,
            "phase": self.turn.phase,
        }
        if self.turn.phase == "lobby":
            # The way forward, which otherwise only the help list tells.
            refusal += " " + (
                _("Say “set phase play” to start playing.")
                if self.turn.is_gm
                else _("Play starts when the GM says so.")
            )
        raise Refusal(refusal)

    def _action_tools(self) -> tuple[str, ...]:
        """The tools the requester's action would be given in this phase (the facade table's
        row), to tell a narration that asks for one of them where to send it instead."""
        from apps.domains.registry import FacadeDenied, get_plugin

        try:
            return get_plugin(self.turn.system_id).facade_tools(
                phase=self.turn.phase, role=self.turn.role, task="action"
            )
        except FacadeDenied:
            return ()

    def parameter(self, tool: str, parameter: str) -> dict[str, Any] | None:
        """A parameter's published schema, or None when the server's tool does not take it."""
        info = next((t for t in self.turn.tools if t.name == tool), None)
        return (info.input_schema.get("properties") or {}).get(parameter) if info else None

    def bounds(self, tool: str, parameter: str, default: tuple[int, int]) -> tuple[int, int]:
        """An integer parameter's published minimum and maximum, so the obvious bounds are
        answered in player words before a call (the server still enforces them)."""
        schema = self.parameter(tool, parameter) or {}
        return schema.get("minimum", default[0]), schema.get("maximum", default[1])

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        outcome = self.try_call(tool, **arguments)
        if not outcome.ok:
            raise Refusal(_refusal(outcome.error_message))
        return outcome.structured

    def try_call(self, tool: str, **arguments: Any) -> ToolOutcome:
        self.calls += 1
        outcome = self.call_tool(tool, arguments)
        info = next((t for t in self.turn.tools if t.name == tool), None)
        if outcome.ok and info is not None and info.write:
            self.combat_read_stale = True
        if not outcome.ok and outcome.error_message and ID_AFTER_NAME.search(outcome.error_message):
            outcome = dataclasses.replace(outcome, error_message=self.plain(outcome.error_message))
        return outcome

    def plain(self, text: str) -> str:
        """Domain text in the table's words: a name the domain tells apart by its id ("Goblin
        (mon-4)") is the name players read (`_display_names`: the name, numbered only where
        two living creatures share it); no id is ever left in it."""
        if not ID_AFTER_NAME.search(text):
            return text
        if not self._plaining and (self.offered("campaign_get") or self.offered("combat_status")):
            self._plaining = True
            try:
                roster = dnd_roster(self)
            except Refusal:
                roster = []
            finally:
                self._plaining = False
            for e, shown in zip(roster, _display_names(roster), strict=True):
                text = text.replace(f"{e.name} ({e.id})", shown)
        return ID_AFTER_NAME.sub("", text)

    # -- output ----------------------------------------------------------------------------------

    def pick(self, *phrasings: str) -> str:
        return self.rng.choice(phrasings)

    def say(self, text: str, audience: str = "trigger") -> None:
        self.messages.append(AgentMessage(text=DOUBLED_STOP.sub("", text), audience=audience))

    def output(self, *, declined: bool = False, help_only: bool = False) -> AgentOutput:
        return AgentOutput(
            messages=tuple(self.messages[:4]),
            suggestions=tuple(self.suggestions[:4]),
            suggestions_for={c: tuple(items[:4]) for c, items in self.suggestions_for.items()},
            gm_suggestions=tuple(self.gm_suggestions[:4]),
            turn=self.offered_turn,
            tool_calls=self.calls,
            declined=declined or help_only,
            help_only=help_only,
        )


# -- shared intents ---------------------------------------------------------------------------


def roll_dice(s: Session, m: re.Match[str]) -> None:
    s.require("dice_roll", what=_("roll dice"))
    expression = m["expr"].replace(" ", "")
    said = expression
    if m["keep"]:
        kept = _kept_expression(expression, m["keep"])
        if kept is None:
            s.say(
                _("Dropping or keeping dice needs several of one kind, as in: %(example)s.")
                % {"example": _("roll 4d6 drop lowest")},
                audience="requester",
            )
            return
        expression = kept
    arguments: dict[str, Any] = {"expression": expression}
    if m["label"]:
        arguments["label"] = m["label"].strip()
    result = s.call("dice_roll", **arguments)
    label = f" ({result['label']})" if result.get("label") else ""
    breakdown = _breakdown(result)
    if m["keep"]:
        # Said as the table asked for it, not in the rules' notation (4d6kh3), with the dice
        # left out shown too: otherwise the roll looks short of a die.
        dropped = _("dropped %(dice)s") % {
            "dice": _and_list([str(d) for d in roll_dropped(result)])
        }
        s.say(
            _("%(expression)s%(keep)s%(label)s: %(total)s (%(breakdown)s).")
            % {
                "expression": said,
                "keep": _keep_words(expression, m["keep"]),
                "label": label,
                "total": result["total"],
                "breakdown": f"{breakdown}, {dropped}" if breakdown else dropped,
            }
        )
        return
    s.say(
        s.pick(
            _("The dice tumble%(label)s: %(expression)s = %(total)s%(breakdown)s."),
            _("%(expression)s%(label)s is rolled: %(total)s%(breakdown)s."),
            _("%(expression)s%(label)s comes up %(total)s%(breakdown)s."),
        )
        % {
            "label": label,
            "breakdown": f" ({breakdown})" if breakdown else "",
            "expression": result["expression"],
            "total": result["total"],
        }
    )


def roll_each(s: Session, m: re.Match[str]) -> None:
    """ "roll a d20 and a d6": one roll per die named, each result said, in one line."""
    s.require("dice_roll", what=_("roll dice"))
    label = (m["label"] or "").strip()
    said: list[str] = []
    result: Mapping[str, Any] = {}
    for part in DIE_SEPARATOR.split(m["dice"].strip()):
        term = DIE_TERM.fullmatch(part.strip())
        assert term is not None  # ROLL_EACH matched every part
        count = term["count"] or "1"
        if not count.isdigit():
            count = str(_amount(count)) if count.lower() not in ("a", "an") else "1"
        expression = count + re.sub(r"\s+", "", term["die"]).lower()
        outcome = s.try_call(
            "dice_roll", expression=expression, **({"label": label} if label else {})
        )
        if not outcome.ok:
            if not said:
                raise Refusal(_refusal(outcome.error_message))
            # The dice already rolled were rolled: said, then what this one could not be.
            break
        result = outcome.structured
        breakdown = _breakdown(result)
        said.append(
            f"{result['expression']} = {result['total']}" + (f" ({breakdown})" if breakdown else "")
        )
    shown = f" ({result['label']})" if result.get("label") else ""
    s.say(_("The dice tumble%(label)s: %(rolls)s.") % {"label": shown, "rolls": _and_list(said)})
    if not outcome.ok:
        s.say(_refusal(outcome.error_message), audience="requester")


def _kept_expression(expression: str, keep: str) -> str | None:
    """`expression` (one kind of dice and a modifier) with the dice a table drops or keeps
    ("drop lowest", "keep highest 3", "with advantage") in the rules' notation (4d6kh3,
    2d20kh1); None when there is nothing to drop or keep."""
    term = re.fullmatch(r"(\d*)d(\d+)((?:[+-]\d+)*)", expression, re.IGNORECASE)
    if term is None:
        return None
    count, sides, flat = int(term[1] or 1), term[2], term[3]
    words = keep.lower().split()
    if "advantage" in words or "disadvantage" in words:
        if count > 2:  # "2d20 with advantage" is the same two dice
            return None
        return f"2d{sides}{'kh' if 'advantage' in words else 'kl'}1{flat}"
    highest = "highest" in words
    if words[0] in ("drop", "dropping") or words[:2] == ["and", "drop"]:
        # Dropping the lowest keeps the highest of the rest, and the other way round.
        kept, mark = count - 1, "kl" if highest else "kh"
    else:
        number = next((int(w) for w in words if w.isdigit()), 1)
        kept, mark = number, "kh" if highest else "kl"
    if count < 2 or not 1 <= kept < count:
        return None
    return f"{count}d{sides}{mark}{kept}{flat}"


def _keep_words(kept: str, asked: str) -> str:
    """How the table says a keep (`asked`, written in the rules' notation as `kept` by
    `_kept_expression`) after the dice: " with advantage", ", drop lowest" for 4d6kh3,
    ", keep highest 2" for 4d6kh2."""
    words = asked.lower().split()
    if "advantage" in words:
        return _(" with advantage")
    if "disadvantage" in words:
        return _(" with disadvantage")
    term = re.fullmatch(r"(\d+)d\d+(k[hl])(\d+).*", kept, re.IGNORECASE)
    assert term is not None  # `_kept_expression` wrote it
    count, mark, number = int(term[1]), term[2].lower(), int(term[3])
    if number == count - 1:
        return _(", drop lowest") if mark == "kh" else _(", drop highest")
    if mark == "kh":
        return _(", keep highest %(n)s") % {"n": number}
    return _(", keep lowest %(n)s") % {"n": number}


def _and_list(items: list[str]) -> str:
    """ "2", "2 and 1", "2, 1 and 3"."""
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def _breakdown(result: Mapping[str, Any]) -> str:
    """The kept dice and the modifier as a sum ("4 + 2 + 3"), or "" when a single die is all
    there is. Dropped dice (keep highest/lowest) are left out, as they do not count."""
    return addends_text(roll_addends(result))


# -- dnd5e ------------------------------------------------------------------------------------


def _status(view: Mapping[str, Any]) -> str:
    """The server's status word; a GM's full view carries HP instead, so derive it the same way."""
    if view.get("status"):
        return view["status"]
    hp = view.get("hp") or {}
    if "dead" in view.get("conditions", []):
        return "dead"
    if not hp:
        return "unknown"
    if hp["current"] == 0:
        return "down"
    if hp["current"] * 2 <= hp["max"]:
        return "bloodied"
    return "wounded" if hp["current"] < hp["max"] else "unhurt"


def _entity(view: Mapping[str, Any], position: Any = None) -> Entity:
    return Entity(
        id=view["id"],
        name=view["name"],
        kind=view["kind"],
        status=_status(view),
        monster_key=view.get("monster_key"),
        conditions=tuple(view.get("conditions") or ()),
        position=(int(position[0]), int(position[1])) if position else None,
    )


def _combatant(entry: Mapping[str, Any]) -> Entity:
    """One entry of a combat's order, with its square on the grid and its turn's budget."""
    return dataclasses.replace(
        _entity(entry["character"], entry.get("position")), budget=entry.get("budget") or {}
    )


def _squares(a: Entity, b: Entity) -> int | None:
    """Squares between two combatants as the grid counts them (a diagonal is one square, as
    the rules' 5 ft per square, diagonals too); None off the grid."""
    if a.position is None or b.position is None:
        return None
    return max(abs(a.position[0] - b.position[0]), abs(a.position[1] - b.position[1]))


def _nearest_first(who: Entity, others: list[Entity]) -> list[Entity]:
    """`others` nearest to `who` first; ties, and any off the grid, keep their order."""
    far = 10**9
    return sorted(others, key=lambda e: d if (d := _squares(who, e)) is not None else far)


def dnd_roster(s: Session) -> list[Entity]:
    """Every character and monster the requester may see, from the cheapest read available."""
    if s.roster_kept is not None:
        roster, s.roster_kept = s.roster_kept, None
        return roster
    if s.turn.phase == "combat" and s.offered("combat_status"):
        combat = _read_combat(s)
        return [_combatant(entry) for entry in combat["order"]]
    campaign = s.call("campaign_get")["campaign"]
    ids = sorted(campaign["character_ids"] + campaign["monster_ids"], key=_id_key)
    return [_entity(s.call("character_get", character_id=i)["character"]) for i in ids]


def _named(roster: list[Entity], name: str, *, prefix: bool = True) -> Entity | None:
    """Who `name` names in `roster`, as the table reads names, or None; without `prefix`,
    only a whole name (not "Gob" for "Goblin")."""
    # Emoji and symbols are dropped on both sides: "🐉 Drake" is "Drake" as typed or named.
    typed = _clean_name(_normalize(name)).lower()
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    # As typed, then with its number in digits ("the second goblin", "goblin two": "goblin 2").
    for wanted in dict.fromkeys((typed, _numbered(typed))):
        if (found := _named_as(roster, shown, wanted, prefix=prefix)) is not None:
            return found
    return None


def _named_as(
    roster: list[Entity], shown: Mapping[str, str], wanted: str, *, prefix: bool
) -> Entity | None:
    """Who `wanted` (cleaned, in lowercase) names in `roster`, whose names as the table reads
    them are `shown`; see `_named`."""
    tests = (
        lambda e: e.id.lower() == wanted,
        # As written or as the table reads it ("Goblin 2" for the second living "Goblin").
        lambda e: wanted in (_normalize(e.name).lower(), _normalize(shown[e.id]).lower()),
        # Typed without its spaces ("goblin2"): the same name, as in another case.
        lambda e: (
            " " not in wanted
            and wanted in (_normalize(n).lower().replace(" ", "") for n in (e.name, shown[e.id]))
        ),
        # The first of "Goblin" and "Goblin 2", as said aloud ("goblin 1").
        lambda e: e.alive and f"{_normalize(shown[e.id]).lower()} 1" == wanted,
        lambda e: (e.monster_key or "").replace("_", " ") == wanted.replace("_", " "),
        lambda e: prefix and _normalize(e.name).lower().startswith(wanted),
    )
    fallen = None
    for n, test in enumerate(tests):
        matches = [e for e in roster if test(e)]
        if not matches:
            continue
        # A living match first, then the lowest id: "the goblin" is the first one standing.
        found = min(matches, key=lambda e: (not e.alive, _id_key(e.id)))
        if found.alive or n == 0:  # an id names its creature, fallen or not
            return found
        if n == len(tests) - 1:  # a name's beginning never beats a fallen creature's name
            return fallen or found
        # A fallen creature's name ("the goblin" once Goblin fell) gives way to a living one
        # of its kind ("Goblin 2").
        fallen = fallen or found
    return fallen


ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
NUMBERED = re.compile(r"(?P<name>.+?)\s+(?:number\s+|no\.\s*|#\s*)?(?P<n>[a-z]+|\d+)")


def _numbered(name: str) -> str:
    """A creature's name said with its number as the table says it aloud, in the digits the
    names are written with: "second goblin", "2nd goblin", "goblin two", "goblin number 2",
    "goblin #2" are "goblin 2"; any other name as it is."""
    first, _sep, rest = name.partition(" ")
    ordinal = ORDINALS.get(first) or (
        int(first[:-2]) if re.fullmatch(r"\d+(?:st|nd|rd|th)", first) else None
    )
    if ordinal and rest:
        return f"{rest} {ordinal}"
    said = NUMBERED.fullmatch(name)
    if said is None:
        return name
    number = said["n"] if said["n"].isdigit() else str(NUMBER_WORDS.get(said["n"], ""))
    return f"{said['name']} {number}" if number else name


def resolve(s: Session, roster: list[Entity], name: str) -> Entity:
    found = _named(roster, name)
    if found is not None:
        return found
    wanted = _clean_name(_normalize(name)).lower()
    if other := OTHER.fullmatch(wanted):
        return _the_other(s, roster, name, other["kind"])
    # A typo with one close name is answered as the corrected command, never acted on.
    if (close := _close_name(roster, wanted)) and (command := _with_target(s, name, close)):
        s.suggestions.append(command)
        raise Refusal(
            _("I cannot find “%(name)s” here. Did you mean: %(command)s?")
            % {"name": _echo(name), "command": command}
        )
    raise _not_here(s, roster, name)


# Words that point at what the table was just told of ("hit it"), which names nobody.
POINTING_WORDS = frozenset({"it", "him", "her", "them", "this", "that"})


def _resolve_said(s: Session, roster: list[Entity], name: str) -> Entity:
    """`resolve` for a name said after the words of a command ("attack the orc", "move to the
    dragon"): one nobody here has is refused with those present. Said in the fiction's words
    instead (`Session.said_in_fiction`: "kick the door", "walk to the tavern"), one nobody here
    has, nor nearly has, may be a thing, not a creature, so the line is not understood (the GM
    rules on it); so is one that only points ("hit it"), which names nobody."""
    try:
        return resolve(s, roster, name)
    except NotHere:
        if s.said_in_fiction or _clean_name(_normalize(name)).lower() in POINTING_WORDS:
            raise NotUnderstood from None
        raise


# "the other goblin", "the other one": one of a kind besides the one already dealt with.
OTHER = re.compile(r"other\s+(?P<kind>.+)")


def _the_other(s: Session, roster: list[Entity], name: str, kind: str) -> Entity:
    """Who "the other <kind>" names: no turn remembers whom the requester dealt with last, so
    it is the one of that kind standing, besides the one who acts, when the rest fell; with
    several standing, the requester is asked which (each as the command to send)."""
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    if kind in ANY_FOE:
        # "the other one", "the other enemy": any monster here.
        kin = [e for e in roster if e.kind == "monster"]
    else:
        kin = [
            e
            for e in roster
            if kind
            in (
                re.sub(r" \d+$", "", _normalize(e.name).lower()),
                (e.monster_key or "").replace("_", " "),
            )
        ]
    # Monsters fallen in earlier fights are not here, as `_present` says.
    present = set(_present(s, roster))
    kin = [e for e in kin if shown[e.id] in present]
    if not kin:
        raise _not_here(s, roster, name)
    if len(kin) == 1:
        raise Refusal(
            _("There is no other %(kind)s here: only %(name)s.")
            % {"kind": _echo(kind), "name": shown[kin[0].id]}
        )
    others = [e for e in kin if e.id != s.actor]
    standing = [e for e in others if e.alive and e.status != "down"]
    if len(standing) == 1:
        return standing[0]
    asked = sorted(standing or others, key=lambda e: _id_key(e.id))  # as "the goblin" counts
    match = s.match
    if match is not None and "target" in match.re.groupindex and match["target"] == name:
        start, end = match.span("target")
        s.suggestions += [
            match.string[:start] + _spoken_as(e, shown[e.id]) + match.string[end:] for e in asked
        ]
    if s.turn.phase == "combat":
        _state_read_turn(s)
    raise Refusal(
        _("Which is the other %(kind)s: %(names)s?")
        % {"kind": _echo(kind), "names": _or_list([shown[e.id] for e in asked])}
    )


def _spoken_as(entity: Entity, shown: str) -> str:
    """A creature's name as the table reads it (`shown`), said as `_spoken` says names."""
    return shown.lower() if entity.kind == "monster" else shown


def _not_here(s: Session, roster: list[Entity], name: str) -> NotHere:
    """The refusal of a name that fits nobody here, listing those present."""
    known = ", ".join(_present(s, roster)) or _("nobody")
    if _clean_name(_normalize(name)).lower() in YOU_WORDS:
        # "attack you" names the GM the line is said to, not a mistyped name.
        return NotHere(
            _("I have no creature of my own here: name one who is. Present: %(known)s.")
            % {"known": known}
        )
    return NotHere(
        _("I cannot find “%(name)s” here. Present: %(known)s.")
        % {"name": _echo(name), "known": known}
    )


def _present(s: Session, roster: list[Entity]) -> list[str]:
    """The ones here as the table reads them; monsters fallen in earlier fights are not here."""
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    return [
        shown[e.id] for e in roster if s.turn.phase == "combat" or e.alive or e.kind != "monster"
    ]


def _display_names(roster: list[Entity]) -> list[str]:
    """Each creature's name as players read it, in roster order: its own name; where living
    creatures share one, the first of them (the one "the goblin" finds) keeps it and the
    others are numbered past the names in use ("Goblin 2"), as the domain numbers a kind. A
    fallen namesake tells nobody apart. Never an id."""
    living = sorted((e for e in roster if e.alive), key=lambda e: _id_key(e.id))
    taken = _names_in_use(roster)
    seen: set[str] = set()
    numbered: dict[str, str] = {}
    for e in living:
        if e.name.casefold() in seen:
            numbered[e.id] = _free_name(e.name, taken)
            taken.add(numbered[e.id].casefold())
        seen.add(e.name.casefold())
    return [numbered.get(e.id, e.name) for e in roster]


def _names_in_use(roster: list[Entity]) -> set[str]:
    """The names a creature's new or told-apart name may not take, casefolded: those of the
    living and of every character (a fallen monster's name is free again). A name is taken in
    any case, as the rules number one ("goblin" beside a living "Goblin" is "goblin 2")."""
    return {e.name.casefold() for e in roster if e.alive or e.kind != "monster"}


def _free_name(base: str, taken: set[str]) -> str:
    """`base`, else the first of "base 2", "base 3", ... whose casefold is not in `taken`."""
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base} {n}"
    return name


def _close_name(roster: list[Entity], wanted: str) -> str | None:
    """The one name (as a table would say it) close to a misspelt `wanted`, or None."""
    spoken: dict[str, str] = {}
    for e in roster:
        spoken.setdefault(_normalize(e.name).lower(), _spoken(e))
        if e.monster_key:
            spoken.setdefault(e.monster_key.replace("_", " "), e.monster_key.replace("_", " "))
    close = difflib.get_close_matches(wanted, list(spoken), n=2, cutoff=TYPO_CUTOFF)
    return spoken[close[0]] if len(close) == 1 else None


def _spoken(entity: Entity) -> str:
    """A monster's name as said at the table ("goblin 2"); a character's as written."""
    return entity.name.lower() if entity.kind == "monster" else entity.name


def _with_target(s: Session, name: str, corrected: str) -> str | None:
    """The requester's command with `name` (the matched target) replaced by `corrected`."""
    match = s.match
    if match is None or "target" not in match.re.groupindex or match["target"] != name:
        return None
    article = ARTICLES.match(name.strip())
    start, end = match.span("target")
    text = match.string
    return text[:start] + (article[0] if article else "") + corrected + text[end:]


def _current_combatant(s: Session) -> str | None:
    if s.turn.phase != "combat" or not s.offered("combat_status"):
        return None
    return _read_combat(s)["current"]


def _read_combat(s: Session) -> Mapping[str, Any]:
    """The combat's status, kept as the turn's latest read of it: read again only once a write
    succeeded after it (each read is a round trip to the domain server, paid by the player)."""
    if s.combat_read is not None and not s.combat_read_stale:
        return s.combat_read
    s.combat_read = s.call("combat_status")["combat"]
    s.combat_read_stale = False
    return s.combat_read


def _state_read_turn(s: Session, combatant: str | None = None) -> None:
    """State, for the options offered, the turn the combat read showed (or `combatant`'s in
    its round, where the domain allowed the action only on the actor's own turn); none is
    stated without a read that says the round."""
    combat = s.combat_read
    if combat is not None and combat.get("round") is not None:
        current = combatant or combat.get("current")
        if current:
            s.offered_turn = OfferedTurn("combat", combat["round"], current)


def _own_entity(s: Session, roster: list[Entity], *, what: str) -> Entity:
    """The acting player's character as an entity: from the roster when it is in it (in combat
    the roster is the fight), else read on its own."""
    own = acting_character(s, what=what)
    return next((e for e in roster if e.id == own), None) or _entity(
        s.call("character_get", character_id=own)["character"]
    )


def acting_character(s: Session, *, what: str) -> str:
    """The requester's bound character; a GM without one acts as the current monster (a
    player's character acts for its player: the GM names it to act for them)."""
    if s.turn.character_id:
        return s.turn.character_id
    if s.turn.is_gm:
        current = _current_combatant(s)
        up = next((e for e in dnd_roster(s) if e.id == current), None) if current else None
        if up is not None and up.kind != "monster":
            raise Refusal(
                _(
                    "It is %(who)s's turn: their player acts. To act for them, name them "
                    "(“%(who)s attacks the goblin”)."
                )
                % {"who": up.name}
            )
        if current:
            return current
        raise Refusal(
            _(
                "As the GM you have no character to %(what)s with; in combat you act as "
                "whoever's turn it is. To roll for someone else, use “roll 1d20+3”."
            )
            % {"what": what}
        )
    raise Refusal(
        _("You need a character to %(what)s; create one or ask the GM to bind you to one.")
        % {"what": what}
    )


def _name_of(roster: list[Entity], entity_id: str) -> str:
    shown = _display_names(roster)
    return next((n for e, n in zip(roster, shown, strict=True) if e.id == entity_id), entity_id)


def dnd_attack(s: Session, m: re.Match[str]) -> None:
    # Said of several, the subject read first decides whether it is an attack at all.
    plural = _plural_attacker(s, m) if m.groupdict().get("attackers") else None
    s.require("attack", what=_("attack"), seen_by_all=True)
    # "goblin 2 attacks Ilsa as a reaction": the opportunity attack a move just provoked.
    reaction = bool(m.groupdict().get("reaction") or m.groupdict().get("opportunity"))
    if reaction and s.parameter("attack", "as_reaction") is None:
        raise Refusal(
            _("These rules take no reactions: call it as a plain attack on the attacker's turn.")
        )
    if plural is not None:
        roster, attacker_id = plural
    elif m.groupdict().get("attacker"):
        roster = dnd_roster(s)
        attacker_id = _named_attacker(s, roster, m["attacker"])
    else:
        attacker_id = acting_character(s, what=_("attack"))
        roster = dnd_roster(s)
    down = next((e for e in roster if e.id == attacker_id and e.status == "down"), None)
    if down is not None:
        # What a dying character does on its turn, instead of the rules' list of conditions;
        # a stable one makes no death save (the rules refuse it): its turn is over.
        who = _name_of(roster, attacker_id)
        if s.turn.phase == "combat":
            _state_read_turn(s)
        if "stable" in down.conditions:
            if s.turn.phase == "combat":
                s.suggestions.append(_("end turn"))
            raise Refusal(
                _("%(who)s is down at 0 hit points, stable, and cannot attack.") % {"who": who}
            )
        if s.turn.phase == "combat":
            s.suggestions.append(
                _("death save for %(who)s") % {"who": who} if s.turn.is_gm else _("death save")
            )
        raise Refusal(
            _("%(who)s is down at 0 hit points and cannot attack: make a death save instead.")
            % {"who": who}
        )
    named = m.groupdict().get("target")
    nearest = NEAREST_FOE.fullmatch(_normalize(named)) if named else None
    if named and nearest is None:
        s.actor = attacker_id  # "goblin 2 attacks the other goblin": not itself
        target = _resolve_said(s, roster, named)
    else:
        target = _plain_target(s, roster, attacker_id, asked=nearest)
    arguments: dict[str, Any] = {"attacker_id": attacker_id, "target_id": target.id}
    weapon = WEAPON_OWNER.sub("", _clean_name(m["weapon"])) if m["weapon"] else ""
    if weapon:
        arguments["attack_name"] = UNARMED_STRIKE if UNARMED.fullmatch(weapon) else weapon
    asked = (m["mode"] or "").lower()
    if asked:
        # The attack tool takes the flag from any player; the rules still cancel it against
        # what the situation gives.
        arguments[asked] = True
    if reaction:
        arguments["as_reaction"] = True
    result = s.call("attack", **arguments)
    names = {
        "attacker": _name_of(roster, attacker_id),
        "target": _name_of(roster, target.id),
        "weapon": result["attack"],
        "roll": result["to_hit"]["total"],
        "natural": result["to_hit"]["natural"],
    }
    # Distance on the grid (a long shot, a foe at arm's length) costs the better die; the
    # to-hit's reasons, when given, name it among the conditions (a prone attacker).
    why = _mode_text(
        s, result["to_hit"], asked, worse=(result.get("range") or {}).get("disadvantage") or []
    )
    attacker_kind = next((e.kind for e in roster if e.id == attacker_id), "")
    blessed = _bless_text(result["to_hit"], attacker_kind)
    # A reaction comes on another's turn: the table is told whose and why before the blow.
    lead = _reaction_lead(s, result, names) if reaction else ""
    if s.turn.phase == "combat" and not reaction:
        # In combat an attack is made only on the attacker's turn, hit or miss (a reaction
        # comes on another's turn, which goes on: its options are offered again).
        s.suggestions.append(_("end turn"))
        _state_read_turn(s, attacker_id)
    # An Unarmed Strike is a blow of the body, told as the one said ("kick the goblin").
    unarmed = result["attack"] == UNARMED_STRIKE
    if unarmed:
        names["blow"] = (
            _("kick")
            if KICKED.search(weapon)
            else _("head-butt")
            if HEAD_BUTTED.search(weapon)
            else _("punch")
        )
    if not result["hit"]:
        misses = (
            (
                _("%(attacker)s throws a %(blow)s at %(target)s but misses (%(roll)s to hit)."),
                _("%(target)s evades %(attacker)s's %(blow)s (rolled %(roll)s)."),
                _("%(attacker)s's %(blow)s finds only air; %(roll)s is not enough."),
            )
            if unarmed
            else (
                _("%(attacker)s swings %(weapon)s at %(target)s but misses (%(roll)s to hit)."),
                _("%(target)s evades %(attacker)s's %(weapon)s (rolled %(roll)s)."),
                _("%(attacker)s's %(weapon)s finds only air; %(roll)s is not enough."),
            )
        )
        s.say(lead + s.pick(*misses) % names + why + blessed)
        return
    damage = result["damage"]
    effect = damage["effect"]
    names.update(amount=damage["total"], type=damage["damage_type"])
    if result["critical"]:
        opener = _("Critical hit! ")
    elif unarmed:
        opener = s.pick(_("A solid hit. "), _("A clean blow. "), _("It lands. "))
    else:
        opener = s.pick(_("A solid hit. "), _("Steel meets flesh. "), _("It lands. "))
    hits = (
        (
            _("%(attacker)s lands a %(blow)s on %(target)s for %(amount)s %(type)s damage."),
            _(
                "%(attacker)s's %(blow)s connects with %(target)s (%(roll)s to hit): %(amount)s "
                "%(type)s."
            ),
            _("%(target)s takes %(amount)s %(type)s damage from %(attacker)s's %(blow)s."),
        )
        if unarmed
        else (
            _("%(attacker)s strikes %(target)s with %(weapon)s for %(amount)s %(type)s damage."),
            _("%(attacker)s's %(weapon)s hits %(target)s (%(roll)s to hit): %(amount)s %(type)s."),
            _("%(target)s takes %(amount)s %(type)s damage from %(attacker)s's %(weapon)s."),
        )
    )
    text = lead + opener + s.pick(*hits) % names + why + blessed
    if state := _struck_text(s, names["target"], target.kind, effect):
        text += " " + state
    if result.get("on_hit"):
        text += " " + _rider_text(s, names["target"], result["on_hit"], kind=target.kind)
    s.say(text)
    if target.kind == "monster" and (gm_text := _monster_hp_text(names["target"], effect)):
        s.say(gm_text, audience="gm")
    _if_the_last_foe_fell(s, roster, target, effect)


def _if_the_last_foe_fell(
    s: Session, roster: list[Entity], target: Entity, effect: Mapping[str, Any]
) -> None:
    """After damage (an attack's, the GM's) killed `target`: when it was the last monster
    standing in combat, the table is told the GM can end it, and the GM is offered that."""
    foes_left = [e for e in roster if e.kind == "monster" and e.alive and e.id != target.id]
    if (
        s.turn.phase == "combat"
        and effect.get("dead")
        and target.kind == "monster"
        and not foes_left
    ):
        # Combat goes on until the GM ends it: the table is told it can, the GMs offered it
        # and a look at the field, as on a player's turn with no foe left.
        s.say(_("No foe is left standing: the GM can say “end combat”."))
        s.gm_suggestions += [_("end combat"), _("describe")]


def _monster_hp_text(target: str, effect: Mapping[str, Any]) -> str:
    """A monster's hit points after damage, for the GM alone ("" when the result, read at a
    player's view, has none): the tool returns them only to a GM requester."""
    hp = effect.get("hp_after")
    if hp is None:
        return ""
    values = {"target": target, "current": hp["current"], "max": hp["max"]}
    fortitude = effect.get("undead_fortitude") or {}
    if "total" in fortitude:
        # The table is told only that it held (or not); the save is the GM's, as the HP are.
        values.update(total=fortitude["total"], dc=fortitude["dc"])
        return (
            _(
                "%(target)s: %(current)s/%(max)s HP "
                "(Undead Fortitude: CON save %(total)s against DC %(dc)s)."
            )
            % values
        )
    return _("%(target)s: %(current)s/%(max)s HP.") % values


def _reaction_lead(s: Session, result: Mapping[str, Any], names: Mapping[str, Any]) -> str:
    """The sentence that opens an attack made as a reaction: the reach the target just left,
    where the rules say the last move provoked it (an opportunity attack), or else that it is
    a reaction at all."""
    if result.get("opportunity_attack"):
        lead = s.pick(
            _(
                "As %(target)s leaves %(attacker)s's reach, %(attacker)s makes an opportunity "
                "attack."
            ),
            _("%(attacker)s seizes the opening as %(target)s pulls away, striking as a reaction."),
        )
    else:
        lead = s.pick(
            _("%(attacker)s attacks %(target)s as a reaction."),
            _("%(attacker)s uses a reaction to strike at %(target)s."),
        )
    return lead % names + " "


# "the nearest goblin", "the closest enemy": the nearest foe (of a kind), as "attack" finds it.
NEAREST_FOE = re.compile(r"(?:the\s+)?(?:nearest|closest)(?:\s+(?P<kind>.+))?", re.IGNORECASE)
# What "the nearest …" may say of any foe, no kind named.
ANY_FOE = frozenset(
    {"enemy", "foe", "one", "monster", "creature", "target", "opponent", "baddie", "bad guy"}
)


def _plain_target(
    s: Session, roster: list[Entity], attacker_id: str, *, asked: re.Match[str] | None = None
) -> Entity:
    """The foe of "<who> attacks" with no target named (or `asked` for "the nearest <kind>"):
    the nearest one standing, when no other is as near; otherwise the requester is asked
    which (each as a command to send)."""
    attacker = next((e for e in roster if e.id == attacker_id), None)
    if attacker is None:
        raise Refusal(_("Name who is attacked, like: attack the goblin."))
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    foes = _nearest_first(
        attacker,
        [e for e in roster if e.alive and e.status != "down" and e.kind != attacker.kind],
    )
    who = shown[attacker.id]
    kind = asked["kind"] if asked else None
    if kind and kind.lower() not in ANY_FOE:
        foes = [e for e in foes if _named([e], kind) is not None]
        if not foes:
            raise _not_here(s, roster, asked.string)
    if not foes:
        raise Refusal(_("%(who)s has nobody to attack here.") % {"who": who})
    nearest = [e for e in foes if _squares(attacker, e) == _squares(attacker, foes[0])]
    if len(nearest) > 1:
        names = [shown[e.id] for e in nearest]
        # Each as a command, the attacker named as the requester named them (a player's plain
        # "attack" names none).
        said = (s.match.groupdict().get("attacker") or "").strip() if s.match else _spoken(attacker)
        s.suggestions += [
            _("%(attacker)s attacks %(target)s") % {"attacker": said, "target": name}
            if said
            else _("attack %(target)s") % {"target": name}
            for name in names
        ]
        if s.turn.phase == "combat":
            _state_read_turn(s)
        raise Refusal(
            _("Which one does %(who)s attack: %(names)s?") % {"who": who, "names": _or_list(names)}
        )
    return foes[0]


def _rider_text(s: Session, target: str, rider: Mapping[str, Any], *, kind: str) -> str:
    """What a hit did besides damage (a wolf's bite: DC 11 STR save or prone): the save's total
    against its DC, which any viewer may read (a monster's modifier is never in it)."""
    values = {
        "target": target,
        "condition": rider["condition"],
        "ability": rider["ability"].upper(),
        "total": rider["total"],
        "dc": rider["dc"],
    }
    if rider.get("automatic_failure"):
        save = _failed_save_text(s, _("the %(ability)s save") % values, rider)
    else:
        save = _("%(ability)s save %(total)s against DC %(dc)s") % values
        if (added := _bless_roll(rider, kind)) is not None:
            save += ", " + _("+%(roll)s from Bless") % {"roll": added}
    values["save"] = save
    prone = rider["condition"] == "prone"
    if rider["applied"]:
        text = (
            _("%(target)s is knocked prone (%(save)s).")
            if prone
            else _("%(target)s is now %(condition)s (%(save)s).")
        )
    else:
        text = (
            _("%(target)s stays standing (%(save)s).")
            if prone
            else _("%(target)s resists being %(condition)s (%(save)s).")
        )
    return text % values


def _failed_save_text(s: Session, save: str, result: Mapping[str, Any]) -> str:
    """A save the rules failed whatever was rolled (a paralyzed creature's DEX save), said
    with their reason rather than a total that may have beaten the DC: "the STR save fails:
    Ash is paralyzed"."""
    return _("%(save)s fails: %(reason)s") % {
        "save": save,
        "reason": s.plain(result["automatic_failure"]),
    }


def _mode_text(
    s: Session, roll: Mapping[str, Any], asked: str = "", *, worse: Sequence[str] = ()
) -> str:
    """Why the d20 of `roll` (an attack's to-hit, a check, a save) was rolled twice, or was not
    though something called for it: " (Advantage: Pack Tactics: Wolf 2 is within 5 ft of
    Ash.)", " (Disadvantage: Ilsa is poisoned.)", or "" when nothing did. `asked` is the
    advantage or disadvantage the requester asked for, said among the reasons; `worse` the
    reasons known when the rules give none."""
    better: list[str] = []
    reasoned = "disadvantage_reasons" in roll or "advantage_reasons" in roll
    if reasoned:
        worse = roll.get("disadvantage_reasons") or []
        better = roll.get("advantage_reasons") or []
    # The domain gives no reason for a flag it was sent: the table reads who asked for it.
    if asked == "advantage":
        better = [_("as asked"), *better]
    elif asked == "disadvantage":
        worse = [_("as asked"), *worse]
    if reasoned:
        mode = roll["mode"]
        if mode == "advantage":
            worse = []
        elif mode == "disadvantage":
            better = []
        elif not (better and worse):  # a flag cancelled it: the roll was a plain one
            better = worse = []
    # The domain names two of one name by id ("Wolf (mon-3)"): the table reads "Wolf 2".
    better = _reasons_by_creature([s.plain(r) for r in better])
    worse = _reasons_by_creature([s.plain(r) for r in worse])
    if better and worse:
        text = _("(Advantage and disadvantage cancel: %(better)s; %(worse)s.)")
    elif better:
        text = _("(Advantage: %(better)s.)")
    elif worse:
        text = _("(Disadvantage: %(worse)s.)")
    else:
        return ""
    return " " + text % {"better": ", ".join(better), "worse": ", ".join(worse)}


def _bless_text(roll: Mapping[str, Any], kind: str) -> str:
    """ " (+3 from Bless.)": the 1d4 a blessed creature added to the d20 roll whose total is
    said, or "" without one. A monster's die is said to no one: the room hears a monster's
    total alone, as its players read it."""
    if (added := _bless_roll(roll, kind)) is None:
        return ""
    return " " + _("(+%(roll)s from Bless.)") % {"roll": added}


def _bless_roll(roll: Mapping[str, Any], kind: str) -> int | None:
    """The Bless die a d20 roll added to its total, None without one or for a monster (its
    die, like its d20, is the GM's). Only the rules' own number: never worked out from the
    total."""
    bless = roll.get("bless")
    if not bless or kind == "monster":
        return None
    return int(bless["roll"])


def _reasons_by_creature(reasons: list[str]) -> list[str]:
    """Reasons about one creature said once: "Ilsa is prone", "Ilsa is unconscious" read
    "Ilsa is prone and unconscious"."""
    grouped: list[tuple[str, list[str]]] = []
    for reason in reasons:
        who, said, what = reason.partition(" is ")
        if said and grouped and grouped[-1][0] == who:
            grouped[-1][1].append(what)
        else:
            grouped.append((who, [what]) if said else ("", [reason]))
    joined = []
    for who, whats in grouped:
        if not who:
            joined.append(whats[0])
            continue
        what = whats[0]
        if len(whats) > 1:
            what = _("%(first)s and %(last)s") % {
                "first": ", ".join(whats[:-1]),
                "last": whats[-1],
            }
        joined.append(_("%(who)s is %(what)s") % {"who": who, "what": what})
    return joined


def _plural_attacker(s: Session, m: re.Match[str]) -> tuple[list[Entity], str]:
    """The roster and the attacker of "the goblins attack Ilsa": the one living creature the
    plural names; several are asked about one at a time (each attack a command to send). A
    subject that is no plural of creatures here ("goblin attack") is not understood as one."""
    if not (s.offered("combat_status") or s.offered("campaign_get")):
        raise NotUnderstood
    roster = dnd_roster(s)
    kind = _of_kind(roster, m["attackers"])
    if not kind:
        raise NotUnderstood
    if not s.turn.is_gm and kind != [e for e in roster if e.id == s.turn.character_id]:
        raise Refusal(_("You can only act as your own character."))
    if len(kind) > 1:
        rest = re.sub(r"^\s+attack\b", " attacks", m.string[m.end("attackers") :])
        names = [_name_of(roster, e.id) for e in kind]
        s.suggestions += [f"{n}{rest}" for n in names]
        if s.turn.phase == "combat":
            _state_read_turn(s)
        raise Refusal(
            _("“%(said)s” are %(names)s: name one at a time, as in “%(example)s”.")
            % {
                "said": _echo(m["attackers"]),
                "names": _and_list(names),
                "example": s.suggestions[0],
            }
        )
    return roster, kind[0].id


def _named_attacker(s: Session, roster: list[Entity], name: str) -> str:
    """The attacker of "<name> attacks <target>": the player's own character only; for the GM,
    whoever the name fits, the combatant whose turn it is first ("goblin" is the goblin up)."""
    wanted = _clean_name(_normalize(name)).lower()
    current = _current_combatant(s) if s.turn.is_gm else None
    up = [e for e in roster if e.id == current]
    # A kind ("goblin") is the one of that kind whose turn it is; any other exact name or id
    # ("mon-2", "Orc" beside an Orc Captain) is that creature, up or not.
    kind_of_up = bool(up) and (up[0].monster_key or "").replace("_", " ") == wanted
    if not kind_of_up and any(
        e.id.lower() == wanted or _normalize(e.name).lower() == wanted for e in roster
    ):
        up = []
    try:
        attacker = resolve(s, up, name) if up else None
    except Refusal:
        attacker = None
    s.suggestions.clear()  # no typo guess at who acts
    attacker = attacker or resolve(s, roster, name)
    if not s.turn.is_gm and attacker.id != s.turn.character_id:
        raise Refusal(_("You can only act as your own character."))
    return attacker.id


# What keeps a prone creature down: held, or unable to move at all.
CANNOT_STAND = frozenset(
    {"grappled", "restrained", "paralyzed", "petrified", "stunned", "unconscious"}
)
# What takes a creature's actions: the rules refuse its attacks. Only suggestions read these
# (the rules still decide); a test keeps both sets equal to the rules', which apps/ may not
# import.
CANNOT_ACT = frozenset(
    {"incapacitated", "paralyzed", "petrified", "stunned", "unconscious", "dead"}
)


def _turn_options(up: Entity, foes: list[Entity], *, gm: bool) -> list[str]:
    """What `up` may do as its turn begins, worded for whoever plays it: the GM (`gm`, a
    monster) or its player."""
    options: list[str] = []
    # Knocked down (a wolf's bite): getting up comes first, before the attack that prone
    # would give disadvantage. At 0 HP nobody stands (that turn is a death save), nor does one
    # held or unable to move: the rules refuse it.
    if "prone" in up.conditions and up.status != "down" and not set(up.conditions) & CANNOT_STAND:
        options.append(_("stand up"))
    if up.status == "down":
        # Dying: the turn is a death save, once.
        if up.death_save_due and up.kind != "monster":
            options.append(_("death save"))
    elif set(up.conditions) & CANNOT_ACT or (
        up.budget.get("action", 1) < 1 and up.budget.get("attacks_left", 0) < 1
    ):
        # No action to attack with (or it is spent, Extra Attack's attacks too): the rules
        # refuse it.
        pass
    elif foes and gm:
        options.append(
            _("%(monster)s attacks %(target)s")
            % {"monster": _spoken(up), "target": _spoken(foes[0])}
        )
    elif foes:
        name = _spoken(foes[0])
        if _takes_the(foes[0], name):
            options.append(_("attack the %(name)s") % {"name": name})
        else:
            options.append(_("attack %(name)s") % {"name": name})
    # A dying character's turn is its death save, made first: the rules refuse to end the
    # turn before it (the GM too, who may call the save instead).
    if not (up.death_save_due and up.kind != "monster"):
        options.append(_("end turn"))
    if gm and not foes:  # nobody to fight yet: a look at the field instead
        options.append(_("describe"))
    return options


def _takes_the(creature: Entity, shown: str) -> bool:
    """Whether a sentence says "the" before a creature's name as the table reads it
    (`shown`): "the goblin", a monster called by its kind; but "goblin 2" (a number names one,
    as a table says it), a monster with a name of its own, or a character, are named bare."""
    if creature.kind != "monster" or shown[-1:].isdigit():
        return False
    key = (creature.monster_key or "").replace("_", " ")
    return not key or _normalize(shown).lower() == key


def _gm_options_on_players_turn(up: Entity, name: str, foes: list[Entity]) -> list[str]:
    """What the GM may do while `up` (a player's character, read `name` at the table) takes
    its turn: call a dying one's death save, end a fight with no foe left, look at the field,
    or end that turn (named: a stale click cannot end a later one) unless the rules hold it
    for its death save."""
    options: list[str] = []
    if up.death_save_due:
        options.append(_("death save for %(who)s") % {"who": name})
    if not foes:
        options.append(_("end combat"))
    options.append(_("describe"))
    if not up.death_save_due:
        options.append(_("end %(who)s's turn") % {"who": name})
    return options


def _turn_suggestions(s: Session, roster: list[Entity], current: str) -> None:
    """What the requester may do now that `current` is up: a GM plays the monsters, not the
    players' characters; a player, their own character's turn. Another player's character
    that is up has its options offered to its player, a monster's to the GM."""
    up = next((e for e in roster if e.id == current), None)
    if up is None:
        return
    s.turn_offered = True
    # The nearest first: the foe a suggestion names is the one within reach, if any is. Named
    # as the table reads it ("Goblin 2" where two are "Goblin"), so the command finds that one.
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    foes = _nearest_first(
        up,
        [
            dataclasses.replace(e, name=shown[e.id])
            for e in roster
            if e.alive and e.status != "down" and e.kind != up.kind
        ],
    )
    if up.kind == "monster":
        # The GM plays it: their options, to them alone, whoever's action passed the turn.
        if s.turn.is_gm:
            s.suggestions += _turn_options(up, foes, gm=True)
        else:
            s.gm_suggestions += _turn_options(up, foes, gm=True)
    elif up.id == s.turn.character_id:
        s.suggestions += _turn_options(up, foes, gm=False)
        if not s.turn.is_gm:
            s.gm_suggestions += _gm_options_on_players_turn(up, shown[up.id], foes)
    else:
        # A player character is up: that is their player's turn to take; the GM's options
        # are a GM's, never that character's actions.
        s.suggestions_for[up.id] = _turn_options(up, foes, gm=False)
        gm_options = _gm_options_on_players_turn(up, shown[up.id], foes)
        if s.turn.is_gm:
            s.suggestions += gm_options
        else:
            s.gm_suggestions += gm_options


def _offer_turn_again(s: Session) -> None:
    """After an action in combat that neither ended nor changed the turn (a look, a check, a
    refusal, a death save the GM called): the current turn's options again, as a new turn
    offers them (its player's and the GMs'), read after the action's writes, so a spent save
    or a character healed back up is offered what it may do now. An action that offered the
    requester its own next steps (an attack: "end turn"; a typo: the corrected command) has
    said what comes next. What it left for a character's player stands; what it left for the
    GMs (the opportunity attack a player's move provoked) comes first, then the turn's own
    GM options, since the turn goes on."""
    if s.turn.system_id != "dnd5e" or s.turn.phase != "combat" or s.turn_offered:
        return
    if s.suggestions:
        return
    if s.combat_read is None or s.combat_read_stale:
        if not s.offered("combat_status"):
            return
        outcome = s.try_call("combat_status")
        if not outcome.ok:
            return  # combat ended: there is no turn to offer
        s.combat_read, s.combat_read_stale = outcome.structured["combat"], False
    combat = s.combat_read
    if not combat.get("current"):
        return
    # The requester was offered nothing (above); what the action left for others stands.
    kept_gm, kept_for = list(s.gm_suggestions), dict(s.suggestions_for)
    s.gm_suggestions, s.suggestions_for = [], {}
    _turn_suggestions(s, [_combatant(entry) for entry in combat["order"]], combat["current"])
    s.gm_suggestions = list(dict.fromkeys([*kept_gm, *s.gm_suggestions]))
    s.suggestions_for.update(kept_for)
    if s.offered_turn is None:
        _state_read_turn(s)


def _check_target(what: str, *, save: bool) -> dict[str, str]:
    key = _clean_name(what).lower().replace(" ", "_")
    if key in ABILITY_ALIASES:
        return {"ability": ABILITY_ALIASES[key]}
    if not save and key in SKILLS:
        return {"skill": key}
    if save:
        message = _("“%(what)s” is not an ability (str, dex, con, int, wis, cha).")
    else:
        message = _("“%(what)s” is neither an ability nor a skill.")
    raise Refusal(message % {"what": _echo(what)})


def _dnd_check(s: Session, m: re.Match[str], *, save: bool) -> None:
    """One's own check or save; the GM names whose ("perception check for Ilsa"), a
    character's or a creature's, as the GM calls a death save."""
    tool = "saving_throw" if save else "ability_check"
    what_label = _("make a saving throw") if save else _("make an ability check")
    s.require(tool, what=what_label)
    checked, asked = m["what"], (m.groupdict().get("mode") or "").lower()
    if not asked and (before_dc := MODE_ENDING.search(checked)):
        checked, asked = checked[: before_dc.start()], before_dc["mode"].lower()
    arguments: dict[str, Any] = _check_target(checked, save=save)
    if asked:
        arguments[asked] = True
    dc = _dc(s, tool, m, save=save, checked=checked)
    named = m.groupdict().get("target")
    if named and s.turn.is_gm:
        character_id = resolve(s, dnd_roster(s), named).id
    else:
        character_id = acting_character(s, what=what_label)
        # A player's "for" names no one here in table talk ("perception check for traps"):
        # their own check, what it is for said; naming someone else is the GM's to call. A
        # subject ("the sun makes a dex save") says who makes it, so it must be someone here.
        someone = None
        if named and m.start("target") == 0:
            someone = resolve(s, dnd_roster(s), named)
        elif named:
            someone = _named(dnd_roster(s), named)
        if someone is not None and someone.id != character_id:
            raise Refusal(
                _("Only the GM calls a saving throw for someone else.")
                if save
                else _("Only the GM calls an ability check for someone else.")
            )
    result = s.call(tool, character_id=character_id, dc=dc, **arguments)
    what = checked.strip().lower() + " " + (_("save") if save else _("check"))
    whose = {"who": s.plain(result["character_name"]), "what": what}
    if result.get("automatic_failure"):
        # A paralyzed or stunned creature's STR or DEX save: its total, mode and DC changed
        # nothing, so the reason is said instead.
        s.say(_failed_save_text(s, _("%(who)s's %(what)s") % whose, result) + ".")
        return
    # Whose: with several at the table acting at once, "Perception check" alone says nobody.
    # How the d20 was rolled is said in each phrasing, as conditions give disadvantage the
    # player did not ask for: after the roll with the rules' reasons, as for an attack, else
    # in the label.
    why = _mode_text(s, result)
    mode = None if why else result.get("mode")
    # The roller's kind as the rules name it; one unnamed may be a monster (its die unsaid).
    blessed = _bless_text(result, result.get("character_kind", "monster"))
    if mode == "advantage":
        label = _("%(who)s's %(what)s with advantage")
    elif mode == "disadvantage":
        label = _("%(who)s's %(what)s with disadvantage")
    else:
        label = _("%(who)s's %(what)s")
    label %= whose
    values = {"label": label, "total": result["total"], "dc": dc}
    if result["success"]:
        text = s.pick(
            _("%(label)s: %(total)s against DC %(dc)s. Success."),
            _("%(label)s succeeds with %(total)s (DC %(dc)s)."),
            _third_success(save=save, met=result["total"] == dc),
        )
    else:
        text = s.pick(
            _("%(label)s: %(total)s against DC %(dc)s. It fails."),
            _("%(label)s falls short with %(total)s (DC %(dc)s)."),
            _("A roll of %(total)s is not enough for DC %(dc)s: %(label)s fails."),
        )
    text = (text % values) + why + blessed
    if m["dc"] is None:
        # Said, or the table takes DC 10 for one the GM set.
        text += " " + _("No DC was named, so the default DC %(dc)s was used.") % values
    s.say(text)


def _third_success(*, save: bool, met: bool) -> str:
    """ "A roll of N beats DC D: ..." for a success: a total equal to the DC meets it (still a
    success), and a save holds where a check succeeds."""
    if save:
        if met:
            return _("A roll of %(total)s meets DC %(dc)s: %(label)s holds.")
        return _("A roll of %(total)s beats DC %(dc)s: %(label)s holds.")
    if met:
        return _("A roll of %(total)s meets DC %(dc)s: %(label)s succeeds.")
    return _("A roll of %(total)s beats DC %(dc)s: %(label)s succeeds.")


def _dc(s: Session, tool: str, m: re.Match[str], *, save: bool, checked: str) -> int:
    """The DC said, or the default; `checked` is what is checked without how its d20 is rolled,
    for the example a bad DC is answered with."""
    if m["dc"] is None:
        return DEFAULT_DC
    low, high = s.bounds(tool, "dc", (1, 40))
    if not (m["dc"].isdigit() or re.fullmatch(AMOUNT, m["dc"], re.IGNORECASE)):
        example = f"{'save' if save else 'check'} {checked.strip()} dc 12"
        raise Refusal(_("The DC must be a number, like `%(example)s`.") % {"example": example})
    dc = _amount(m["dc"])
    if not low <= dc <= high:
        raise Refusal(
            _("The DC must be between %(low)s and %(high)s.") % {"low": low, "high": high}
        )
    return dc


def dnd_check(s: Session, m: re.Match[str]) -> None:
    _dnd_check(s, m, save=False)


def dnd_save(s: Session, m: re.Match[str]) -> None:
    _dnd_check(s, m, save=True)


def _mover(s: Session, m: re.Match[str]) -> str:
    """Who moves: the one named ("goblin 2 moves to 6,2"), as who attacks is named (a
    player's own character only), else the requester's own or, for the GM, whoever is up."""
    if m.groupdict().get("who"):
        return _named_attacker(s, dnd_roster(s), m["who"])
    return acting_character(s, what=_("move"))


def dnd_move(s: Session, m: re.Match[str]) -> None:
    s.require("combat_move", what=_("move on the grid"), seen_by_all=True)
    character_id = _mover(s, m)
    _move(s, character_id, _integer(m["x"]), _integer(m["y"]))


# A square is 5 ft, diagonals too (the rules' grid).
FEET_PER_SQUARE = 5
# Directions on the map as the battle map shows it: row 0 at the top is north ("up"), column 0
# at the left is west. Abbreviations stand for the compass words.
COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west",
           "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest"}  # fmt: skip


def _step(direction: str) -> tuple[int, int]:
    """One square's (dx, dy) towards `direction` ("north-west", "up left", "NE")."""
    said = re.sub(r"[\s-]+", "", direction.lower())
    said = COMPASS.get(said, said)
    found = re.fullmatch(r"(north|south|up|down)?(east|west|left|right)?", said)
    assert found is not None and said  # the grammar's DIRECTION matched it
    dy = {"north": -1, "up": -1, "south": 1, "down": 1}.get(found[1] or "", 0)
    dx = {"west": -1, "left": -1, "east": 1, "right": 1}.get(found[2] or "", 0)
    return dx, dy


def dnd_move_by(s: Session, m: re.Match[str]) -> None:
    """ "move 2 squares north", "move 10 feet east": from the mover's square, 5 ft a square
    (a diagonal square too); whether it can go there is the rules' to say."""
    s.require("combat_move", what=_("move on the grid"), seen_by_all=True)
    amount = _count(m["amount"] or "1", SEGMENT_WORDS)
    squares = amount
    if (m["unit"] or "").lower().startswith("f"):  # feet, foot, ft
        if amount % FEET_PER_SQUARE:
            raise Refusal(
                _("Moves go by whole squares of %(n)s ft: 5, 10, 15 ft and so on.")
                % {"n": FEET_PER_SQUARE}
            )
        squares = amount // FEET_PER_SQUARE
    if squares < 1:
        raise Refusal(_("Say how far to move: 1 square (5 ft) or more."))
    character_id = _mover(s, m)
    mover = next((e for e in dnd_roster(s) if e.id == character_id), None)
    if mover is None or mover.position is None:
        raise Refusal(_("Moving happens on the combat grid: move to X,Y in combat."))
    dx, dy = _step(m["direction"])
    direction = " ".join(m["direction"].lower().split())
    how_far = (
        _("%(n)s ft") % {"n": amount}
        if (m["unit"] or "").lower().startswith("f")
        else ngettext("%(n)s square", "%(n)s squares", squares) % {"n": squares}
    )
    # Said back as asked, from where the mover stands, if it leads off the map.
    asked = _("%(how_far)s %(direction)s of (%(x)s, %(y)s)") % {
        "how_far": how_far,
        "direction": COMPASS.get(direction, direction),
        "x": mover.position[0],
        "y": mover.position[1],
    }
    x, y = mover.position[0] + dx * squares, mover.position[1] + dy * squares
    _move(s, character_id, x, y, asked=asked)


def dnd_move_beside(s: Session, m: re.Match[str]) -> None:
    """ "move to the goblin": to the free square beside it nearest the mover (fewest squares,
    then the straightest way); how far the mover may go is the rules' to say."""
    s.require("combat_move", what=_("move on the grid"), seen_by_all=True)
    character_id = _mover(s, m)
    roster = dnd_roster(s)
    target = _resolve_said(s, roster, m["target"])
    mover = next((e for e in roster if e.id == character_id), None)
    if target.id == character_id:
        raise Refusal(_("Name who to move next to, or a square: move to 4,5."))
    if mover is not None and mover.position is not None and target.position is None:
        # A combatant off this reader's map is a monster hiding from them: its square is the
        # GM's to know.
        raise Refusal(
            _("%(name)s is hidden: where it stands is not shown. Move to a square: move to 4,5.")
            % {"name": _name_of(roster, target.id)}
        )
    if mover is None or mover.position is None or target.position is None:
        raise Refusal(_("Moving happens on the combat grid: move to X,Y in combat."))
    if _squares(mover, target) == 1:
        # A move to the nearest free square beside it would go nowhere: no call is made.
        s.say(
            _("%(who)s is already beside %(name)s.")
            % {"who": _name_of(roster, character_id), "name": _name_of(roster, target.id)}
        )
        return
    low, high = s.bounds("combat_move", "x", (0, 99))
    taken = {e.position for e in roster if e.id != character_id and e.position is not None}
    tx, ty = target.position
    around = [
        (tx + dx, ty + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and low <= tx + dx <= high and low <= ty + dy <= high
    ]
    free = [square for square in around if square not in taken]
    if not free:
        raise Refusal(
            _("There is no free square next to %(name)s.") % {"name": _name_of(roster, target.id)}
        )
    mx, my = mover.position
    x, y = min(
        free,
        key=lambda q: (max(abs(q[0] - mx), abs(q[1] - my)), (q[0] - mx) ** 2 + (q[1] - my) ** 2, q),
    )
    _move(s, character_id, x, y)


def _cannot_move(s: Session, character_id: str) -> None:
    """Refuses a mover held in place or unable to move (the rules' reasons, the ones that
    keep it from standing too) before a square it cannot reach anyway is judged."""
    roster = [_combatant(e) for e in s.combat_read["order"]] if s.combat_read else dnd_roster(s)
    mover = next((e for e in roster if e.id == character_id), None)
    if mover is not None and (held := [c for c in mover.conditions if c in CANNOT_STAND]):
        raise Refusal(
            _("%(who)s cannot move while %(conditions)s.")
            % {"who": _name_of(roster, character_id), "conditions": _and_list(held)}
        )


def _off_the_map(s: Session, character_id: str, x: int, y: int, asked: str | None) -> None:
    """Refuses a move to (x, y) off the map, where the combat read or the tool's schema says
    so: a mover that cannot move at all is told that first (where it wants to go does not
    matter then); a relative move (`asked`, "2 squares north of (5, 0)") is told which edge it
    crosses."""
    low, high = s.bounds("combat_move", "x", (0, 99))
    grid = (s.combat_read or {}).get("grid") or {}
    width, height = grid.get("width", high + 1), grid.get("height", high + 1)
    if low <= min(x, y) and x < width and y < height and max(x, y) <= high:
        return
    _cannot_move(s, character_id)
    if asked is not None:
        edges = []
        if y < low:
            edges.append(_("row %(n)s is the top edge") % {"n": low})
        if y >= height:
            edges.append(_("row %(n)s is the bottom edge") % {"n": height - 1})
        if x < low:
            edges.append(_("column %(n)s is the left edge") % {"n": low})
        if x >= width:
            edges.append(_("column %(n)s is the right edge") % {"n": width - 1})
        raise Refusal(
            _("%(asked)s is off the map: %(edges)s.") % {"asked": asked, "edges": _and_list(edges)}
        )


def _move(s: Session, character_id: str, x: int, y: int, *, asked: str | None = None) -> None:
    """Moves `character_id` to (x, y) and says how far it went (the rules judge the move)."""
    _off_the_map(s, character_id, x, y, asked)
    low, high = s.bounds("combat_move", "x", (0, 99))
    if min(x, y) < low:
        raise Refusal(
            _("(%(x)s, %(y)s) is outside the map: columns and rows count from %(low)s.")
            % {"x": x, "y": y, "low": low}
        )
    if max(x, y) > high:
        raise Refusal(_("(%(x)s, %(y)s) is outside the map.") % {"x": x, "y": y})
    outcome = s.try_call("combat_move", character_id=character_id, x=x, y=y)
    if not outcome.ok:
        size = re.search(r"outside the (\d+)x(\d+) grid", outcome.error_message)
        if size is None:
            raise Refusal(_refusal(outcome.error_message))
        _cannot_move(s, character_id)
        raise Refusal(
            _("(%(x)s, %(y)s) is outside the map (columns 0–%(columns)s, rows 0–%(rows)s).")
            % {"x": x, "y": y, "columns": int(size[1]) - 1, "rows": int(size[2]) - 1}
        )
    result = outcome.structured
    roster = dnd_roster(s)
    who = _name_of(roster, character_id)
    # The GM's own answer for a hidden monster says where it went: the room hears only that it
    # moved, the GM the rest.
    audience = "trigger"
    if result.get("hidden") and next((e.kind for e in roster if e.id == character_id), "") == (
        "monster"
    ):
        s.say(_("%(who)s moves, unseen.") % {"who": who})
        if "feet" not in result:
            return
        audience = "gm"
    provoked = _provoked_text(roster, who, result)
    _offer_opportunity_attacks(s, roster, character_id, result)
    hidden_provoked = _hidden_provoked_text(s, roster, character_id, who, result)
    # The square it ended on: short of the one asked for when it stumbled on a hidden monster.
    x, y = result.get("to") or (x, y)
    if found := result.get("stopped_by"):
        s.say(
            _("%(who)s stumbles on %(foe)s, hidden at (%(fx)s, %(fy)s), and stops short.")
            % {"who": who, "foe": _name_of(roster, found["id"]), "fx": found["at"][0],
               "fy": found["at"][1]},
            audience=audience,
        )  # fmt: skip
    values = {
        "who": who,
        "x": x,
        "y": y,
        "feet": result["feet"],
        "cost": result["movement_cost"],
        "left": result["movement_left"],
    }
    # "with 25 ft left" / "; 25 ft of movement remain", and in words once none is left.
    left = result["movement_left"]
    values["with_left"] = (
        _("with no movement left") if not left else _("with %(left)s ft left") % values
    )
    values["remain"] = (
        _("no movement left")
        if not left
        else ngettext("%(left)s ft of movement remains", "%(left)s ft of movement remain", left)
        % values
    )
    if result["crawled"]:
        # Prone: every foot crawled costs two, so the line says so rather than "moves".
        s.say(
            s.pick(
                _(
                    "%(who)s crawls to (%(x)s, %(y)s), %(feet)s ft for %(cost)s ft of movement, "
                    "%(with_left)s."
                ),
                _(
                    "%(who)s crawls %(feet)s ft to (%(x)s, %(y)s), using %(cost)s ft of movement; "
                    "%(remain)s."
                ),
            )
            % values
            + provoked,
            audience=audience,
        )
        if hidden_provoked:
            s.say(hidden_provoked, audience="gm")
        return
    if not result["feet"]:
        s.say(
            (
                _("%(who)s stays at (%(x)s, %(y)s), with %(left)s ft of movement left.")
                if left
                else _("%(who)s stays at (%(x)s, %(y)s), with no movement left.")
            )
            % values,
            audience=audience,
        )
        return
    # The path goes around hostile creatures: more feet than the squares between say.
    start = result.get("from") or [x, y]
    around = result["feet"] > max(abs(x - start[0]), abs(y - start[1])) * 5
    # Another creature's square is difficult terrain: the feet walked and the movement
    # spent differ, so both are said or the movement left does not add up.
    through = result["movement_cost"] > result["feet"]
    if around and through:
        text = _(
            "%(who)s moves to (%(x)s, %(y)s), %(feet)s ft around and through the creatures "
            "in the way for %(cost)s ft of movement, %(with_left)s."
        )
    elif through:
        text = _(
            "%(who)s moves to (%(x)s, %(y)s), %(feet)s ft for %(cost)s ft of movement "
            "(through another creature's space), %(with_left)s."
        )
    elif around:
        text = _(
            "%(who)s moves to (%(x)s, %(y)s), %(feet)s ft around the creatures in the way, "
            "%(with_left)s."
        )
    else:
        text = s.pick(
            _("%(who)s moves to (%(x)s, %(y)s), %(feet)s ft, %(with_left)s."),
            _("%(who)s crosses %(feet)s ft to (%(x)s, %(y)s); %(remain)s."),
        )
    s.say(text % values + provoked, audience=audience)
    if hidden_provoked:
        s.say(hidden_provoked, audience="gm")


def _offer_opportunity_attacks(
    s: Session, roster: list[Entity], mover_id: str, result: Mapping[str, Any]
) -> None:
    """Each opportunity attack the move provoked, as a command for whoever plays the attacker:
    the GM for a monster ("goblin 2 attacks Ilsa as a reaction", the GM's attack form), a
    character's player otherwise. Offered at once: the chance lapses at the next move."""
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    by_id = {e.id: dataclasses.replace(e, name=shown[e.id]) for e in roster}
    mover = by_id.get(mover_id)
    for provoked in result.get("opportunity_attacks", ()):
        attacker = by_id.get(provoked["attacker_id"])
        if attacker is None or mover is None:
            continue
        if attacker.kind == "monster":
            command = _("%(monster)s attacks %(target)s as a reaction") % {
                "monster": _spoken(attacker),
                "target": _spoken(mover),
            }
            (s.suggestions if s.turn.is_gm else s.gm_suggestions).append(command)
            continue
        name = _spoken(mover)
        command = (
            _("attack the %(name)s as a reaction")
            if _takes_the(mover, name)
            else _("attack %(name)s as a reaction")
        ) % {"name": name}
        if attacker.id == s.turn.character_id:
            s.suggestions.append(command)
        else:
            s.suggestions_for.setdefault(attacker.id, []).append(command)


def _provoked_text(roster: list[Entity], who: str, result: Mapping[str, Any]) -> str:
    """ " Ilsa leaves Goblin 2's reach: Goblin 2 may make an opportunity attack.", or "" when
    the move provoked none. The rules roll nothing: the table learns who may strike, by the
    names it reads."""
    attackers = [
        _name_of(roster, a["attacker_id"])
        for a in result.get("opportunity_attacks", ())
        # A hidden monster was within reach: the GM alone is told (_hidden_provoked_text).
        if not a.get("hidden")
    ]
    if not attackers:
        return ""
    if len(attackers) == 1:
        text = _("%(who)s leaves %(foe)s's reach: %(foe)s may make an opportunity attack.")
    else:
        text = _("%(who)s leaves the reach of %(foes)s: each may make an opportunity attack.")
    return " " + text % {"who": who, "foe": attackers[0], "foes": _and_list(attackers)}


def _hidden_provoked_text(
    s: Session, roster: list[Entity], mover_id: str, who: str, result: Mapping[str, Any]
) -> str:
    """For the GM alone: the hidden monsters whose reach the move left, as the rules name them
    to a GM's move; or, a player's move naming none (their answer leaves a hidden monster's
    out), that a hidden monster may have been left behind. "" when there is none to tell."""
    named = [a["attacker_id"] for a in result.get("opportunity_attacks", ()) if a.get("hidden")]
    texts = [
        _(
            "%(foe)s is hidden: %(who)s leaves its reach, and %(foe)s may make an opportunity "
            "attack."
        )
        % {"foe": _name_of(roster, foe), "who": who}
        for foe in named
    ]
    mover = next((e for e in roster if e.id == mover_id), None)
    if s.turn.is_gm or mover is None or mover.kind == "monster":
        return " ".join(texts)
    order = (s.combat_read or {}).get("order", ())
    moved = next((e for e in order if e.get("id") == mover_id), {})
    if moved.get("hidden") or (moved.get("budget") or {}).get("disengaged"):
        # The rules give no opportunity attack against a mover unseen or disengaged.
        return " ".join(texts)
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    by_id = {e.id: dataclasses.replace(e, name=shown[e.id]) for e in roster}
    found = (result.get("stopped_by") or {}).get("id")
    for entry in (s.combat_read or {}).get("order", ()):
        foe = by_id.get(entry["id"])
        if not entry.get("hidden") or foe is None or foe.kind != "monster" or not foe.alive:
            continue
        if entry["id"] == found:
            continue  # the move ran into it: found, no longer hidden, and beside the mover
        if (entry.get("budget") or {}).get("reaction", 1) < 1:
            continue  # its reaction is spent this round: no opportunity attack is left to it
        command = _("%(monster)s attacks %(target)s as a reaction") % {
            "monster": _spoken(foe),
            "target": _spoken(by_id[mover_id]),
        }
        texts.append(
            _(
                "%(foe)s is hidden: if %(who)s left its reach, %(foe)s may make an opportunity "
                "attack (“%(command)s”)."
            )
            % {"foe": foe.name, "who": who, "command": command}
        )
    return " ".join(texts)


# Lazy: worded in the turn's language, not the one at import.
DEATH_SAVE_OUTCOMES = {
    "success": gettext_lazy("%(who)s rolls %(natural)s on a death save: a success."),
    "failure": gettext_lazy("%(who)s rolls %(natural)s on a death save: a failure."),
    "critical_failure": gettext_lazy("%(who)s rolls a 1 on a death save: two failures."),
    "stable": gettext_lazy("%(who)s rolls %(natural)s and is stable."),
    "revived": gettext_lazy("%(who)s rolls a 20 and comes to with 1 HP!"),
    "dead": gettext_lazy("%(who)s rolls %(natural)s on a death save and dies."),
}


def dnd_death_save(s: Session, m: re.Match[str]) -> None:
    """One's own death save; the GM names whose (outside combat only the GM calls one)."""
    what = _("make a death saving throw")
    s.require("death_save", what=what, seen_by_all=True)
    named = m.groupdict().get("target")
    roster = dnd_roster(s)
    if named and s.turn.is_gm:
        character_id = resolve(s, roster, named).id
    else:
        character_id = acting_character(s, what=what)
        if named and resolve(s, roster, named).id != character_id:
            raise Refusal(_("Only the GM calls a death save for someone else."))
    result = s.call("death_save", character_id=character_id)
    who = _name_of(roster, character_id)
    rolled: int | str = result["natural"]
    if (added := _bless_roll(result, "pc")) is not None:
        # Bless's die counts toward the 10 a success needs: said so the sum adds up.
        rolled = _("%(natural)s + %(bless)s from Bless = %(total)s") % {
            "natural": result["natural"],
            "bless": added,
            "total": result["total"],
        }
    text = str(DEATH_SAVE_OUTCOMES[result["outcome"]]) % {"who": who, "natural": rolled}
    if result.get("current"):  # the dead pass the turn
        text += " " + _next_up_text(roster, result["current"], result.get("round"))
        text += _spells_ended_text(result)
    s.say(text)
    if result.get("current"):
        if result.get("round") is not None:  # an older server says no round
            s.offered_turn = OfferedTurn("combat", result["round"], result["current"])
        if s.offered("combat_status"):
            # Read again: the next combatant's turn starts with a fresh budget (its action
            # back, or a death save due), which the save's result does not carry.
            roster = [_combatant(entry) for entry in _read_combat(s)["order"]]
        _turn_suggestions(s, roster, result["current"])


def _struck_text(s: Session, target: str, kind: str, effect: Mapping[str, Any]) -> str:
    """What damage that landed (an attack's hit, a spell's) did to `target`, in words, or "":
    its state, then the concentration the damage tested."""
    said = [_struck_state(target, kind, effect), _concentration_text(s, target, effect)]
    return " ".join(text for text in said if text)


def _concentration_text(s: Session, target: str, effect: Mapping[str, Any]) -> str:
    """The concentration save damage called for, its total against its DC ("Ash rolls 7
    against DC 10 and loses concentration: Bless ends."), or the spell a fall ended ("" without
    one): only what the result gives (a monster's save shows no modifier, nor is one said).
    Magic Missile's darts call for one save each until one fails: each total is said."""
    held = effect.get("concentration")
    if not held:
        return ""
    if "reason" in held:
        return _("%(spell)s ends: %(reason)s.") % held
    saves = held.get("saves") or [held["save"]]
    last = saves[-1]
    values = {"who": last.get("character_name") or target, "spell": held["spell"]}
    if last.get("automatic_failure"):
        failed = _failed_save_text(s, _("%(who)s's concentration save") % values, last)
        return failed + ". " + _("%(spell)s ends.") % values
    dcs = {save["dc"] for save in saves}
    if len(dcs) == 1:
        values["rolled"] = _("%(totals)s against DC %(dc)s") % {
            "totals": _and_list([str(save["total"]) for save in saves]),
            "dc": last["dc"],
        }
    else:
        values["rolled"] = _and_list([_("%(total)s against DC %(dc)s") % save for save in saves])
    if held["kept"]:
        text = s.pick(
            _("%(who)s rolls %(rolled)s and keeps concentrating on %(spell)s."),
            _("%(who)s's concentration holds (%(rolled)s): %(spell)s lasts."),
            _("%(who)s holds on to %(spell)s, rolling %(rolled)s."),
        )
    else:
        text = s.pick(
            _("%(who)s rolls %(rolled)s and loses concentration: %(spell)s ends."),
            _("%(who)s's concentration breaks (%(rolled)s): %(spell)s ends."),
            _("%(who)s loses concentration, rolling %(rolled)s: %(spell)s ends."),
        )
    return text % values + _mode_text(s, last) + _bless_dice_text(saves)


def _bless_dice_text(saves: list[Mapping[str, Any]]) -> str:
    """ " (+3 from Bless.)", " (+3 and +1 from Bless.)": the Bless die in each of the saves'
    totals said, or "" without one (a monster's is said to no one, as `_bless_text` says)."""
    added = [
        roll
        for save in saves
        if (roll := _bless_roll(save, save.get("character_kind", "monster"))) is not None
    ]
    if len(saves) == 1:
        return _bless_text(saves[0], saves[0].get("character_kind", "monster"))
    if not added:
        return ""
    return " " + _("(%(rolls)s from Bless.)") % {"rolls": _and_list([f"+{a}" for a in added])}


def _struck_state(target: str, kind: str, effect: Mapping[str, Any]) -> str:
    """What damage did to `target`'s hit points and standing, in words, or ""."""
    names = {"target": target}
    if effect.get("dead") and effect.get("death_save_failures_added"):
        # Already on the ground: the failures the damage added are what killed it.
        return _death_save_failures_text(target, effect) + " " + _("%(target)s dies.") % names
    if effect.get("dead"):
        return _("%(target)s falls and does not rise.") % names
    if effect.get("dropped_to_zero") and kind != "monster":
        # A character at 0 HP is dying (its turns are death saves): said, not only the fall.
        return _("%(target)s drops, unconscious and dying.") % names
    if effect.get("dropped_to_zero"):
        return _("%(target)s drops to the ground.") % names
    if effect.get("death_save_failures_added"):
        return _death_save_failures_text(target, effect)
    if (effect.get("undead_fortitude") or {}).get("success"):
        # A blow that should have felled it: the table sees it stand, never its HP or save.
        return _("%(target)s should fall, but Undead Fortitude keeps it on its feet.") % names
    return ""


def _death_save_failures_text(who: str, effect: Mapping[str, Any]) -> str:
    """A hit on a creature at 0 HP: "Bram takes a death-save failure (2 of 3)."."""
    added = effect["death_save_failures_added"]
    failures = min(3, (effect.get("death_saves") or {}).get("failures", added))
    return ngettext(
        "%(who)s takes a death-save failure (%(failures)s of 3).",
        "%(who)s takes %(added)s death-save failures (%(failures)s of 3).",
        added,
    ) % {"who": who, "added": added, "failures": failures}


def _named_with_number(roster: list[Entity], whole: str, bare: str) -> bool:
    """Whether `whole` ("goblin 2", "goblin 1") names a creature by a number, rather than `bare`
    followed by an amount: "goblin 1" is the first of Goblin and Goblin 2 only beside a
    numbered namesake ("heal Ilsa 1" heals 1 HP)."""
    found = _named(roster, whole, prefix=False)
    if found is None:
        return False
    plain = _named(roster, bare, prefix=False)
    if plain is None or plain.id != found.id:
        return True
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    numbered = f"{_normalize(shown[found.id]).lower()} 2"
    return any(_normalize(name).lower() == numbered for name in shown.values())


def dnd_heal(s: Session, m: re.Match[str]) -> None:
    """A player's character gives a potion (the rules roll it); the GM heals N, or a potion."""
    s.require("heal", what=_("heal"), seen_by_all=True)
    roster = dnd_roster(s)
    named, amount_text = m["target"], m["amount"]
    whole = f"{named} {amount_text}"
    if amount_text is not None and m.group(0).lower().endswith(whole.lower()):
        # No "for"/"hp" between them: a name the table reads with the number ("goblin 2",
        # "goblin two", "goblin 1" for the first of Goblin and Goblin 2) is one.
        if _named_with_number(roster, whole, named):
            named, amount_text = whole, None
    # "heal me", "heal myself": the requester's own character, as a temp hp grant names it.
    mine = _clean_name(_normalize(named)).lower() in SELF_WORDS
    if mine and s.turn.is_gm and not s.turn.character_id:
        # Not acting_character: in combat that is the monster up, not the GM.
        raise Refusal(_("As the GM you have no character: name who is healed (“heal <target> 5”)."))
    arguments: dict[str, Any] = {}
    if s.turn.is_gm and amount_text is not None:
        amount = _amount(amount_text)
        low, high = s.bounds("heal", "amount", (1, 10000))
        if not low <= amount <= high:
            raise Refusal(_("Heal %(low)s to %(high)s hit points.") % {"low": low, "high": high})
        arguments["amount"] = amount
    elif not s.turn.is_gm:
        arguments["healer_id"] = acting_character(s, what=_("give a potion of healing"))
    if mine:
        target = _own_entity(s, roster, what=_("give a potion of healing"))
    else:
        target = resolve(s, roster, named)
    result = s.call("heal", target_id=target.id, **arguments)
    if "healed" not in result:  # a monster's numbers are the GM's alone
        s.say(_("%(target)s is healed.") % {"target": target.name})
        return
    values = {"target": target.name, "healed": result["healed"], "hp": result["hp_after"]}
    text = (
        _("%(target)s is back up with %(hp)s HP.")
        if result["revived"]
        else _("%(target)s recovers %(healed)s HP (now %(hp)s).")
    ) % values
    potion = result.get("potion")
    opener = ""
    if potion:
        roll = {"expression": potion["expression"], "total": potion["total"]}
        if result.get("healer_id") == target.id:
            opener = _("%(healer)s drinks a potion of healing (%(expression)s = %(total)s).")
        elif result.get("healer_id"):
            opener = _(
                "%(healer)s gives %(target)s a potion of healing (%(expression)s = %(total)s)."
            )
        else:
            opener = _("A potion of healing (%(expression)s = %(total)s).")
        healer = result.get("healer_name", "")
        opener = opener % {**roll, "healer": healer, "target": target.name}
    if target.kind == "monster":
        # A monster's hit points are the GM's alone, even when the GM heals it in public.
        s.say(" ".join(filter(None, [opener, _("%(target)s is healed.") % values])))
        s.say(text, audience="gm")
        return
    s.say(" ".join(filter(None, [opener, text])))
    if amount_text is not None and not s.turn.is_gm:
        note = _("Players heal with a potion of healing (2d4+2); only the GM sets an amount.")
        s.say(note, audience="requester")


# The SRD healing spells a table names; the rules cast Cure Wounds and Healing Word (a cleric's,
# with a spell slot), the others are the GM's to rule on.
HEALING_SPELLS = r"(?:mass\s+)?cure\s+wounds|(?:mass\s+)?healing\s+word|prayer\s+of\s+healing"
CAST_SPELLS = {"cure wounds": "cure_wounds", "healing word": "healing_word"}
# The SRD damage spells the rules cast (a wizard's Magic Missile, with a spell slot; a wizard's
# Fire Bolt and a cleric's Sacred Flame, cantrips), by the name a table says.
DAMAGE_SPELLS = r"magic\s+missiles?|fire\s+bolt|sacred\s+flame"
CAST_DAMAGE_SPELLS = {
    "magic missile": "magic_missile",
    "magic missiles": "magic_missile",
    "fire bolt": "fire_bolt",
    "sacred flame": "sacred_flame",
}


@dataclass(frozen=True)
class DamageSpell:
    name: Any  # lazy: worded in the turn's language
    template: str  # the class the rules cast it for
    damage_type: str
    cantrip: bool = False


DAMAGE_SPELL_INFO = {
    "magic_missile": DamageSpell(gettext_lazy("Magic Missile"), "wizard", "force"),
    "fire_bolt": DamageSpell(gettext_lazy("Fire Bolt"), "wizard", "fire", cantrip=True),
    "sacred_flame": DamageSpell(gettext_lazy("Sacred Flame"), "cleric", "radiant", cantrip=True),
}
CASTER_WORDS = {"cleric": gettext_lazy("cleric"), "wizard": gettext_lazy("wizard")}
# "at level 2", "at 2nd level", "with a level 2 slot", "using a 2nd-level slot", said anywhere
# after the spell's name.
SLOT_LEVEL = re.compile(
    r"\s*\b(?:at|with|using)\s+(?:an?\s+)?(?:(?:slot\s+)?level\s+(?P<n>\d)"
    r"|(?P<o>\d)(?:st|nd|rd|th)[\s-]+level)(?:\s+(?:spell\s+)?slot)?\b",
    re.IGNORECASE,
)


def _slot_level(target: str | None) -> tuple[str | None, int | None]:
    """The target said without a slot level in it, and that level ("Ilsa at 2nd level": Ilsa,
    2; "at level 2 on Ilsa": Ilsa, 2)."""
    if not target:
        return target, None
    # "cast cure wounds at 2nd level": the grammar read "at" as before a target.
    for text in (" " + target, " at " + target):
        if found := SLOT_LEVEL.search(text):
            break
    else:
        return target, None
    rest = text[: found.start()] + text[found.end() :]
    rest = re.sub(r"^\s*(?:on|at|to|for)\s+", "", rest.strip(), flags=re.IGNORECASE)
    return rest.strip() or None, int(found["n"] or found["o"])


def _caster(s: Session, caster_id: str) -> Mapping[str, Any]:
    """The caster's sheet: in combat, as the combat read the cast needs anyway (for its target)
    shows its own character to the caster's player; read on its own otherwise (one round trip
    fewer per cast in a fight)."""
    if s.turn.phase == "combat" and s.offered("combat_status"):
        entry = next((e for e in _read_combat(s)["order"] if e.get("id") == caster_id), None)
        if entry is not None and "template" in entry["character"]:
            return entry["character"]
    return s.call("character_get", character_id=caster_id)["character"]


def _not_its_spell(caster: Mapping[str, Any], spell: str, template: str) -> str:
    """Why `caster` cannot cast `spell` (a `template`'s): a character whose sheet lists no
    spells has none to cast; a caster of another class, that the spell is not its own. Said
    plainly, as the rules refuse it outright: no ruling by the GM is promised."""
    values = {"who": caster["name"], "spell": spell, "caster": CASTER_WORDS[template]}
    if (caster.get("sheet") or {}).get("spells") == []:
        return _("%(who)s has no spells to cast: %(spell)s is a %(caster)s's spell.") % values
    return _("%(who)s cannot cast %(spell)s: it is a %(caster)s's spell.") % values


def dnd_healing_spell(s: Session, m: re.Match[str]) -> None:
    """ "I cast cure wounds on Ilsa": a player's cleric casts Cure Wounds or Healing Word with
    a spell slot (the rules spend it and roll the healing). Anyone else is told what heals
    instead: the GM heals the amount the spell restores, a player's character gives a
    potion."""
    spell = " ".join(m["spell"].split()).title()
    named, slot_level = _slot_level(m["target"])
    if slot_level is None and m.groupdict().get("level"):
        slot_level = _slot_level(m["level"])[1]
    target = _echo(" ".join(named.split())) if named else None
    if s.turn.is_gm:
        example = f"heal {target} 5" if target else "heal <target> 5"
        raise Refusal(
            _(
                "The rules here cast healing spells for a player's cleric: roll %(spell)s and "
                "heal the hit points it restores (“%(example)s”)."
            )
            % {"spell": spell, "example": example}
        )
    key = CAST_SPELLS.get(spell.lower())
    instead = {"spell": spell, "target": target or "me"}
    if key is None:
        raise Refusal(
            _(
                "The rules here do not cast %(spell)s: the GM rules on it and heals the hit "
                "points it restores. Your character can give a potion of healing instead "
                "(“heal %(target)s”)."
            )
            % instead
        )
    what = _("cast %(spell)s") % {"spell": spell}
    s.require("spell_cast", what=what, seen_by_all=True)
    caster = _caster(s, acting_character(s, what=what))
    if caster.get("template") != "cleric":
        raise Refusal(
            " ".join(
                [
                    _not_its_spell(caster, spell, "cleric"),
                    _("Your character can give a potion of healing instead (“heal %(target)s”).")
                    % instead,
                ]
            )
        )
    roster = dnd_roster(s)
    if target is None or _clean_name(_normalize(target)).lower() in SELF_WORDS:
        healed = _own_entity(s, roster, what=what)
    else:
        healed = resolve(s, roster, named or "")
    arguments: dict[str, Any] = {"caster_id": caster["id"], "target_id": healed.id, "spell": key}
    if slot_level is not None:
        arguments["slot_level"] = slot_level
    result = s.call("spell_cast", **arguments)
    roll = result["roll"]
    values = {
        "caster": result.get("caster_name") or caster["name"],
        "spell": result.get("spell_name") or spell,
        "target": healed.name,
        "expression": roll["expression"],
        "total": roll["total"],
        "slot": result["slot_level"],
        "left": result["slots_left"],
    }
    opener = (
        _("%(caster)s casts %(spell)s (%(expression)s = %(total)s).")
        if healed.id == caster["id"]
        else _("%(caster)s casts %(spell)s on %(target)s (%(expression)s = %(total)s).")
    ) % values
    if "healed" not in result:  # a monster's numbers are the GM's alone
        effect = _("%(target)s is healed.") % values
    elif result["revived"]:
        effect = _("%(target)s is back up with %(hp)s HP.") % {**values, "hp": result["hp_after"]}
    else:
        effect = _("%(target)s recovers %(healed)s HP (now %(hp)s).") % {
            **values,
            "healed": result["healed"],
            "hp": result["hp_after"],
        }
    s.say(" ".join([opener, effect, _slots_left_text(values)]))


WARD_SPELLS = r"shield\s+of\s+faith"
BLESS_SPELL = r"bless"
# The spells the rules hold by concentration, as said.
CONCENTRATION_SPELLS = WARD_SPELLS + "|" + BLESS_SPELL


def _clerics_concentration_cast(
    s: Session, spell: str, said: str, target: str | None
) -> tuple[Mapping[str, Any], str]:
    """Before a cleric's concentration spell (`spell`, said `said`) is cast: the caster (the
    speaker's acting character, a cleric) and what is being done; refused for the GM (its
    player casts it) and for any other class (not its spell)."""
    if s.turn.is_gm:
        raise Refusal(
            _(
                "The rules here cast %(spell)s for a player's cleric: its player casts it "
                "(“cast %(said)s on %(target)s”)."
            )
            % {"spell": spell, "said": said, "target": target or "Ilsa"}
        )
    what = _("cast %(spell)s") % {"spell": spell}
    s.require("spell_cast", what=what, seen_by_all=True)
    caster = _caster(s, acting_character(s, what=what))
    if caster.get("template") != "cleric":
        raise Refusal(_not_its_spell(caster, spell, "cleric"))
    return caster, what


def dnd_ward_spell(s: Session, m: re.Match[str]) -> None:
    """ "cast shield of faith on Bram": a player's cleric wards a creature (no target: its own
    character) with a spell slot, as a bonus action in combat; the rules give the +2 AC while
    the cleric concentrates, ending the spell it concentrated on before."""
    cast = _concentration_cast(
        s, m, spell=str(gettext_lazy("Shield of Faith")), key="shield_of_faith", several=False
    )
    (warded,) = cast.targets
    result, values = cast.result, cast.values
    values.update(
        target=_name_of(cast.roster, warded.id),
        bonus=result.get("ac_bonus", 2),
        before=result.get("ac_before"),
        after=result.get("ac_after"),
    )
    opener = (
        _("%(caster)s casts %(spell)s")
        if warded.id == cast.caster_id
        else _("%(caster)s casts %(spell)s on %(target)s")
    ) % values
    # A monster's AC is the GM's: its player reads no numbers for it.
    field = (
        _("a shimmering field gives %(target)s +%(bonus)s AC (%(before)s → %(after)s)")
        if values["before"] is not None and values["after"] is not None
        else _("a shimmering field gives %(target)s +%(bonus)s AC")
    ) % values
    _say_concentration_cast(s, cast, opener, field)


def dnd_bless(s: Session, m: re.Match[str]) -> None:
    """ "cast bless on Ilsa, Bram and me": a player's cleric blesses the creatures said (no
    target: its own character) with a spell slot, as an action in combat; the rules take up to
    three at 1st level, one more per slot level above, and add 1d4 to their attack rolls and
    saves while the cleric concentrates."""
    cast = _concentration_cast(s, m, spell=str(gettext_lazy("Bless")), key="bless", several=True)
    result, values = cast.result, cast.values
    names = result.get("target_names") or [_name_of(cast.roster, e.id) for e in cast.targets]
    values.update(targets=_and_list(names), dice=result.get("dice") or "1d4")
    alone = [e.id for e in cast.targets] == [cast.caster_id]
    opener = (
        _("%(caster)s casts %(spell)s") if alone else _("%(caster)s casts %(spell)s on %(targets)s")
    ) % values
    effect = (
        _("%(targets)s adds %(dice)s to attack rolls and saving throws")
        if len(names) == 1
        else _("each adds %(dice)s to attack rolls and saving throws")
    ) % values
    _say_concentration_cast(s, cast, opener, effect)


@dataclass
class ConcentrationCast:
    """A cleric's concentration spell cast: who cast it on whom, the rules' result, and the
    values its narration is worded with (`caster`, `spell`, `slot`, `left`)."""

    caster_id: str
    roster: list[Entity]
    targets: list[Entity]
    result: Mapping[str, Any]
    values: dict[str, Any]


def _concentration_cast(
    s: Session, m: re.Match[str], *, spell: str, key: str, several: bool
) -> ConcentrationCast:
    """Shield of Faith or Bless (`key`, named `spell`) cast by the speaker's cleric, with a
    spell slot, on the creatures said in `m` (no target: its own character; `several`: a
    list, as Bless takes, else one)."""
    named, slot_level = _slot_level(m["target"])
    target = _echo(" ".join(named.split())) if named else None
    said = key.replace("_", " ")
    caster, what = _clerics_concentration_cast(s, spell, said, target)
    roster = dnd_roster(s)
    targets: list[Entity] = []
    for name in (_target_list(named or "") if several else [named or ""]) or ["me"]:
        if not name or _clean_name(_normalize(name)).lower() in SELF_WORDS:
            targets.append(_own_entity(s, roster, what=what))
        else:
            targets.append(resolve(s, roster, name))
    arguments: dict[str, Any] = {"caster_id": caster["id"], "spell": key}
    if several:
        arguments["target_ids"] = [e.id for e in targets]
    else:
        arguments["target_id"] = targets[0].id
    if slot_level is not None:
        arguments["slot_level"] = slot_level
    result = s.call("spell_cast", **arguments)
    values = {
        "caster": result.get("caster_name") or caster["name"],
        "spell": result.get("spell_name") or spell,
        "slot": result["slot_level"],
        "left": result["slots_left"],
    }
    return ConcentrationCast(caster["id"], roster, targets, result, values)


def _say_concentration_cast(s: Session, cast: ConcentrationCast, opener: str, effect: str) -> None:
    """ "<opener>: <effect> while Ash keeps concentrating.", the spell it held before that the
    cast ended, and the slots left."""
    values = cast.values
    text = opener + ": " + effect + " " + _("while %(caster)s keeps concentrating.") % values
    text += _replaced_concentration_text(cast.result, values["caster"])
    s.say(" ".join([text, _slots_left_text(values)]))


def _replaced_concentration_text(result: Mapping[str, Any], caster: str) -> str:
    """ " Bless on Ilsa and Bram ends: Ash concentrates on one spell at a time." when the cast
    ended the spell the caster concentrated on before, "" otherwise."""
    ended = result.get("concentration_ended")
    if not ended:
        return ""
    # Bless names every creature it was on; a one-target spell its one.
    targets = ended.get("target_names") or [ended.get("target_name")]
    return " " + _(
        "%(spell)s on %(target)s ends: %(caster)s concentrates on one spell at a time."
    ) % {"spell": ended["spell_name"], "target": _and_list(targets), "caster": caster}


def _target_list(said: str) -> list[str]:
    """ "Ilsa, Bram and me": the names said, in their order."""
    return [n for n in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", said.strip()) if n]


def dnd_end_concentration(s: Session, m: re.Match[str]) -> None:
    """ "end concentration", "drop shield of faith", "stop concentrating": the speaker's
    character ends the spell it concentrates on (free, at any time: spell_cast with
    end_concentration), the spell and its target read from the character."""
    what = _("end concentration")
    if s.turn.is_gm and not s.turn.character_id:
        raise Refusal(
            _(
                "A caster's player ends its concentration (“end concentration”); the rules end "
                "it when the caster fails a concentration save or drops to 0 HP."
            )
        )
    s.require("spell_cast", what=what, seen_by_all=True)
    caster = _caster(s, acting_character(s, what=what))
    held = caster.get("concentration")
    spoken = m.groupdict().get("spell")
    said_key = re.sub(r"\s+", "_", spoken.lower()) if spoken else ""
    said = str(CONCENTRATION_SPELL_NAMES.get(said_key, "")) if spoken else ""
    if not held:
        raise Refusal(
            _("%(who)s is concentrating on no spell.") % {"who": caster["name"]}
            if not said
            else _("%(who)s is not concentrating on %(spell)s: on no spell at all.")
            % {"who": caster["name"], "spell": said}
        )
    ids, names = _held_targets(held)
    if said and said_key != held["spell"]:
        # "drop bless" while the cleric keeps Shield of Faith going: the one held stays.
        raise Refusal(
            _("%(who)s is not concentrating on %(spell)s: on %(held)s.")
            % {"who": caster["name"], "spell": said, "held": _held_text(held, caster["id"])}
        )
    # Bless is held on several creatures: the rules end it on all, named by its targets.
    targets: dict[str, Any] = (
        {"target_ids": ids} if "target_ids" in held else {"target_id": held["target_id"]}
    )
    result = s.call(
        "spell_cast",
        caster_id=caster["id"],
        spell=held["spell"],
        end_concentration=True,
        **targets,
    )
    ended = result.get("concentration_ended") or result
    values = {
        "who": result.get("caster_name") or caster["name"],
        "held": _held_text(
            {**held, "name": ended.get("spell_name") or held.get("name") or held["spell"]},
            caster["id"],
        ),
    }
    s.say(_("%(who)s stops concentrating: %(held)s ends.") % values)


CONCENTRATION_SPELL_NAMES = {
    "shield_of_faith": gettext_lazy("Shield of Faith"),
    "bless": gettext_lazy("Bless"),
}


def _held_targets(held: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The ids and names of the creatures a concentration spell is on: Bless's several
    (`target_ids`), a one-target spell's one (`target_id`)."""
    if "target_ids" in held:
        ids = list(held["target_ids"])
        return ids, list(held.get("target_names") or ids)
    return [held["target_id"]], [held.get("target_name") or held["target_id"]]


def _held_text(held: Mapping[str, Any], caster_id: str) -> str:
    """ "Bless on Ilsa, Bram and Ash", "Shield of Faith on Bram", or the spell alone when the
    caster holds it on itself only."""
    ids, names = _held_targets(held)
    spell = held.get("name") or held["spell"]
    if ids == [caster_id]:
        return str(spell)
    return _("%(spell)s on %(targets)s") % {"spell": spell, "targets": _and_list(names)}


def _slots_left_text(values: Mapping[str, Any]) -> str:
    """ "Wren has 3 level 1 spell slots left.", from `caster`, `left` and `slot`."""
    return (
        ngettext(
            "%(caster)s has %(left)s level %(slot)s spell slot left.",
            "%(caster)s has %(left)s level %(slot)s spell slots left.",
            values["left"],
        )
        % values
    )


# "casts a glance at", "casts his net": words after "casts" that name no spell ("a spell" does).
FIGURATIVE_CAST = re.compile(r"(?:an?|the|his|her|its|their|my|our|your)\s", re.IGNORECASE)


def dnd_someone_casts(s: Session, m: re.Match[str]) -> None:
    """ "goblin casts fire bolt at Ilsa": a spell said of a creature. The GM is told what the
    same "cast" of theirs is told (the rules cast only a player's spells: a monster's is
    rolled, then what it does applied); a player, how to cast as their character."""
    said = _echo("cast " + m["rest"])
    if FIGURATIVE_CAST.match(m["spell"]) and not re.search(r"\bspell\b", m["spell"], re.I):
        raise NotUnderstood  # "the torch casts a long shadow": no spell is named
    if not s.turn.is_gm:
        raise Refusal(_("To cast a spell as your character, say “%(said)s”.") % {"said": said})
    intent, found = _parse(s.turn.system_id, "cast " + m["rest"])
    if intent is not None and found is not None and intent.handler in SPELL_HANDLERS:
        intent.handler(s, found)  # the GM's refusal, as for "cast fire bolt at Ilsa"
        return
    if s.turn.task == "narration":
        raise NotUnderstood  # a spell the rules do not know, told as story: posted as said
    # No one named: the help's placeholder, not a name the table may not have.
    target = _echo(m["target"]) if m["target"] else "<target>"
    raise Refusal(
        _(
            "The rules cast only a player's spells: roll %(spell)s's dice for %(caster)s, then "
            "apply what it does (“damage %(target)s 9” or “heal %(target)s 5”)."
        )
        % {
            "spell": _echo(m["spell"]).title(),
            "caster": _echo(re.sub(r"^(?:the|a|an)\s+", "", m["caster"], flags=re.IGNORECASE)),
            "target": target,
        }
    )


def dnd_damage_spell(s: Session, m: re.Match[str]) -> None:
    """ "I cast magic missile at the goblin (at level 2)", "cast fire bolt at the goblin",
    "cast sacred flame on the skeleton": a player's wizard casts Magic Missile with a spell
    slot, or Fire Bolt, or a player's cleric Sacred Flame, cantrips with none (the rules spend
    it, roll the attack, save and damage and apply it). The table hears the damage and the
    target's state in the words an attack uses; a monster's hit points reach the GM alone."""
    key = CAST_DAMAGE_SPELLS[" ".join(m["spell"].lower().split())]
    info = DAMAGE_SPELL_INFO[key]
    spell = str(info.name)
    named, slot_level = _slot_level(m["target"])
    target = _echo(" ".join(named.split())) if named else None
    if s.turn.is_gm:
        # No one named: the help's placeholder, not a creature the table may not have.
        example = f"damage {target or '<target>'} 9 {info.damage_type}"
        raise Refusal(
            _(
                "The rules here cast %(spell)s for a player's %(caster)s: roll it and apply the "
                "damage it does (“%(example)s”)."
            )
            % {"spell": spell, "caster": CASTER_WORDS[info.template], "example": example}
        )
    if target is None:
        raise Refusal(
            _("Name who %(spell)s strikes, like: cast %(said)s at the goblin.")
            % {"spell": spell, "said": spell.lower()}
        )
    if info.cantrip and slot_level is not None:
        raise Refusal(
            _("%(spell)s is a cantrip: it is cast without a spell slot, at no level.")
            % {"spell": spell}
        )
    what = _("cast %(spell)s") % {"spell": spell}
    s.require("spell_cast", what=what, seen_by_all=True)
    caster = _caster(s, acting_character(s, what=what))
    if caster.get("template") != info.template:
        raise Refusal(
            " ".join(
                [
                    _not_its_spell(caster, spell, info.template),
                    _("Attack instead (“attack %(target)s”).") % {"target": target},
                ]
            )
        )
    roster = dnd_roster(s)
    s.actor = caster["id"]  # "the other goblin": not the caster
    struck = resolve(s, roster, named or "")
    arguments: dict[str, Any] = {"caster_id": caster["id"], "target_id": struck.id, "spell": key}
    if slot_level is not None:
        arguments["slot_level"] = slot_level
    result = s.call("spell_cast", **arguments)
    if "to_hit" in result:
        _attack_spell_said(s, result, caster, _name_of(roster, struck.id), struck.kind)
        return
    if "save" in result:
        _save_spell_said(s, result, caster, _name_of(roster, struck.id), struck.kind)
        return
    roll, effect = result["roll"], result["damage"]
    values = {
        "caster": result.get("caster_name") or caster["name"],
        "spell": result.get("spell_name") or spell,
        "target": _name_of(roster, struck.id),
        "darts": result["darts"],
        "amount": roll["total"],
        "type": (effect.get("damage_type") or "force"),
        "expression": roll["expression"],
        "total": roll["total"],
        "slot": result["slot_level"],
        "left": result["slots_left"],
    }
    text = (
        ngettext(
            "%(caster)s casts %(spell)s at %(target)s: %(darts)s dart for %(amount)s %(type)s "
            "damage (%(expression)s = %(total)s).",
            "%(caster)s casts %(spell)s at %(target)s: %(darts)s darts for %(amount)s %(type)s "
            "damage (%(expression)s = %(total)s).",
            values["darts"],
        )
        % values
    )
    # The target's state as an attack's hit tells it.
    if state := _struck_text(s, values["target"], struck.kind, effect):
        text += " " + state
    s.say(" ".join([text, _slots_left_text(values)]))


def _attack_spell_said(
    s: Session, result: Mapping[str, Any], caster: Mapping[str, Any], target: str, kind: str
) -> None:
    """An attack spell (Fire Bolt) as an attack is told: the to-hit, hit or miss, the damage
    rolled and what it did to the target."""
    values = {
        "caster": result.get("caster_name") or caster["name"],
        "spell": result.get("spell_name") or "",
        "target": target,
        "roll": result["to_hit"]["total"],
    }
    worse = (result.get("range") or {}).get("disadvantage") or []
    # The caster's own roll: a player's cleric or wizard.
    why = _mode_text(s, result["to_hit"], worse=worse) + _bless_text(result["to_hit"], "pc")
    if not result["hit"]:
        s.say(
            _("%(caster)s casts %(spell)s at %(target)s but misses (%(roll)s to hit).") % values
            + why
        )
        return
    damage = result["damage"]
    values.update(
        amount=damage["total"],
        type=damage["damage_type"],
        expression=damage["expression"],
    )
    text = (
        (_("Critical hit! ") if result["critical"] else "")
        + _(
            "%(caster)s casts %(spell)s at %(target)s and hits (%(roll)s to hit): %(amount)s "
            "%(type)s damage (%(expression)s = %(amount)s)."
        )
        % values
        + why
    )
    if state := _struck_text(s, target, kind, damage["effect"]):
        text += " " + state
    s.say(text)


def _save_spell_said(
    s: Session, result: Mapping[str, Any], caster: Mapping[str, Any], target: str, kind: str
) -> None:
    """A save spell (Sacred Flame): the target's save against the DC, as a hit's rider says
    one, then the damage rolled on a failure and what it did."""
    save = result["save"]
    values = {
        "caster": result.get("caster_name") or caster["name"],
        "spell": result.get("spell_name") or "",
        "target": target,
        "ability": save["ability"].upper(),
        "total": save["total"],
        "dc": save["dc"],
    }
    said = (
        _failed_save_text(s, _("the %(ability)s save") % values, save)
        if save.get("automatic_failure")
        else _("%(ability)s save %(total)s against DC %(dc)s") % values
    )
    values["save"] = said
    why = _mode_text(s, save) + _bless_text(save, kind)
    if save["success"]:
        s.say(
            _("%(caster)s casts %(spell)s on %(target)s, who avoids it (%(save)s).") % values + why
        )
        return
    roll = result["roll"]
    values.update(
        amount=roll["total"],
        expression=roll["expression"],
        # A monster's effect, as a player reads it, names no damage type: the spell's.
        type=DAMAGE_SPELL_INFO[result["spell"]].damage_type,
    )
    text = (
        _(
            "%(caster)s casts %(spell)s on %(target)s (%(save)s): %(amount)s %(type)s damage "
            "(%(expression)s = %(amount)s)."
        )
        % values
        + why
    )
    if state := _struck_text(s, target, kind, result["damage"]):
        text += " " + state
    s.say(text)


def _rest_refused_for_gm(s: Session, tool: str, in_combat: str, as_action: str) -> None:
    """A GM's rest where the facade does not offer it: after the fight, and as narration (the
    GM's play action row is at the tool cap)."""
    if s.turn.is_gm and not s.offered(tool):
        if s.turn.phase == "combat":
            raise Refusal(in_combat)
        if s.turn.phase == "play" and s.turn.task == "action":
            raise Refusal(as_action)


def dnd_long_rest(s: Session, m: re.Match[str]) -> None:
    """The GM's long rest for the party, or one named character: hit points, spell slots."""
    what = _("call a long rest")
    _rest_refused_for_gm(
        s,
        "long_rest",
        _("A long rest waits until the fight is over: say “end combat” first."),
        _("Send “long rest” as narration: the rules take a long rest from the GM's narration."),
    )
    s.require("long_rest", what=what, gm_only=True)
    named = m.groupdict().get("target")
    arguments: dict[str, Any] = {}
    if named:
        arguments["character_id"] = resolve(s, dnd_roster(s), named).id
    result = s.call("long_rest", **arguments)
    rested = []
    for entry in result["rested"]:
        hp = entry["hp_after"]
        text = _("%(who)s %(hp)s/%(max)s HP") % {
            "who": entry["character_name"],
            "hp": hp["current"],
            "max": hp["max"],
        }
        if entry.get("spell_slots"):
            text += _(", spell slots back")
        if entry.get("concentration_ended"):
            # A spell held by concentration does not outlast the rest.
            text += ", " + _("%(spell)s ends") % {"spell": entry["concentration_ended"]}
        rested.append(text)
    text = (
        _("%(who)s finishes a long rest: %(rested)s.")
        if named
        else _("The party finishes a long rest: %(rested)s.")
    ) % {"who": result["rested"][0]["character_name"], "rested": "; ".join(rested)}
    for skipped in result.get("skipped", ()):
        text += " " + _("%(who)s gains nothing from it (%(reason)s).") % {
            "who": skipped["character_name"],
            "reason": skipped["reason"],
        }
    s.say(text)


def dnd_short_rest(s: Session, m: re.Match[str]) -> None:
    """A short rest: a player's bound character (or, the GM's, a named one) spends Hit Dice, the
    rules rolling each die + CON and healing that much."""
    what = _("take a short rest")
    _rest_refused_for_gm(
        s,
        "short_rest",
        _("A short rest waits until the fight is over: say “end combat” first."),
        _(
            "Send “short rest for <name>, N hit dice” as narration: the rules take a short rest "
            "from the GM's narration."
        ),
    )
    s.require("short_rest", what=what, seen_by_all=True)
    dice = _count(m["dice"]) if m["dice"] else 1
    named = m.groupdict().get("target")
    if named and _clean_name(_normalize(named)).lower() not in SELF_WORDS:
        char_id = resolve(s, dnd_roster(s), named).id
    elif s.turn.is_gm and not s.turn.character_id:
        raise Refusal(_("Name who rests, like: short rest for Ilsa, 2 hit dice."))
    else:
        char_id = acting_character(s, what=what)
    result = s.call("short_rest", character_id=char_id, dice=dice)
    roll, pool = result["roll"], result["hit_dice"]
    values = {
        "who": result["character_name"],
        "dice": result["dice_spent"],
        "expression": roll["expression"],
        "total": roll["total"],
        "healed": result["healed"],
        "hp": result["hp_after"],
        "max": result["hp_max"],
        "left": pool["current"],
    }
    spent = (
        ngettext(
            "%(who)s spends %(dice)s Hit Die (%(expression)s = %(total)s) and recovers "
            "%(healed)s HP (now %(hp)s/%(max)s);",
            "%(who)s spends %(dice)s Hit Dice (%(expression)s = %(total)s) and recovers "
            "%(healed)s HP (now %(hp)s/%(max)s);",
            values["dice"],
        )
        % values
    )
    left = ngettext("%(left)s Hit Die left.", "%(left)s Hit Dice left.", values["left"]) % values
    if result.get("concentration_ended"):
        # A spell held by concentration does not outlast the rest.
        left += " " + _("%(spell)s ends.") % {"spell": result["concentration_ended"]}
    if result.get("revived"):
        # A stable character at 0 HP whom the Hit Dice healed is conscious again.
        left += " " + _("%(who)s comes to.") % values
    s.say(f"{spent} {left}")


# The requester's own character, as a grant names it ("give me 5 temp hp", "I gain 5 temp hp").
SELF_WORDS = frozenset({"i", "me", "myself", "self"})
YOU_WORDS = frozenset({"you", "yourself"})  # the GM the line is said to


def dnd_damage(s: Session, m: re.Match[str]) -> None:
    """The GM deals damage outside an attack ("damage goblin 9 fire"): the rules apply it
    (resistances, temporary hit points, 0 HP, a concentration save). The room hears it as an
    attack's hit is told; a monster's hit points, and what its resistances made of the damage,
    reach the GM alone. The damage type is the domain's to accept or refuse."""
    if not s.turn.is_gm:
        raise Refusal(_("Only the GM deals damage outside an attack; attack instead."))
    if not s.offered("damage_apply") and s.turn.phase == "combat" and s.turn.task == "action":
        # The GM's combat action row is at the tool cap; the narration row has damage_apply.
        raise Refusal(
            _(
                "Send “%(said)s” as narration: in combat the GM deals damage outside an attack "
                "from the narration."
            )
            % {"said": _echo(m.group(0))}
        )
    s.require("damage_apply", what=_("deal damage"), seen_by_all=True)
    amount = _amount(m["amount"])
    low, high = s.bounds("damage_apply", "amount", (0, 10000))
    if not low <= amount <= high:
        raise Refusal(_("Deal %(low)s to %(high)s damage.") % {"low": low, "high": high})
    roster = dnd_roster(s)
    target = resolve(s, roster, m["target"])
    arguments: dict[str, Any] = {"target_id": target.id, "amount": amount}
    if m["type"]:
        arguments["damage_type"] = m["type"].lower()
    effect = s.call("damage_apply", **arguments)
    name = _name_of(roster, target.id)
    values = {"target": name, "amount": amount, "type": arguments.get("damage_type", "")}
    said = (
        _("%(target)s takes %(amount)s %(type)s damage.")
        if values["type"]
        else _("%(target)s takes %(amount)s damage.")
    ) % values
    # What the creature's body made of it: a character's is everyone's to read (its hit
    # points show in the panels), a monster's stat block the GM's.
    adjusted = _damage_adjusted_text(name, amount, effect)
    if target.kind != "monster" and adjusted:
        said += " " + adjusted
    if target.kind != "monster" and (absorbed := effect.get("absorbed_by_temp_hp")):
        said += " " + _("Temporary hit points absorb %(absorbed)s of it.") % {"absorbed": absorbed}
    if state := _struck_text(s, name, target.kind, effect):
        said += " " + state
    s.say(said)
    if target.kind == "monster":
        gm_text = " ".join(filter(None, [adjusted, _monster_hp_text(name, effect)]))
        if gm_text:
            s.say(gm_text, audience="gm")
    _if_the_last_foe_fell(s, roster, target, effect)


def _damage_adjusted_text(target: str, amount: int, effect: Mapping[str, Any]) -> str:
    """What immunity, resistance or vulnerability made of the damage, or "" when it is as
    said (or the result, read at a player's view, does not say)."""
    adjusted = effect.get("adjusted")
    if adjusted is None or adjusted == amount:
        return ""
    values = {"target": target, "type": effect.get("damage_type") or "", "adjusted": adjusted}
    if adjusted == 0:
        return _("%(target)s is immune to %(type)s damage.") % values
    if adjusted < amount:
        return _("Resistance halves it to %(adjusted)s.") % values
    return _("Vulnerability doubles it to %(adjusted)s.") % values


def dnd_temp_hp(s: Session, m: re.Match[str]) -> None:
    """Temporary hit points for the requester's own character, or (the GM) anyone's. They do not
    stack: the domain keeps the higher amount, and the narration says which one stayed."""
    what = _("grant temporary hit points")
    s.require("temp_hp_grant", what=what)
    amount = _amount(m["amount"])
    low, high = s.bounds("temp_hp_grant", "amount", (1, 999))
    if not low <= amount <= high:
        raise Refusal(
            _("Grant %(low)s to %(high)s temporary hit points.") % {"low": low, "high": high}
        )
    named = m.groupdict().get("target")
    mine = named is None or _clean_name(_normalize(named)).lower() in SELF_WORDS
    if mine and s.turn.is_gm and not s.turn.character_id:
        # Not acting_character: in combat that is the monster up, not the GM.
        raise Refusal(
            _("As the GM you have no character: name who gains them (“grant Ilsa 5 temp hp”).")
        )
    roster = dnd_roster(s)
    if mine:
        target = _own_entity(s, roster, what=_("gain temporary hit points"))
    else:
        target = resolve(s, roster, named)
    name = _name_of(roster, target.id) if target in roster else target.name
    if target.kind == "monster" and not s.turn.is_gm:
        raise Refusal(
            _("Only the GM can grant %(target)s temporary hit points.") % {"target": name}
        )
    if target.kind != "monster":
        # A character's hit points show in everyone's panels; a monster's are the GM's alone,
        # so a GM-only action may keep those secret.
        s.require("temp_hp_grant", what=what, seen_by_all=True)
    outcome = s.try_call("temp_hp_grant", target_id=target.id, amount=amount)
    if not outcome.ok:
        if outcome.error_code == "authorization_denied" and not s.turn.is_gm:
            raise Refusal(
                _("Only %(target)s's player or the GM can grant %(target)s temporary hit points.")
                % {"target": name}
            )
        raise Refusal(_refusal(outcome.error_message or ""))
    result = outcome.structured
    granted = _("%(target)s is granted temporary hit points.") % {"target": name}
    if "temp_hp_after" not in result:  # answered at the public view: no numbers to say
        s.say(granted)
        return
    text = _temp_hp_text(name, amount, result)
    if target.kind == "monster" and s.turn.trigger_audience != "gm":
        # A monster's hit points are the GM's alone, even when the GM grants them in public.
        s.say(granted)
        s.say(text, audience="gm")
        return
    s.say(text)


def _temp_hp_text(name: str, amount: int, result: Mapping[str, Any]) -> str:
    """A grant's result: "Ilsa gains 5 temporary hit points.", or which amount stayed."""
    before, after = result["temp_hp_before"], result["temp_hp_after"]
    values = {"target": name, "amount": amount, "before": before, "after": after}
    if not result["replaced"] and before == amount:
        return (
            ngettext(
                "%(target)s already has %(after)s temporary hit point (they do not stack).",
                "%(target)s already has %(after)s temporary hit points (they do not stack).",
                after,
            )
            % values
        )
    if not result["replaced"]:
        return (
            ngettext(
                "%(target)s keeps %(after)s temporary hit point (more than %(amount)s: "
                "they do not stack).",
                "%(target)s keeps %(after)s temporary hit points (more than %(amount)s: "
                "they do not stack).",
                after,
            )
            % values
        )
    if before:
        return (
            ngettext(
                "%(target)s gains %(after)s temporary hit point (in place of %(before)s: they do "
                "not stack).",
                "%(target)s gains %(after)s temporary hit points (in place of %(before)s: they do "
                "not stack).",
                after,
            )
            % values
        )
    return (
        ngettext(
            "%(target)s gains %(after)s temporary hit point.",
            "%(target)s gains %(after)s temporary hit points.",
            after,
        )
        % values
    )


def dnd_stand_up(s: Session, m: re.Match[str]) -> None:
    what = _("stand up")
    if s.turn.is_gm and not s.offered("stand_up") and s.offered("condition_remove"):
        # Outside combat the GM's row has no stand_up (the tool cap): prone is lifted instead.
        raise Refusal(_("Outside combat, lift it as a ruling: “remove prone from <name>”."))
    s.require("stand_up", what=what, seen_by_all=True)
    if m.groupdict().get("who"):
        # "the goblin stands up": who stands is named, as who attacks is (a player's own
        # character only), by the same rules.
        character_id = _named_attacker(s, dnd_roster(s), m["who"])
    else:
        # The GM stands whoever is up (a player's character too) by the rules a player's
        # stand up goes through: half its speed, on its own turn.
        up = _current_combatant(s) if s.turn.is_gm and not s.turn.character_id else None
        character_id = up or acting_character(s, what=what)
    result = s.call("stand_up", character_id=character_id)
    values = {
        "who": s.plain(result["character_name"]),
        "cost": result["movement_cost"],
        "left": result["movement_left"],
    }
    if result["movement_left"] is None:
        s.say(_("%(who)s gets back up.") % values)
    elif result["movement_left"]:
        s.say(_("%(who)s stands up, using %(cost)s ft of movement (%(left)s ft left).") % values)
    else:
        s.say(_("%(who)s stands up, using %(cost)s ft of movement (no movement left).") % values)


COMBAT_ACTION_VERBS = {"dodge": "dodge", "dash": "dash", "disengage": "disengage", "hide": "hide"}


def _named_in_text(roster: list[Entity], entity_id: str) -> str:
    """A creature as a sentence names it: "the goblin", "goblin 2", "Ilsa"."""
    entity = next(e for e in roster if e.id == entity_id)
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
    name = _spoken(dataclasses.replace(entity, name=shown[entity.id]))
    return _("the %(name)s") % {"name": name} if _takes_the(entity, name) else name


# How a shove is said: knocked down ("prone", "over") or pushed ("back", "away").
SHOVE_PUSHES = frozenset({"back", "away"})


def dnd_shove(s: Session, m: re.Match[str]) -> None:
    """ "I shove goblin 2 [prone | away]", "push goblin 2 back": the rules' shove, one attack of
    the Attack action for the speaker's character (a monster's when the GM narrates it)."""
    if s.turn.phase != "combat" or not s.offered("combat_action"):
        raise NotUnderstood
    roster = dnd_roster(s)
    try:
        target = resolve(s, roster, m["target"])
    except NotHere:
        # "push through the crowd", "push the door open": no creature to shove.
        raise NotUnderstood from None
    what = _("shove")
    s.require("combat_action", what=what, seen_by_all=True)
    if m.groupdict().get("who"):
        shover_id = _named_attacker(s, roster, m["who"])
    else:
        shover_id = acting_character(s, what=what)
    pushed = m["verb"].lower().startswith("push") or (m["how"] or "").lower() in SHOVE_PUSHES
    result = s.call(
        "combat_action",
        character_id=shover_id,
        action="shove",
        target_id=target.id,
        shove="push" if pushed else "prone",
    )
    contest = result["contest"]
    values = {
        "who": s.plain(result["character_name"]),
        "target": _named_in_text(roster, target.id),
        "total": contest["shover_total"],
        "against": contest["target_total"],
        "skill": _("Acrobatics") if contest["target_skill"] == "acrobatics" else _("Athletics"),
    }
    if not result["success"]:
        text = _(
            "%(who)s tries to shove %(target)s: Athletics %(total)s against %(skill)s "
            "%(against)s is not enough."
        )
    elif result.get("blocked"):
        text = _(
            "%(who)s wins the shove against %(target)s (Athletics %(total)s against %(skill)s "
            "%(against)s), but %(blocked)s."
        )
        values["blocked"] = s.plain(result["blocked"])
    elif result["effect"] == "pushed":
        text = _(
            "%(who)s shoves %(target)s 5 ft away: Athletics %(total)s against %(skill)s "
            "%(against)s."
        )
    else:
        text = _(
            "%(who)s shoves %(target)s prone: Athletics %(total)s against %(skill)s %(against)s."
        )
    s.say(text % values)


def dnd_help(s: Session, m: re.Match[str]) -> None:
    """ "I help Bram [attack the goblin]": the Help action by the rules for the speaker's
    character in combat, aiding the ally's next attack on the foe named or, unnamed, the foe
    beside the helper (none beside it: the ally's next ability check). Where the rules' tool
    is not offered, the GM rules on it, as the reply for a line not understood says."""
    if s.turn.phase != "combat" or not s.offered("combat_action"):
        raise NotUnderstood
    what = _("take the Help action")
    s.require("combat_action", what=what, seen_by_all=True)
    helper_id = acting_character(s, what=what)
    roster = dnd_roster(s)
    ally = resolve(s, roster, m["ally"])
    if ally.id == helper_id:
        raise Refusal(_("You cannot help yourself: name an ally."))
    arguments: dict[str, Any] = {"character_id": helper_id, "action": "help", "ally_id": ally.id}
    if m["target"]:
        # "help Bram with the rope": a task, not a foe; the GM rules on it.
        arguments["target_id"] = _resolve_said(s, roster, m["target"]).id
    else:
        helper = next(e for e in roster if e.id == helper_id)
        beside = [
            e
            for e in roster
            if e.alive
            and e.status != "down"
            and e.kind != helper.kind
            and (squares := _squares(helper, e)) is not None
            and squares <= 1
        ]
        if beside:
            arguments["target_id"] = _nearest_first(helper, beside)[0].id
    result = s.call("combat_action", **arguments)
    values = {"who": s.plain(result["character_name"]), "ally": s.plain(result["ally_name"])}
    if result.get("target_id"):
        foe = next(e for e in roster if e.id == result["target_id"])
        shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))
        name = _spoken(dataclasses.replace(foe, name=shown[foe.id]))
        values["target"] = _("the %(name)s") % {"name": name} if _takes_the(foe, name) else name
        text = _(
            "%(who)s helps %(ally)s: %(ally)s's next attack on %(target)s has advantage, until "
            "%(who)s's next turn."
        )
    else:
        text = _(
            "%(who)s helps %(ally)s: %(ally)s's next ability check has advantage, until "
            "%(who)s's next turn."
        )
    s.say(text % values)


def dnd_hide(s: Session, m: re.Match[str]) -> None:
    """ "I hide": in combat the Hide action by the rules (it spends the action, against the
    foes' passive Perception); elsewhere, or where that tool is not offered, the Dexterity
    (Stealth) check it comes down to, as "check stealth" makes it, at the DC given ("I hide
    dc 15"), or with none when none is given (_stealth_unjudged)."""
    if s.turn.phase == "combat" and s.offered("combat_action"):
        if m["dc"] is not None:
            # The rules' Hide action sets its own bar: a DC said would be silently ignored.
            raise Refusal(
                _(
                    "In combat, hiding is the Hide action, against the foes' passive "
                    "Perception: say “hide”, without a DC."
                )
            )
        _combat_action(s, "hide", None, bonus=bool(m["bonus"]))
        return
    if m["dc"] is None:
        _stealth_unjudged(s)
        return
    check = re.fullmatch(r"(?P<what>stealth)" + DC, f"stealth dc {m['dc']}", re.IGNORECASE)
    if check is None:  # the pattern matches its own words
        raise NotUnderstood
    dnd_check(s, check)


def _stealth_unjudged(s: Session) -> None:
    """Hiding with no DC named and no Hide action: the Stealth check with no DC. Who is
    watching, and their Perception, the rules do not hold (there is no scene), so a default DC
    would judge it against nothing: the total is said for the GM to compare."""
    what = _("make an ability check")
    s.require("ability_check", what=what)
    character_id = acting_character(s, what=what)
    result = s.call("ability_check", character_id=character_id, skill="stealth")
    values = {"who": s.plain(result["character_name"]), "total": result["total"]}
    text = _(
        "%(who)s hides: Stealth %(total)s. The GM compares it with the Perception of whoever "
        "is watching."
    )
    # How the d20 was rolled, if a condition or a Help made it two: as a check's reply says.
    s.say(text % values + _mode_text(s, result))


def dnd_combat_action(s: Session, m: re.Match[str]) -> None:
    """Dash, Disengage or Dodge by the rules, on the acting character's turn (a monster's when
    the GM narrates it). Where the rules' tool is not offered (outside combat, or the GM's
    action row), the GM rules on it, as the reply for a line not understood says."""
    who, bonus = m.groupdict().get("who"), bool(m["bonus"])
    if not s.offered("combat_action"):
        if who and s.turn.is_gm and _current_combatant(s) is not None:
            _monster_action_not_here(s, who)
        raise NotUnderstood
    _combat_action(s, COMBAT_ACTION_VERBS[m["action"].lower()], who, bonus=bonus)


def _monster_action_not_here(s: Session, who: str) -> None:
    """ "goblin 2 hides" sent by the GM as an action, whose row has no combat_action: refused
    with whose turn it is, off the creature's turn; on a monster's, with where the rules take
    it. Returns (not understood) for a name nobody here has, or a character on its turn."""
    roster = [_combatant(entry) for entry in _read_combat(s)["order"]]
    try:
        actor = _named_attacker(s, roster, who)
    except Refusal:  # "the wind dashes": nobody here, so not understood as an action at all
        s.suggestions.clear()
        return
    current = _read_combat(s)["current"]
    if actor != current:
        raise Refusal(
            _("It is %(current)s's turn, not %(who)s's: %(who)s acts on its own turn.")
            % {"current": _name_of(roster, current), "who": _name_of(roster, actor)}
        )
    if next(e for e in roster if e.id == actor).kind != "monster":
        return  # a character's action on its turn is its player's to say
    raise Refusal(
        _(
            "Send it as narration: a monster's Hide, Dash, Disengage or Dodge is taken from the "
            "GM's narration."
        )
    )


def _combat_action(s: Session, action: str, who: str | None, *, bonus: bool = False) -> None:
    what = _("take the %(action)s action") % {"action": action.capitalize()}
    s.require("combat_action", what=what, seen_by_all=True)
    if who:
        character_id = _named_attacker(s, dnd_roster(s), who)
    else:
        character_id = acting_character(s, what=what)
    arguments: dict[str, Any] = {"character_id": character_id, "action": action}
    if bonus:
        arguments["bonus_action"] = True
    result = s.call("combat_action", **arguments)
    # A bonus action leaves the action as it was: read after it, in the read the turn's next
    # steps are offered from (one before it would cost a call on every bonus action).
    action_spent = _action_spent(s, character_id) if bonus else None
    values = {
        "who": s.plain(result["character_name"]),
        "gained": result.get("movement_gained"),
        "left": result.get("movement_left"),
        "total": (result.get("check") or {}).get("total"),
        "dc": result.get("dc"),
        # The rules name the taker's kind: a hiding monster's DC is the party's own Perception.
        "monster": result["character_kind"] == "monster",
    }
    bonus_text = ""
    if result.get("bonus_action"):
        bonus_text = (
            " "
            + (
                _("That was a bonus action; %(who)s's action is already spent.")
                if action_spent
                else _("That was a bonus action: %(who)s's action is left.")
                if action_spent is False
                else _("That was a bonus action.")
            )
            % values
        )
    if result.get("hidden") and action in ("dash", "disengage"):
        # The domain marks a hidden monster's action so: its movement left says how far it
        # went, so the room hears only that it acted, the GM (whose answer holds it) the rest.
        unseen = (
            _("%(who)s dashes, unseen.") if action == "dash" else _("%(who)s disengages, unseen.")
        )
        s.say(unseen % values + bonus_text)
        if values["left"] is None:
            return
        s.say(_combat_action_text(action, result, values), audience="gm")
        return
    s.say(_combat_action_text(action, result, values) + bonus_text)


def _action_spent(s: Session, character_id: str) -> bool | None:
    """Whether the combat's status shows `character_id`'s action spent (the turn's latest read,
    or a new one); None where none shows its budget."""
    if s.combat_read is None or s.combat_read_stale:
        if not s.offered("combat_status"):
            return None
        _read_combat(s)
    entry = next((e for e in s.combat_read.get("order", ()) if e.get("id") == character_id), None)
    budget = (entry or {}).get("budget") or {}
    return budget["action"] < 1 if "action" in budget else None


def _combat_action_text(action: str, result: Mapping[str, Any], values: Mapping[str, Any]) -> str:
    """What the rules did for a combat action, all of it (movement left included)."""
    if action == "hide":
        if result.get("check") is None:
            text = _(
                "%(who)s hides, with no foe able to notice: hidden, %(who)s attacks with "
                "advantage and is attacked with disadvantage until attacking."
            )
        elif values["dc"] is None or not values["monster"]:
            # A character hides from monsters, whose passive Perception is their stat block's:
            # the table hears whether the Stealth beat it, not the number (a player's answer
            # has none; the GM's has it, and this line is the table's).
            if result["hidden"]:
                text = _(
                    "%(who)s hides: Stealth %(total)s beats the foes' best passive Perception. "
                    "Hidden, %(who)s attacks with advantage and is attacked with disadvantage "
                    "until attacking."
                )
            else:
                text = _(
                    "%(who)s tries to hide: Stealth %(total)s is not enough against the foes' "
                    "best passive Perception, so %(who)s is still seen."
                )
        elif result["hidden"]:
            text = _(
                "%(who)s hides: Stealth %(total)s beats the foes' best passive Perception "
                "%(dc)s. Hidden, %(who)s attacks with advantage and is attacked with "
                "disadvantage until attacking."
            )
        else:
            text = _(
                "%(who)s tries to hide: Stealth %(total)s against the foes' best passive "
                "Perception %(dc)s is not enough, so %(who)s is still seen."
            )
    elif action == "dash" and values["gained"] == 0:
        # Grappled, restrained or otherwise held: the action is spent, its speed of 0 doubled.
        text = _("%(who)s dashes, but with a speed of 0 gains no movement this turn.")
    elif action == "dash":
        text = _("%(who)s dashes: %(gained)s ft more movement this turn (%(left)s ft left).")
    elif action == "disengage":
        text = _(
            "%(who)s disengages: moving this turn provokes no opportunity attacks (%(left)s ft "
            "of movement left)."
        )
    else:
        text = _(
            "%(who)s takes the Dodge action: until their next turn, attacks against them have "
            "disadvantage and their Dexterity saves have advantage."
        )
    return text % values


# A condition as the GM says it: "poison the zombie", "knock Ilsa prone".
CONDITION_VERBS = {
    "poison": "poisoned", "blind": "blinded", "deafen": "deafened", "frighten": "frightened",
    "charm": "charmed", "paralyze": "paralyzed", "paralyse": "paralyzed", "stun": "stunned",
    "restrain": "restrained", "petrify": "petrified",
}  # fmt: skip
# How a creature is knocked: "knock Ilsa down" (prone), "knock Ilsa out" (unconscious); one
# that falls asleep is unconscious too (as a sleep spell leaves it).
KNOCKED = {
    "prone": "prone", "down": "prone", "unconscious": "unconscious", "out": "unconscious",
    "asleep": "unconscious",
}  # fmt: skip


def _subject_is_present(s: Session, m: re.Match[str]) -> list[Entity] | None:
    """A condition said of its subject ("the sun wakes up", "everyone falls unconscious"): a
    subject that names no creature here, not even misspelt, is answered with those present at
    any seat, phase or audience, before a refusal that would take it for a creature. The
    roster read for it, if any, is returned for the handler to reuse."""
    if m.groupdict().get("target") is None or m.start("target") != 0:
        return None
    if not (s.offered("combat_status") or s.offered("campaign_get")):
        return None
    roster = dnd_roster(s)
    wanted = _clean_name(_normalize(m["target"])).lower()
    if (
        _named(roster, m["target"]) is None
        and not _of_kind(roster, m["target"])
        and _close_name(roster, wanted) is None
    ):
        resolve(s, roster, m["target"])
    return roster


# English plurals no ending rule makes ("wolves", "men"); "dwarfs" is said too.
IRREGULAR_PLURALS = {
    "man": ("men",), "woman": ("women",), "child": ("children",), "person": ("people",),
    "wolf": ("wolves",), "thief": ("thieves",), "elf": ("elves",), "dwarf": ("dwarves", "dwarfs"),
    "werewolf": ("werewolves",), "half-elf": ("half-elves",), "mouse": ("mice",),
    "louse": ("lice",), "goose": ("geese",), "ox": ("oxen",), "knife": ("knives",),
    "fungus": ("fungi",), "cyclops": ("cyclopes",), "sheep": ("sheep",), "deer": ("deer",),
    "fish": ("fish",),
}  # fmt: skip


def _plurals(name: str) -> tuple[str, ...]:
    """`name` (lowercase) in the plural, its last word pluralised as English does: "giant
    rats", "foxes", "harpies", "wolves"."""
    head, _sep, last = name.rpartition(" ")
    if last in IRREGULAR_PLURALS:
        forms = IRREGULAR_PLURALS[last]
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        forms = (last + "es",)
    elif len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        forms = (last[:-1] + "ies",)
    else:
        forms = (last + "s",)
    return tuple(f"{head} {form}" if head else form for form in forms)


def _of_kind(roster: list[Entity], name: str) -> list[Entity]:
    """The living creatures a plural names ("the goblins", "the giant rats", "the wolves"):
    those whose whole name it is in the plural (not "orcs" for an "Orc Captain"); none when
    `name` names a creature itself."""
    if _named(roster, name, prefix=False) is not None:
        return []
    wanted = _clean_name(_normalize(name)).lower()
    # Numbered as the domain numbers a kind ("Goblin 2"): one of the goblins.
    return [
        e
        for e in roster
        if e.alive and wanted in _plurals(re.sub(r" \d+$", "", _normalize(e.name).lower()))
    ]


def _condition_target(s: Session, roster: list[Entity], m: re.Match[str], command: str) -> Entity:
    """Whom a condition is given or lifted from: a plural that fits several creatures is asked
    about one at a time (`command` with each name, to send), never applied to all at once;
    one that fits a single living creature is that creature."""
    kind = _of_kind(roster, m["target"])
    if len(kind) > 1:
        names = [_name_of(roster, e.id) for e in kind]
        s.suggestions += [command % {"target": name} for name in names]
        if s.turn.phase == "combat":
            _state_read_turn(s)
        raise Refusal(
            _("“%(said)s” are %(names)s: name one at a time, as in “%(example)s”.")
            % {
                "said": _echo(m["target"]),
                "names": _and_list(names),
                "example": s.suggestions[-len(names)],
            }
        )
    return kind[0] if kind else resolve(s, roster, m["target"])


def dnd_condition(s: Session, m: re.Match[str]) -> None:
    """The GM gives a creature a condition; the rules refuse one it is immune to, in words
    the table reads ("Zombie is immune to being poisoned")."""
    subject_roster = _subject_is_present(s, m)
    s.require(
        "condition_add", what=_("give a creature a condition"), gm_only=True, seen_by_all=True
    )
    verb = m.groupdict().get("verb")
    # "Ilsa faints" names no word for it: fainting is passing out.
    knocked = m.groupdict().get("knocked") or "out"
    condition = CONDITION_VERBS[verb.lower()] if verb else KNOCKED[knocked.lower()]
    roster = subject_roster or dnd_roster(s)
    # Each one asked about, as the help says it: "poison Goblin 2", "knock Goblin 2 prone".
    command = f"{verb.lower()} %(target)s" if verb else f"knock %(target)s {condition}"
    target = _condition_target(s, roster, m, command)
    result = s.call("condition_add", target_id=target.id, condition=condition)
    values = {"target": _name_of(roster, target.id), "condition": condition}
    if condition == "unconscious" and "prone" in result.get("conditions", ()):
        # The rules drop an unconscious creature prone as well: the table is told both.
        text = _("%(target)s is now %(condition)s and prone.") % values
    else:
        text = _("%(target)s is now %(condition)s.") % values
    # Unable to act, a caster loses its concentration: the spell ends with the condition.
    if ended := _concentration_text(s, values["target"], result):
        text += " " + ended
    s.say(text)


# A condition as the GM names it lifted: "cure Ilsa of poison", "Ilsa is no longer afraid".
CONDITION_WORDS = {
    **{c: c for c in CONDITION_VERBS.values()},
    **CONDITION_VERBS,
    "grappled": "grappled", "incapacitated": "incapacitated", "invisible": "invisible",
    "prone": "prone", "unconscious": "unconscious", "fear": "frightened",
    "afraid": "frightened", "blindness": "blinded", "deafness": "deafened",
    "paralysis": "paralyzed", "petrification": "petrified", "invisibility": "invisible",
    "asleep": "unconscious",
}  # fmt: skip
# What names the condition lifted: "poison", "being poisoned", "the frightened condition".
LIFTED = r"(?:the\s+)?(?:being\s+)?(?P<condition>.+?)(?:\s+condition)?"


def dnd_condition_remove(s: Session, m: re.Match[str]) -> None:
    """The GM lifts a creature's condition; a player is told whose ruling that is."""
    subject_roster = _subject_is_present(s, m)
    s.require(
        "condition_remove",
        what=_("remove a creature's condition"),
        gm_only=True,
        seen_by_all=True,
    )
    verb = m.groupdict().get("verb")
    # Waking lifts unconscious, the one condition it names.
    said = "unconscious" if m.groupdict().get("wake") else verb[2:] if verb else m["condition"]
    condition = CONDITION_WORDS.get(said.lower())
    known = (s.parameter("condition_remove", "condition") or {}).get("enum") or sorted(
        set(CONDITION_WORDS.values())
    )
    if condition not in known:
        raise Refusal(
            _("“%(what)s” is not a condition (%(known)s).")
            % {"what": _echo(said), "known": ", ".join(known)}
        )
    roster = subject_roster or dnd_roster(s)
    if m.groupdict().get("target") is None:
        # "wake up" names nobody: asked whom, with a name from the table as the example.
        present = _present(s, roster)
        raise Refusal(
            _("Say who wakes up, as in “wake %(example)s”. Present: %(known)s.")
            % {"example": present[0], "known": ", ".join(present)}
            if present
            else _("Nobody is here to wake up.")
        )
    command = (
        "wake %(target)s" if m.groupdict().get("wake") else f"remove {condition} from %(target)s"
    )
    target = _condition_target(s, roster, m, command)
    result = s.call("condition_remove", target_id=target.id, condition=condition)
    values = {"target": _name_of(roster, target.id), "condition": condition}
    if condition == "unconscious" and "prone" in result.get("conditions", ()):
        # Waking up leaves a creature on the ground until it stands (the rules keep it prone).
        s.say(_("%(target)s is no longer %(condition)s, but still prone.") % values)
    else:
        s.say(_("%(target)s is no longer %(condition)s.") % values)


def dnd_end_turn(s: Session, m: re.Match[str]) -> None:
    if m.groupdict().get("word"):
        _turn_ended_in_a_word(s)
    s.require("combat_end_turn", what=_("end a turn"), seen_by_all=True)
    current = _current_combatant(s)
    if (named := m.groupdict().get("target")) and current:
        # "end Ilsa's turn": that turn only; once it has passed, no later one is ended.
        roster = dnd_roster(s)
        meant = resolve(s, roster, named).id
        if meant != current:
            raise Refusal(
                _("It is %(current)s's turn, not %(named)s's.")
                % {"current": _name_of(roster, current), "named": _name_of(roster, meant)}
            )
    if not s.turn.is_gm and current and current != s.turn.character_id:
        # Said in the table's words before the rules answer in theirs ("does not control").
        raise Refusal(
            _("It is %(current)s's turn: wait for yours.")
            % {"current": _name_of(dnd_roster(s), current)}
        )
    # Whose turn this ends: a second "end turn" sent for the same turn (another tab, a turn
    # running beside it) is refused instead of ending the next combatant's turn unplayed.
    # (Named only to a server whose tool takes it: an older one refuses unknown arguments.)
    named = current and s.parameter("combat_end_turn", "character_id") is not None
    result = s.call("combat_end_turn", **({"character_id": current} if named else {}))
    roster = dnd_roster(s)
    ended = next((e for e in roster if e.id == result["ended"]), None)
    values = {
        "ended": _name_of(roster, result["ended"]),
        "current": _name_of(roster, result["current"]),
        "round": result["round"],
    }
    if result["ended"] == result["current"]:
        # The last one standing: the go comes straight back to them.
        text = _("%(current)s acts again (round %(round)s): nobody else is left standing.")
        text = text % values + _turn_held_text(roster, result["current"])
    else:
        # One wording for every hand-over, so the room reads who ended, who is next and when.
        if s.turn.is_gm and ended is not None and ended.kind != "monster":
            # The player did not end it: the room is told who did.
            text = _("The GM ends %(ended)s's turn.") % values
        else:
            text = _("%(ended)s ends the turn.") % values
        text += " " + _next_up_text(roster, result["current"], result["round"])
    s.say(text + _spells_ended_text(result))
    s.offered_turn = OfferedTurn("combat", result["round"], result["current"])
    _turn_suggestions(s, roster, result["current"])


def _next_up_text(roster: list[Entity], current: str, round_: int | None) -> str:
    """Who the turn passed to and what that turn holds, in the same words whatever passed it
    (an ended turn, a death save that killed): "Ilsa acts next (round 3). Ilsa is dying:
    their turn is a death save." """
    if round_ is None:  # an older server does not say the round
        text = _("%(current)s is up.") % {"current": _name_of(roster, current)}
    else:
        text = _("%(current)s acts next (round %(round)s).") % {
            "current": _name_of(roster, current),
            "round": round_,
        }
    return text + _turn_held_text(roster, current)


def _turn_held_text(roster: list[Entity], current: str) -> str:
    """What the turn just handed to `current` holds when it is down (" Ilsa is dying: their
    turn is a death save."), else "": its player is told before trying to act; a stable one
    makes no death save (the rules refuse it)."""
    up = next((e for e in roster if e.id == current), None)
    if up is None or up.status != "down":
        return ""
    values = {"current": _name_of(roster, current)}
    if "stable" in up.conditions:
        return " " + _("%(current)s is stable and unconscious.") % values
    return " " + _("%(current)s is dying: their turn is a death save.") % values


def _spells_ended_text(result: Mapping[str, Any]) -> str:
    """The spells whose duration ran out as the next turn started (" Ash's Bless ends: its
    duration ran out."), or "" when none did or the server does not say."""
    return "".join(
        " "
        + _("%(caster)s's %(spell)s ends: its duration ran out.")
        % {"caster": ended["caster_name"], "spell": ended["spell_name"]}
        for ended in result.get("spells_ended") or ()
    )


def _turn_ended_in_a_word(s: Session) -> None:
    """ "next": in combat, "end turn" said by the one whose turn it is, or by the GM for a
    monster. Outside combat the word names nothing to end (not understood), and the GM does
    not end a character's turn on a word: they are told the command that would."""
    if s.turn.phase != "combat":
        raise NotUnderstood
    current = _current_combatant(s)
    if s.turn.is_gm and current:
        roster = dnd_roster(s)
        up = next((e for e in roster if e.id == current), None)
        if up is not None and up.kind != "monster":
            command = _("end %(name)s's turn") % {"name": _name_of(roster, current)}
            s.suggestions.append(command)
            raise Refusal(
                _("It is %(name)s's turn, its player's to end: to end it anyway, say: %(command)s.")
                % {"name": _name_of(roster, current), "command": command}
            )


def _monster_requests(s: Session, text: str) -> list[tuple[str, int, bool]]:
    """(monster key, count, fresh) per kind named: "2 orcs", "a new goblin" (fresh: spawned
    even when one of that kind is still standing from an earlier fight)."""
    spawn = next((t for t in s.turn.tools if t.name == "monster_spawn"), None)
    keys = list(
        (spawn.input_schema["properties"]["monster_key"].get("enum") or []) if spawn else []
    )
    requests: dict[tuple[str, bool], int] = {}
    for part in re.split(r",|\band\b", text):
        part = part.strip()
        if not part:
            continue
        count_match = re.match(r"^(a|an|(?![+-])" + AMOUNT + r")\s+(.+)$", part, re.I)
        count, name = (1, part)
        if count_match:
            word = count_match[1].lower()
            count = COUNT_WORDS[word] if word in ("a", "an") else _amount(word)
            name = count_match[2]
        name = _clean_name(name).lower()
        fresh = name.startswith("new ")
        name = name.removeprefix("new ").strip().replace(" ", "_")
        candidates = [name, name[:-1], name[:-2], name[:-3] + "f"]  # orcs, wolves -> wolf
        key = next((c for c in candidates if c in keys), None)
        if key is None:
            raise Refusal(
                _("I do not know the monster “%(name)s”. Known: %(keys)s.")
                % {"name": _echo(part), "keys": ", ".join(keys)}
            )
        requests[key, fresh] = requests.get((key, fresh), 0) + count
    if sum(requests.values()) > MAX_SPAWN:
        raise Refusal(_("At most %(n)s monsters per action.") % {"n": MAX_SPAWN})
    return [(key, count, fresh) for (key, fresh), count in sorted(requests.items())]


def _spawn_name(s: Session, key: str, known: list[Entity]) -> str | None:
    """A new monster's name: its kind's ("Goblin"), numbered past the names of creatures still
    standing only ("Goblin 2"). The server numbers past every creature it keeps, the dead of
    earlier fights too. None (the server's choice) when the tool takes no name, or no creature
    of the kind tells the kind's name as the server spells it."""
    if s.parameter("monster_spawn", "name") is None:
        return None
    kind = key.replace("_", " ")
    bases = [
        base
        for e in known
        if e.kind == "monster" and e.monster_key == key
        and (base := re.sub(r" \d+$", "", e.name)).lower() == kind
    ]  # fmt: skip
    if not bases:
        return None
    return _free_name(bases[0], _names_in_use(known))


def dnd_start_combat(s: Session, m: re.Match[str]) -> None:
    if s.turn.phase == "combat":
        # Only the GM can end it: a player is told so, not to say "end combat".
        if not s.turn.is_gm:
            raise Refusal(_("Only the GM can start combat."))
        raise Refusal(_("Combat is already running; say “end combat” first."))
    s.require("combat_start", what=_("start combat"), gm_only=True, seen_by_all=True)
    wanted = _monster_requests(s, m["monsters"]) if m["monsters"] else []
    campaign = s.call("campaign_get")["campaign"]
    pcs = [
        _entity(s.call("character_get", character_id=i)["character"])
        for i in sorted(campaign["character_ids"], key=_id_key)
    ]
    monsters = [
        _entity(s.call("character_get", character_id=i)["character"])
        for i in sorted(campaign["monster_ids"], key=_id_key)
    ]
    living = [e for e in monsters if e.alive]
    if not wanted and not living:
        # A fight of the party alone is a slip, not a scene: nothing is written (not even
        # the phase) until a foe is named.
        raise Refusal(
            _(
                "There is no foe to fight here: name one to start, "
                "e.g. “start combat with a goblin”."
            )
        )
    if s.turn.phase == "lobby":
        s.call("phase_set", phase="play")
    chosen: list[Entity] = []
    reused: list[Entity] = []
    if wanted:
        for key, count, fresh in wanted:
            reuse = [] if fresh else [e for e in living if e.monster_key == key][:count]
            chosen += reuse
            reused += reuse
            for _n in range(count - len(reuse)):
                arguments = {"monster_key": key}
                if name := _spawn_name(s, key, pcs + monsters + chosen):
                    arguments["name"] = name
                spawned = s.call("monster_spawn", **arguments)["character"]
                chosen.append(_entity(spawned))
    else:
        chosen = living
    participants = [e for e in pcs if e.alive] + chosen
    result = s.call("combat_start", participant_ids=sorted(e.id for e in participants))
    order = result["combat"]["order"]
    roster = [_combatant(entry) for entry in order]
    # Namesakes told apart as every later line tells them ("Goblin 2"), not two "Goblin"s.
    shown = _display_names(roster)
    listing = ", ".join(
        f"{name} ({entry['initiative']})" for name, entry in zip(shown, order, strict=True)
    )
    s.say(
        s.pick(
            _("Roll for initiative! The order: %(order)s."),
            _("Weapons are drawn. Initiative: %(order)s."),
            _("Combat begins. In order of initiative: %(order)s."),
        )
        % {"order": listing}
    )
    if reused:
        # Named, not spawned: the table hears which ones come back as they were (wounds and
        # all; "a new goblin" would have been fresh).
        s.say(
            _("Back in the fight from before: %(names)s.")
            % {"names": ", ".join(e.name for e in reused)}
        )
    first = shown[0]
    # A character at 0 HP may go first: its first turn is told as any handed to it later.
    s.say(_("%(name)s acts first.") % {"name": first} + _turn_held_text(roster, order[0]["id"]))
    combat = result["combat"]
    if combat.get("round") is not None and combat.get("current"):
        s.offered_turn = OfferedTurn("combat", combat["round"], combat["current"])
    _turn_suggestions(s, roster, order[0]["id"])


def dnd_initiative(s: Session, m: re.Match[str]) -> None:
    if s.turn.phase != "combat":
        raise Refusal(_("Initiative is rolled for everyone when the GM starts combat."))
    raise Refusal(
        _("Initiative was rolled when combat began; it is %(current)s's turn.")
        % {"current": _name_of(dnd_roster(s), _current_combatant(s) or "")}
    )


def dnd_end_combat(s: Session, m: re.Match[str]) -> None:
    s.require("combat_end", what=_("end combat"), gm_only=True, seen_by_all=True)
    result = s.call("combat_end")
    s.turn_offered = True  # no turn is left to offer
    rounds = result["rounds"]
    s.say(
        s.pick(
            ngettext(
                "The fighting stops after %(rounds)s round. Catch your breath.",
                "The fighting stops after %(rounds)s rounds. Catch your breath.",
                rounds,
            ),
            ngettext(
                "Combat ends after %(rounds)s round; the dust settles.",
                "Combat ends after %(rounds)s rounds; the dust settles.",
                rounds,
            ),
        )
        % {"rounds": rounds}
    )


def set_phase(s: Session, m: re.Match[str]) -> None:
    s.require("phase_set", what=_("set the phase"), gm_only=True, seen_by_all=True)
    phase = m["phase"].lower()
    result = s.call("phase_set", phase=phase)
    if result["previous_phase"] == result["phase"]:
        s.say(_("The campaign is already in %(phase)s.") % {"phase": result["phase"]})
        return
    s.say(
        _("The campaign moves from %(previous)s to %(phase)s.")
        % {"previous": result["previous_phase"], "phase": result["phase"]}
    )


def _looker(s: Session, roster: list[Entity]) -> str:
    """Who looks: the requester's character by name, or the GM."""
    if s.turn.character_id:
        name = _name_of(roster, s.turn.character_id)
        if name == s.turn.character_id:  # not on the field: read it
            name = s.call("character_get", character_id=name)["character"]["name"]
        return name
    return _("The GM") if s.turn.is_gm else _("Someone")


def dnd_sheet(s: Session, m: re.Match[str]) -> None:
    """ "what's my hp?", "show my character": the requester's character in one line, as the
    rules show it to its player (a character's numbers are in everyone's panels anyway)."""
    if not s.turn.character_id:
        if s.turn.is_gm:
            raise Refusal(_("As the GM you have no character: “look at <name>” reads anyone's."))
        raise Refusal(_("You have no character yet; create one or ask the GM to bind you to one."))
    s.require("character_get", what=_("read your character"))
    sheet = s.call("character_get", character_id=s.turn.character_id)["character"]
    if m.groupdict().get("spells"):
        _spells_said(s, sheet)
        return
    hp = sheet.get("hp") or {}
    values = {
        "name": sheet["name"],
        "kind": sheet.get("template") or sheet["kind"],
        "level": sheet.get("level", 1),
        "current": hp.get("current"),
        "max": hp.get("max"),
        "ac": sheet.get("ac"),
        "speed": sheet.get("speed"),
    }
    text = (
        _("%(name)s (%(kind)s, level %(level)s): %(current)s/%(max)s HP") % values
        if hp
        else _("%(name)s (%(kind)s, level %(level)s): %(status)s")
        % {**values, "status": _status(sheet)}
    )
    text += _temp_text(hp)
    if sheet.get("ac") is not None:
        text += ", " + _("AC %(ac)s") % values
        # The AC read counts a spell's bonus: which spell gives it is said beside it.
        if wards := [e for e in sheet.get("effects") or () if e.get("ac_bonus")]:
            shown = [
                _("%(spell)s +%(bonus)s") % {"spell": e["name"], "bonus": e["ac_bonus"]}
                for e in wards
            ]
            text += " (" + ", ".join(shown) + ")"
    if sheet.get("speed") is not None:
        text += ", " + _("speed %(speed)s ft") % values
    # The rules' sheet lists every attack the character can make (its Unarmed Strike too); a
    # character read from an older server has only the attacks it stores.
    listed = (sheet.get("sheet") or {}).get("attacks") or sheet.get("attacks") or ()
    if attacks := [a["name"] for a in listed]:
        text += "; " + _("attacks: %(attacks)s") % {"attacks": ", ".join(attacks)}
    if conditions := sheet.get("conditions"):
        text += "; " + _("conditions: %(conditions)s") % {"conditions": ", ".join(conditions)}
    if held := sheet.get("concentration"):
        text += "; " + _("concentrating on %(held)s") % {
            "held": _held_text(held, sheet.get("id", ""))
        }
    s.say(text + ".", audience="requester")


def _temp_text(hp: Mapping[str, Any]) -> str:
    """What follows a creature's "current/max HP" when it has temporary hit points."""
    return " " + _("(+%(temp)s temporary)") % {"temp": hp["temp"]} if hp.get("temp") else ""


def _spells_said(s: Session, sheet: dict[str, Any]) -> None:
    """ "what spells do I have?", "how many spell slots do I have left?": the spells the
    character knows, with their level, and its slots left per level."""
    spells = (sheet.get("sheet") or {}).get("spells") or ()
    slots = sorted((sheet.get("spell_slots") or {}).items(), key=lambda item: int(item[0]))
    if not spells and not slots:
        s.say(
            _("%(name)s knows no spells and has no spell slots.") % {"name": sheet["name"]},
            audience="requester",
        )
        return
    parts = []
    if spells:
        known = [
            _("%(spell)s (cantrip)") % {"spell": spell["name"]}
            if not spell.get("level")
            else _("%(spell)s (level %(level)s)")
            % {"spell": spell["name"], "level": spell["level"]}
            for spell in spells
        ]
        parts.append(
            _("%(name)s's spells: %(spells)s.")
            % {"name": sheet["name"], "spells": ", ".join(known)}
        )
    if slots:
        left = [
            _("level %(level)s: %(current)s of %(max)s")
            % {"level": level, "current": slot.get("current"), "max": slot.get("max")}
            for level, slot in slots
        ]
        parts.append(_("Spell slots left: %(slots)s.") % {"slots": ", ".join(left)})
    s.say(" ".join(parts), audience="requester")


def _combat_asked(s: Session) -> tuple[dict[str, Any], list[Entity]] | None:
    """The combat and its order for a question about turns, or None once the asker has been
    told no fight is running."""
    if s.turn.phase != "combat":
        s.say(_("No fight is running, so there are no turns or rounds."), audience="requester")
        return None
    s.require("combat_status", what=_("read the combat"))
    combat = _read_combat(s)
    return combat, [_combatant(entry) for entry in combat["order"]]


def dnd_whose_turn(s: Session, m: re.Match[str]) -> None:
    """ "whose turn is it?", "what round is it?": the combat's current turn and round, told
    to the one who asks (an answer, not news for the table)."""
    if (read := _combat_asked(s)) is None:
        return
    combat, roster = read
    values = {"who": _name_of(roster, combat["current"]), "round": combat["round"]}
    if combat["current"] == s.turn.character_id:
        text = _("It is your turn, %(who)s (round %(round)s).")
    else:
        text = _("It is %(who)s's turn (round %(round)s).")
    s.say(text % values, audience="requester")


def dnd_whose_next(s: Session, m: re.Match[str]) -> None:
    """ "who's next?": whose turn comes after the current one in initiative order, as the rules
    pass it (the dead are passed over; after the last, the first in a new round), told to the
    one who asks."""
    if (read := _combat_asked(s)) is None:
        return
    combat, roster = read
    index = next((i for i, e in enumerate(roster) if e.id == combat["current"]), 0)
    round_ = combat["round"]
    for _step in roster:
        index += 1
        if index >= len(roster):
            index, round_ = 0, round_ + 1
        if roster[index].alive:
            break
    following = roster[index].id
    values = {
        "who": _name_of(roster, following),
        "after": _name_of(roster, combat["current"]),
        "round": round_,
    }
    if following == s.turn.character_id:
        text = _("You are next, %(who)s, after %(after)s (round %(round)s).")
    else:
        text = _("%(who)s is next, after %(after)s (round %(round)s).")
    s.say(text % values, audience="requester")


def dnd_combat_summary(s: Session, m: re.Match[str]) -> None:
    """ "who's winning?": the round, how each side fares as the table sees it (statuses, and
    how many foes still stand) and which side the count favours, told to the one who asks."""
    if s.turn.phase != "combat":
        s.say(_("No fight is running, so nobody is winning."), audience="requester")
        return
    s.require("combat_status", what=_("read the combat"))
    combat = _read_combat(s)
    roster = [_combatant(entry) for entry in combat["order"]]
    shown = dict(zip((e.id for e in roster), _display_names(roster), strict=True))

    def fares(side: list[Entity]) -> str:
        return _and_list([f"{shown[e.id]} ({_state_text(e)})" for e in side])

    def standing(side: list[Entity]) -> int:
        return sum(1 for e in side if _conscious(e))

    party = [e for e in roster if e.kind != "monster"]
    foes = [e for e in roster if e.kind == "monster"]
    text = _("Round %(round)s.") % {"round": combat["round"]}
    if party:
        text += " " + _("The party: %(fares)s.") % {"fares": fares(party)}
    if foes:
        values = {"fares": fares(foes), "up": standing(foes), "all": len(foes)}
        if values["up"]:
            text += " " + _("The foes: %(fares)s; %(up)s of %(all)s still standing.") % values
        else:
            text += " " + _("The foes: %(fares)s; none still standing.") % values
    if foes and not standing(foes):
        verdict = _("No foe is left standing: the party has won.")
    elif party and not standing(party):
        verdict = _("Nobody in the party is standing: the foes are winning.")
    elif not party or not foes:
        verdict = _("There is only one side in this fight.")
    else:
        # The share of each side still on its feet: one goblin of two against a whole party
        # favours the party.
        ours = standing(party) * len(foes)
        theirs = standing(foes) * len(party)
        if ours > theirs:
            verdict = _("The party has the upper hand.")
        elif ours < theirs:
            verdict = _("The foes have the upper hand.")
        else:
            verdict = _("It could go either way.")
    s.say(text + " " + verdict, audience="requester")


def _hurt(e: Entity) -> bool:
    return e.status in ("wounded", "bloodied", "down")


def _unhurt(e: Entity) -> bool:
    return e.status == "unhurt"


def _conscious(e: Entity) -> bool:
    return e.alive and e.status != "down" and "unconscious" not in e.conditions


# Asked of a creature ("is the goblin dead?", "is Ilsa poisoned?"): what makes it so, from
# its status and conditions as the table sees them, and the word the answer says it with.
ASKED_STATES: dict[str, tuple[Callable[[Entity], bool], str]] = {
    "dead": (lambda e: e.status == "dead", "dead"),
    "alive": (lambda e: e.alive, "alive"),
    "down": (lambda e: e.status == "down", "down"),
    "dying": (lambda e: e.status == "down" and "stable" not in e.conditions, "dying"),
    "stable": (lambda e: "stable" in e.conditions, "stable"),
    "unconscious": (lambda e: e.alive and not _conscious(e), "unconscious"),
    "conscious": (_conscious, "conscious"),
    "awake": (_conscious, "awake"),
    "hurt": (_hurt, "hurt"),
    "wounded": (_hurt, "wounded"),
    "injured": (_hurt, "injured"),
    "bloodied": (lambda e: e.status in ("bloodied", "down"), "bloodied"),
    "unhurt": (_unhurt, "unhurt"),
    "ok": (_unhurt, "unhurt"),
    "okay": (_unhurt, "unhurt"),
    "fine": (_unhurt, "unhurt"),
}
# What "how many enemies" counts: every monster standing or down, of any kind.
FOE_WORDS = frozenset({"enemies", "foes", "monsters", "baddies", "bad guys", "opponents"})


def _state_text(e: Entity) -> str:
    """How a creature fares, said after "is": "bloodied", "wounded and prone"."""
    shown = [c for c in e.conditions if c != "dead"]
    return _and_list([e.status, *shown])


def dnd_is(s: Session, m: re.Match[str]) -> None:
    """ "is the goblin dead?", "is Ilsa poisoned?": yes or no, from the creature's status and
    conditions (as "look at" reads them), told to the one who asks. Asked of no creature here
    ("is the door locked?"), it is not understood as such."""
    if m.groupdict().get("target") is None:
        # "am I poisoned?": the asker's own character, if bound to one.
        if not s.turn.character_id:
            raise NotUnderstood
        roster = dnd_roster(s)
        _say_state(s, roster, _own_entity(s, roster, what=_("be asked about")), m["state"])
        return
    roster = dnd_roster(s)
    if kind := _of_kind(roster, m["target"]):
        # "are the goblins dead?": how each fares, which answers it for all of them.
        s.say(
            " ".join(
                _("%(name)s is %(fares)s.")
                % {"name": _name_of(roster, e.id), "fares": _state_text(e)}
                for e in kind
            ),
            audience="requester",
        )
        return
    wanted = _clean_name(_normalize(m["target"])).lower()
    if _named(roster, m["target"]) is None and _close_name(roster, wanted) is None:
        raise NotUnderstood
    _say_state(s, roster, resolve(s, roster, m["target"]), m["state"])


def _say_state(s: Session, roster: list[Entity], target: Entity, state: str) -> None:
    """Yes or no to whether `target` is in the `state` asked about, to the one who asks."""
    said = state.lower()
    if said in ASKED_STATES:
        holds, word = ASKED_STATES[said]
        yes = holds(target)
    else:
        word = CONDITION_WORDS[said]
        yes = word in target.conditions
    values = {"name": _name_of(roster, target.id), "state": word, "fares": _state_text(target)}
    text = _("Yes: %(name)s is %(state)s.") if yes else _("No: %(name)s is %(fares)s.")
    s.say(text % values, audience="requester")


def dnd_how_many(s: Session, m: re.Match[str]) -> None:
    """ "how many goblins are there?", "how many enemies are left?": the living creatures a
    plural names (every monster, for "enemies"), counted and named, told to the one who asks."""
    roster = dnd_roster(s)
    said = _clean_name(_normalize(m["target"])).lower()
    if said in FOE_WORDS:
        counted = [e for e in roster if e.alive and e.kind == "monster"]
    else:
        counted = _of_kind(roster, m["target"])
    if not counted:
        known = ", ".join(_present(s, roster)) or _("nobody")
        s.say(
            _("There are no %(said)s here. Present: %(known)s.")
            % {"said": _echo(said), "known": known},
            audience="requester",
        )
        return
    names = [_name_of(roster, e.id) for e in counted]
    s.say(
        ngettext("%(count)s is here: %(names)s.", "%(count)s are here: %(names)s.", len(names))
        % {"count": len(names), "names": _and_list(names)},
        audience="requester",
    )


def dnd_where(s: Session, m: re.Match[str]) -> None:
    """ "where am I?": in combat, the asker's square on the battle map and the nearest foe;
    "where is the goblin?": its square, and how far it is from the asker's; otherwise what
    there is to read instead (no map is kept outside combat)."""
    me = None
    named = m.groupdict().get("target")
    if named and _clean_name(_normalize(named)).lower() in SELF_WORDS:
        named = None
    if s.turn.phase == "combat" and s.offered("combat_status"):
        roster = dnd_roster(s)
        me = next((e for e in roster if e.id == s.turn.character_id), None)
        if named:
            _where_is(s, roster, me, resolve(s, roster, named))
            return
    if me is None or me.position is None:
        s.say(
            _(
                "Only a combatant has a square, on the battle map in combat: “describe” says "
                "who is here (or say “help” for what I understand)."
            ),
            audience="requester",
        )
        if s.turn.phase != "combat":
            s.suggestions.append(_("describe"))
        return
    text = _("%(who)s stands at (%(x)s, %(y)s) on the battle map.") % {
        "who": _name_of(roster, me.id),
        "x": me.position[0],
        "y": me.position[1],
    }
    foes = _nearest_first(
        me, [e for e in roster if e.alive and e.status != "down" and e.kind != me.kind]
    )
    if foes and (squares := _squares(me, foes[0])) is not None:
        text += " " + ngettext(
            "The nearest foe, %(foe)s, is %(n)s square away.",
            "The nearest foe, %(foe)s, is %(n)s squares away.",
            squares,
        ) % {"foe": _name_of(roster, foes[0].id), "n": squares}
    s.say(text, audience="requester")


def _where_is(s: Session, roster: list[Entity], me: Entity | None, target: Entity) -> None:
    """A combatant's square, told to the requester, and how many squares it is from the
    asker's own (if on the map)."""
    values: dict[str, Any] = {"target": _name_of(roster, target.id)}
    if target.position is None:
        # A monster hiding from this reader is on no map it reads.
        s.say(_("%(target)s is nowhere on your battle map.") % values, audience="requester")
        return
    values.update(x=target.position[0], y=target.position[1])
    squares = _squares(me, target) if me is not None and me.id != target.id else None
    if squares is None:
        text = _("%(target)s stands at (%(x)s, %(y)s) on the battle map.") % values
    else:
        assert me is not None  # a distance is measured from the asker's square
        values.update(n=squares, who=_name_of(roster, me.id))
        text = (
            ngettext(
                "%(target)s stands at (%(x)s, %(y)s), %(n)s square from %(who)s.",
                "%(target)s stands at (%(x)s, %(y)s), %(n)s squares from %(who)s.",
                squares,
            )
            % values
        )
    s.say(text, audience="requester")


def dnd_what_now(s: Session, m: re.Match[str]) -> None:
    """ "what can I do?": in combat, the options of the turn as it stands, for the asker (as a
    new turn offers them); outside it, the few things that can be done now, with "help" for
    the rest."""
    more = _("Say “help” for every command.")
    if s.turn.phase == "combat" and s.offered("combat_status"):
        combat = _read_combat(s)
        roster = [_combatant(entry) for entry in combat["order"]]
        _turn_suggestions(s, roster, combat["current"])
        _state_read_turn(s)
        up = next((e for e in roster if e.id == combat["current"]), None)
        values = {
            "who": _name_of(roster, combat["current"]),
            "options": _or_list([f"“{o}”" for o in s.suggestions]),
        }
        if not s.suggestions and up is not None and up.kind == "monster":
            # A player waiting on a monster is told who plays it, so the table is not stuck.
            text = _("It is %(who)s's turn: the GM acts for it; wait for yours.")
        elif not s.suggestions:
            text = _("It is %(who)s's turn: wait for yours.")
        elif combat["current"] == s.turn.character_id:
            text = _("It is your turn, %(who)s: you can say %(options)s.")
        elif up is not None and up.kind == "monster":
            text = _("It is %(who)s's turn, yours to play: you can say %(options)s.")
        else:
            text = _("It is %(who)s's turn: their player acts; you can say %(options)s.")
        s.say(text % values + " " + more, audience="requester")
        return
    if s.turn.phase == "lobby":
        if s.turn.is_gm:
            s.suggestions.append(_("set phase play"))
            text = _("Play has not started: say “set phase play” to start.")
        else:
            text = _("Play starts when the GM says so.")
    elif s.turn.is_gm:
        s.suggestions += [_("describe"), _("start combat")]
        text = _(
            "You can look around (“describe”), call a check (“perception check for <name>”) "
            "or start a fight (“start combat with 2 goblins”)."
        )
    else:
        s.suggestions += [_("describe"), _("check perception")]
        text = _(
            "You can look around (“describe”), make a check (“check perception”) or roll "
            "dice (“roll 1d20”)."
        )
    s.say(text + " " + more, audience="requester")


# A line addressed to a creature ("Ilsa, make a dex save"): the verb as said of it.
ADDRESSED_VERBS = {
    "make": "makes", "roll": "rolls", "attack": "attacks", "hit": "hits", "strike": "strikes",
    "shoot": "shoots", "stab": "stabs", "slash": "slashes", "swing": "swings", "move": "moves",
    "walk": "walks", "step": "steps", "go": "goes", "stand": "stands", "get": "gets",
    # A blow ("Ilsa, punch the goblin"): the Unarmed Strike, as "Ilsa punches the goblin" is.
    "punch": "punches", "kick": "kicks", "head-butt": "head-butts", "headbutt": "headbutts",
}  # fmt: skip
# The groups that name who acts in a form said of a creature ("<attacker> attacks …").
SUBJECTS = ("attacker", "target", "who")


def _said_of(system_id: str, m: re.Match[str]) -> Parse | None:
    """The named form an addressed line is said of its creature in ("Ilsa, make a dex save":
    "Ilsa makes a dex save"), with that creature its subject; None when there is none."""
    line = f"{m['addressed'].strip()} {ADDRESSED_VERBS[m['verb'].lower()]}{m['rest']}"
    for parsed in _marked_parses(system_id, line):
        found = parsed.match
        subject = next((g for g in SUBJECTS if found.groupdict().get(g) is not None), None)
        if parsed.intent.handler is not dnd_addressed and subject and found.start(subject) == 0:
            return parsed
    return None


def dnd_addressed(s: Session, m: re.Match[str]) -> None:
    """ "Ilsa, make a dex save", "Goblin 2, attack Ilsa": the line said of that creature
    ("Ilsa makes a dex save"), by the named form's own rules (a player names only their own
    character). Addressed to no creature here ("Okay, attack the goblin"), or with no named
    form for what is said, it is not understood as such."""
    name = m["addressed"].strip()
    try:
        roster = dnd_roster(s)
    except Refusal:  # who is here cannot be read from this seat: not taken as a name
        raise NotUnderstood from None
    # A whole name: an opening word ("Go, attack …") is no creature whose name it begins.
    if _named(roster, name, prefix=False) is None:
        raise NotUnderstood
    said = _said_of(s.turn.system_id, m)
    if said is None:
        raise NotUnderstood
    s.match = said.match
    s.said_in_fiction = said.in_fiction
    s.roster_kept = roster
    try:
        said.intent.handler(s, said.match)
    finally:
        s.roster_kept = None


def dnd_describe(s: Session, m: re.Match[str]) -> None:
    if m.groupdict().get("target") and _clean_name(_normalize(m["target"])).lower() in SELF_WORDS:
        # "look at me": the requester's own character, as "show my character" reads it.
        dnd_sheet(s, m)
        return
    roster = dnd_roster(s)
    if m.groupdict().get("hp"):
        try:
            target = resolve(s, roster, m["target"])
        except NotHere:
            # "I have 5 hp" is no question about a creature named "I have 5".
            if m.groupdict().get("bare_hp"):
                raise NotUnderstood from None
            raise
        _hit_points_said(s, roster, target)
        return
    if m.groupdict().get("spells"):
        _named_spells_said(s, roster, resolve(s, roster, m["target"]))
        return
    if m.groupdict().get("target"):
        target = resolve(s, roster, m["target"])
        # As the table reads it: "Goblin 2" where two living goblins are named "Goblin".
        name = _name_of(roster, target.id)
        if _takes_the(target, name):
            name = _("the %(monster)s") % {"monster": name}
        values = {"name": name, "status": target.status}
        looker = next((e for e in roster if e.id == s.turn.character_id), None)
        if looker is not None and not looker.alive:
            # The dead look at nothing: their player is told what the table can see.
            s.say(_("A look at %(name)s: %(status)s.") % values)
            return
        # The whole room may read it: it names who looks, never "you".
        s.say(
            s.pick(
                _("%(who)s studies %(name)s: %(status)s."),
                _("%(who)s looks %(name)s over: %(status)s."),
            )
            % {"who": _looker(s, roster), **values}
        )
        return
    if s.turn.phase != "combat":
        # Monsters fallen in earlier fights are not "here"; the party's dead still are.
        roster = [e for e in roster if e.alive or e.kind != "monster"]
    if not roster:
        s.say(_("The stage is empty: nobody has a character yet."))
        return
    present = ", ".join(
        f"{shown} ({e.status})" for e, shown in zip(roster, _display_names(roster), strict=True)
    )
    if s.turn.phase == "combat":
        text = s.pick(
            _("Battle rages. On the field: %(present)s."),
            _("Steel and shouting all around: %(present)s."),
        )
    else:
        text = s.pick(
            _("A look around. Here: %(present)s."),
            _("A quiet moment. Present: %(present)s."),
        )
    s.say(text % {"present": present})


def _hit_points_said(s: Session, roster: list[Entity], target: Entity) -> None:
    """ "what's the goblin's hp?": a character's hit points to anyone (they are in everyone's
    panels); a monster's to the GM alone, and to a player the status word the table sees."""
    name = _name_of(roster, target.id)
    if target.kind == "monster" and not s.turn.is_gm:
        s.say(
            _("%(name)s: %(status)s (its hit points are the GM's to know).")
            % {"name": name, "status": target.status},
            audience="requester",
        )
        return
    s.require("character_get", what=_("read its hit points"))
    hp = s.call("character_get", character_id=target.id)["character"].get("hp") or {}
    if not hp:
        s.say(_("%(name)s: %(status)s.") % {"name": name, "status": target.status},
              audience="requester")  # fmt: skip
        return
    text = _("%(name)s: %(current)s/%(max)s HP") % {"name": name, **hp} + _temp_text(hp)
    s.say(text + ".", audience="gm" if target.kind == "monster" else "requester")


def _named_spells_said(s: Session, roster: list[Entity], target: Entity) -> None:
    """ "what spells does Ash have?": a character's spells and slots left, read as "what spells
    do I have?" reads the asker's own. The rules show a player another character's sheet but
    only a monster's name, conditions and effects: its stat block is the GM's to know."""
    if target.kind == "monster" and not s.turn.is_gm:
        s.say(
            _("%(name)s: its spells are the GM's to know.") % {"name": _name_of(roster, target.id)},
            audience="requester",
        )
        return
    s.require("character_get", what=_("read its spells"))
    _spells_said(s, s.call("character_get", character_id=target.id)["character"])


# The handlers whose named target `_resolve_said` reads: said in the fiction's words, it may
# be a thing, not a creature.
SAID_TARGETS: frozenset[Callable[[Session, re.Match[str]], None]] = frozenset(
    {dnd_attack, dnd_move_beside, dnd_help}
)


def _target_here(s: Session, parsed: Parse) -> None:
    """For a line to be offered, not sent ("can I kick the door?", "can I attack the orc?"):
    raise as the line itself would, sent, when the target it names is nobody here
    (NotUnderstood for one said in the fiction's words, the refusal with those present or a
    near miss's "Did you mean" otherwise), so that no line is offered that would not be acted
    on. Only the SAID_TARGETS' lines that name a target are looked at: one read of who is
    here (the combat's, which the line sent would read first too); none for the rest."""
    if parsed.intent.handler is dnd_addressed:
        parsed = _said_of(s.turn.system_id, parsed.match) or parsed
    intent, match = parsed.intent, parsed.match
    named = match.groupdict().get("target")
    if intent.handler not in SAID_TARGETS or not named or NEAREST_FOE.fullmatch(_normalize(named)):
        return
    try:
        roster = dnd_roster(s)
    except Refusal:  # who is here cannot be read from this seat: the line says so, sent
        return
    s.match = match  # a near miss is asked about as this line, corrected
    s.said_in_fiction = parsed.in_fiction
    try:
        _resolve_said(s, roster, named)
    finally:
        s.match = None
        s.said_in_fiction = False


def repeated(s: Session, m: re.Match[str]) -> None:
    """ "attack the goblin twice", "roll 1d20 3 times": each is its own roll, judged by the
    rules on its own, so one is sent at a time; the command once is offered, if it would be
    acted on (`_target_here`: "kick the door twice" is answered as "kick the door" is).
    Anything else said twice is not understood as such."""
    parsed = next(_marked_parses(s.turn.system_id, m["command"]), None)
    if parsed is None:
        raise NotUnderstood
    _target_here(s, parsed)
    s.suggestions.append(m["command"])
    raise Refusal(
        _("One at a time: say “%(command)s”, then say it again.") % {"command": m["command"]}
    )


# -- narrative --------------------------------------------------------------------------------


# Odds as a table says them, in the oracle's words.
ODDS_WORDS = {
    "50/50": "even",
    "50 50": "even",
    "fifty fifty": "even",
    "even odds": "even",
    "evens": "even",
    "even chance": "even",
    "coin flip": "even",
    "coin toss": "even",
    # As a table hedges: "is the door locked? probably".
    "probably": "likely",
    "probably not": "unlikely",
    "almost certainly": "very_likely",
    "almost certainly not": "very_unlikely",
}
# Odds said after an unquoted question: after its "?", a comma or dash, or in brackets.
ODDS_AFTER = re.compile(
    r"(?:(?<=\?)|\s*[,;:–—]|\s+-|\s*(?=[(\[]))\s*[(\[]?(?P<odds>[\w /-]+?)[)\]]?[.!…]*\s*$"
)


# A yes-or-no question's first word: the oracle can answer it as asked.
YES_NO = re.compile(
    r"(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|has|have|had|may|"
    r"might|must)\b",
    re.IGNORECASE,
)
# Odds as named, in the oracle's words or a table's ("very likely", "50/50").
ODDS_NAMED = (
    "(?:"
    + "|".join(
        sorted(
            [x.replace("_", r"[\s_-]+") for x in LIKELIHOODS]
            + [re.escape(w).replace(r"\ ", r"\s+") for w in ODDS_WORDS],
            key=len,
            reverse=True,
        )
    )
    + ")"
)
# "is the door locked? likely": a yes-or-no question and the odds said after it.
QUESTION_WITH_ODDS = re.compile(
    r"(?P<question>" + YES_NO.pattern + r"[^?\"“”]*\?)\s*[,;:–—-]?\s*(?P<odds>" + ODDS_NAMED + ")",
    re.IGNORECASE,
)


# A "gm only" mark ending an unquoted question, with what sets it apart.
GM_ONLY_AFTER = re.compile(r"[\s,;:(\[–—-]*\bgm[\s_-]*only\b[\s)\].!]*$", re.IGNORECASE)


def _likelihood(text: str) -> str | None:
    """The oracle's likelihood for odds as typed ("Very-likely", "50/50"), or None."""
    key = " ".join(re.split(r"[\s_-]+", text.strip().lower()))
    key = ODDS_WORDS.get(key, key).replace(" ", "_")
    return key if key in LIKELIHOODS else None


def _unquoted_question(text: str) -> tuple[str, str]:
    """An unquoted question and its odds ("is it raining? likely"); words after it that are
    no odds belong to the question, asked at even odds."""
    text = text.strip()
    found = ODDS_AFTER.search(text)
    likelihood = _likelihood(found["odds"]) if found else None
    if found is None or likelihood is None:
        return text, "even"
    return text[: found.start()].strip(), likelihood


# What the oracle's "and" or "but" means, after its answer.
ORACLE_TWISTS = {
    "yes, and": gettext_lazy("yes, and something more happens"),
    "yes, but": gettext_lazy("yes, but with a catch"),
    "no, and": gettext_lazy("no, and it gets worse"),
    "no, but": gettext_lazy("no, but something comes of it"),
}


ORACLE_ANSWERS = {"yes": gettext_lazy("yes"), "no": gettext_lazy("no")}


def nar_oracle(s: Session, m: re.Match[str]) -> None:
    s.require("oracle_ask", what=_("ask the oracle"))
    # "gm only" made the action itself secret (ScriptedAgent.action_audience): it is no odds.
    if m.groupdict().get("unquoted") is not None:
        question, likelihood = _unquoted_question(GM_ONLY_AFTER.sub("", m["unquoted"]))
    else:
        question = m["question"].strip()
        odds = GM_ONLY_MARK.sub(" ", m["likelihood"] or "").strip(" ,;:()[]-–—")
        likelihood = _likelihood(odds) if odds else "even"
        if likelihood is None:
            raise Refusal(
                _("Likelihood “%(given)s” is not one of %(known)s.")
                % {
                    "given": _echo(m["likelihood"]),
                    "known": ", ".join(x.replace("_", " ") for x in LIKELIHOODS),
                }
            )
    if not question:
        raise Refusal(
            _("Ask the oracle a yes-or-no question, like: ask the oracle “Is it locked?” likely")
        )
    result = s.call("oracle_ask", question=question, likelihood=likelihood)
    # The odds asked at are said, so the table can weigh the answer; a twist is put in words,
    # and the number is said to be the d100 roll, against the most that answers yes.
    answer = str(ORACLE_TWISTS.get(result["result"]) or ORACLE_ANSWERS[result["answer"]])
    values = {
        "question": question[:1].upper() + question[1:],  # shown as a sentence; asked as typed
        "odds": ODDS_SAID[likelihood],
        "answer": answer[:1].upper() + answer[1:],
        "roll": result["roll"],
        "threshold": result.get("threshold"),
    }
    roll = (
        _("rolled %(roll)s on d100; yes on %(threshold)s or less")
        if values["threshold"] is not None
        else _("rolled %(roll)s on d100")
    ) % values
    # Two shapes, picked as other narration picks, each a whole sentence.
    s.say(
        s.pick(
            _("The oracle answers “%(question)s” at %(odds)s odds: %(answer)s (%(roll)s)."),
            _("Asked “%(question)s” at %(odds)s odds, the oracle answers: %(answer)s (%(roll)s)."),
        )
        % {**values, "roll": roll}
    )


def _story_key(text: str) -> str:
    """A clock's name or thread's title as names are compared (case, emoji and end marks
    aside: "advance clock fire" is the "🔥 Fire" clock; a name of marks alone, "!!!", is
    its marks)."""
    plain = " ".join(
        "".join(
            " " if c in EMOJI_PARTS or unicodedata.category(c) == "So" else c for c in text
        ).split()
    )
    # casefold, as the rules compare names: "Straße" is "STRASSE" there.
    return _clean_name(plain).casefold() or plain.casefold() or text.strip().casefold()


def _story_item(
    s: Session,
    kind: str,
    name: str,
    missing: str,
    items: list[dict[str, Any]] | None = None,
    prefer: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """The story's clock or thread (`kind`) by id, else exact name, else name prefix; among
    the matches of the first of those that finds any, one `prefer` accepts (a finished
    namesake must not block a new one), then the oldest. A prefix that fits several names
    is asked about, never guessed. `items`: the ones to choose from, when already read (else
    all, from story_get)."""
    if items is None:
        items = s.call("story_get")[kind]
    label = "name" if kind == "clocks" else "title"
    wanted = _story_key(name)
    for test in (
        lambda c: c["id"].casefold() == wanted,
        lambda c: _story_key(c[label]) == wanted,
        lambda c: _story_key(c[label]).startswith(wanted),
    ):
        matches = [c for c in items if test(c)]
        if matches:
            if prefer is not None:
                matches = [c for c in matches if prefer(c)] or matches
            names = list({_story_key(c[label]): c[label] for c in matches}.values())
            if len(names) > 1:
                asked = (
                    _("Which clock do you mean: %(names)s?")
                    if kind == "clocks"
                    else _("Which thread do you mean: %(names)s?")
                )
                raise Refusal(asked % {"names": _or_list(names)})
            return min(matches, key=lambda c: _id_key(c["id"]))
    known = ", ".join(c[label] for c in items) or _("none")
    raise Refusal(missing % {"name": _echo(name), "known": known})


def _or_list(names: list[str]) -> str:
    """ "Doom", "Doom or Dawn", "Doom, Dawn or Dusk"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s or %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _running_namesake(
    s: Session, kind: str, name: str, running: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """The story's clock or thread (`kind`) that `running` accepts and whose name is `name`
    as "advance clock" and "resolve thread" compare names (case and end marks aside)."""
    label = "name" if kind == "clocks" else "title"
    wanted = _story_key(name)
    same = [c for c in s.call("story_get")[kind] if running(c) and _story_key(c[label]) == wanted]
    return min(same, key=lambda c: _id_key(c["id"])) if same else None


def _clock_said(m: re.Match[str], clocks: list[dict[str, Any]]) -> tuple[str, str, str | None]:
    """The clock's name, its tick word ("twice") and its count ("by 2") as said. A name that
    ends in a tick word ("Knock Twice", "Ring Again") is read whole when a clock is so named:
    that clock, ticked once, rather than "Knock" ticked twice."""
    if m["times"] and m.end("name") == m.start("tail"):
        whole = _story_key(m["name"] + m["tail"])
        if any(whole in (c["id"].casefold(), _story_key(c["name"])) for c in clocks):
            return m["name"] + m["tail"], "", None
    return m["name"], (m["times"] or "").lower(), m["ticks"]


def nar_advance_clock(s: Session, m: re.Match[str]) -> None:
    s.require("clock_advance", what=_("advance a clock"), gm_only=True, seen_by_all=True)
    # Read only for a tick word, which a name may end in: a count out of bounds is refused
    # before anything is read.
    clocks = s.call("story_get")["clocks"] if m["times"] else None
    name, times, count = _clock_said(m, clocks or [])
    ticks = TIMES.get(times, 1) if times else _count(count or "1")
    low, high = s.bounds("clock_advance", "ticks", (-12, 12))
    if ticks == 0 or not low <= ticks <= high:
        raise Refusal(
            _("Advance a clock by 1 to %(high)s segments, or by -1 to %(low)s to empty it.")
            % {"low": low, "high": high}
        )
    # Of the clocks so named, one that can move this way (else the rules say why it cannot).
    clock = _story_item(
        s, "clocks", name, _("There is no clock “%(name)s”. Clocks: %(known)s."),
        prefer=lambda c: c["filled"] < c["segments"] if ticks > 0 else c["filled"] > 0,
        items=clocks,
    )  # fmt: skip
    result = s.call("clock_advance", clock_id=clock["id"], ticks=ticks)
    values = {"name": clock["name"], "filled": result["filled"], "segments": result["segments"]}
    if result["complete"]:
        text = s.pick(
            _("The %(name)s clock fills: %(filled)s/%(segments)s. It is done."),
            _("%(name)s is complete (%(filled)s/%(segments)s). Something happens now."),
        )
    elif ticks < 0:
        text = s.pick(
            _("The %(name)s clock falls back to %(filled)s/%(segments)s."),
            _("%(name)s: %(filled)s of %(segments)s segments filled."),
        )
    else:
        text = s.pick(
            _("The %(name)s clock ticks to %(filled)s/%(segments)s."),
            _("%(name)s: %(filled)s of %(segments)s segments filled."),
        )
    s.say(text % values)


def nar_advance_named_clock(s: Session, m: re.Match[str]) -> None:
    """ "advance Doom", "tick the cult rises": without the word "clock", only a clock's whole
    name (as names are compared) makes it one; anything else is not understood."""
    if not s.offered("story_get"):
        raise NotUnderstood
    clocks = s.call("story_get")["clocks"]
    wanted = _story_key(_clock_said(m, clocks)[0])
    if not any(wanted in (c["id"].casefold(), _story_key(c["name"])) for c in clocks):
        raise NotUnderstood
    nar_advance_clock(s, m)


def nar_create_clock(s: Session, m: re.Match[str]) -> None:
    s.require("clock_create", what=_("create a clock"), gm_only=True, seen_by_all=True)
    name = _given_name(m["name"])
    if not name:
        raise Refusal(_("Give the clock a name, like: create clock Doom with 6 segments"))
    said = m.groupdict()
    size = said.get("segments") or said.get("size") or said.get("size_word")
    if size is None:
        raise Refusal(
            _("How many segments? For example: create clock %(name)s with 6 segments")
            % {"name": name}
        )
    segments = _count(size, SEGMENT_WORDS)
    low, high = s.bounds("clock_create", "segments", (2, 12))
    if segments < low:
        raise Refusal(_("A clock needs at least %(n)s segments.") % {"n": low})
    if segments > high:
        raise Refusal(_("A clock has at most %(n)s segments.") % {"n": high})
    # One running clock per name, as "advance clock" finds it; a complete namesake is done
    # with, so it does not block a new one (advancing prefers the one that can move).
    same = _running_namesake(s, "clocks", name, lambda c: c["filled"] < c["segments"])
    if same is not None:
        raise Refusal(
            _(
                "There is already a clock “%(name)s” (%(filled)s/%(segments)s). "
                "Advance it, or give the new clock another name."
            )
            % {"name": same["name"], "filled": same["filled"], "segments": same["segments"]}
        )
    result = s.call("clock_create", name=name, segments=segments)
    s.say(
        s.pick(
            _("A new clock: %(name)s, %(segments)s segments, empty."),
            _("The %(name)s clock starts at 0/%(segments)s."),
        )
        % {"name": name, "segments": result["segments"]}
    )


def nar_clock_not_deleted(s: Session, m: re.Match[str]) -> None:
    """ "reset clock Doom", "delete the Doom clock": the story keeps its clocks, so the way to
    wind one back is said (a player is told whose clocks they are)."""
    if not s.turn.is_gm:
        raise Refusal(_("Only the GM changes clocks."))
    raise Refusal(
        _("Clocks are not deleted: “advance %(name)s by -N” winds one back N segments.")
        % {"name": _echo(m["name"])}
    )


def _closing_title(text: str) -> str:
    """A title that ends the text: its quotes go, and so does the sentence's full stop
    ("open scene The Tavern."); its own marks ("Ambush!", "Who knows?", "Last breath...")
    stay."""
    title = text.strip().strip('"“”').strip()
    if title.endswith(".") and not title.endswith(".."):
        title = title[:-1].rstrip().strip('"“”').strip()
    return title


# "at" before an unquoted scene title says where the scene is; it is no word of the title.
# Lowercase only: a title's own first word is capitalized ("At World's End").
SCENE_AT = re.compile(r"\s*at\s+(?=[^\s\"“”])")


# "open scene The Docks: fog and bells": after the title's colon, what the players see. A
# colon with no space after it ("The 10:30 Train"), or in a quoted title, is the title's own.
SCENE_DESCRIBED = re.compile(r":\s+")


def nar_open_scene(s: Session, m: re.Match[str]) -> None:
    s.require("scene_start", what=_("open a scene"), gm_only=True, seen_by_all=True)
    said, description = m["title"], ""
    # A quoted title's colon is its own: the description's comes after the closing quote.
    quoted = re.match(r"\s*[\"“][^\"“”]*[\"”]", said)
    if mark := SCENE_DESCRIBED.search(said, quoted.end() if quoted else 0):
        said, description = said[: mark.start()], said[mark.end() :].strip()
        description = description[:1].upper() + description[1:]
    title = _closing_title(said)
    if (at := SCENE_AT.match(said)) and title:
        # "open a scene at the old mill": the place is the title, standing alone now.
        place = _closing_title(said[at.end() :])
        title = place[:1].upper() + place[1:]
    if not title:
        raise Refusal(_("Give the scene a title, like: open scene The Drowned Chapel"))
    arguments = {"title": title}
    if description:
        arguments["description"] = description
    s.call("scene_start", **arguments)
    text = s.pick(
        _("Scene: %(title)s."),
        _("The scene shifts. %(title)s."),
        _("A new scene opens: %(title)s."),
    ) % {"title": title}
    s.say(f"{text} {_sentences([description])}" if description else text)


def nar_end_scene(s: Session, m: re.Match[str]) -> None:
    s.require("scene_end", what=_("end a scene"), gm_only=True, seen_by_all=True)
    scene = s.call("story_get")["scene"]
    if scene is None:
        raise Refusal(_("No scene is running; “open scene <title>” starts one."))
    s.call("scene_end")
    s.say(_("The scene ends: %(title)s.") % {"title": scene["title"]})


def nar_open_thread(s: Session, m: re.Match[str]) -> None:
    s.require("thread_open", what=_("open a thread"), gm_only=True, seen_by_all=True)
    title = _closing_title(m["title"])
    if not title:
        raise Refusal(_("Give the thread a title, like: open thread Who lit the beacon?"))
    # One open thread per title, as "resolve thread" finds it; a resolved one does not block.
    same = _running_namesake(s, "threads", title, lambda t: t["status"] == "open")
    if same is not None:
        raise Refusal(
            _(
                "There is already an open thread “%(title)s”. "
                "Resolve it, or give the new thread another title."
            )
            % {"title": same["title"]}
        )
    s.call("thread_open", title=title)
    s.say(s.pick(_("A new thread: %(title)s."), _("A thread opens: %(title)s.")) % {"title": title})


# What parts a thread's title from how it ended: "Rescue: found", "Rescue - found".
RESOLUTION_MARK = re.compile(r"\s*:\s*|\s+[-–—]\s+")


def _title_and_resolution(said: str, threads: list[dict[str, Any]]) -> tuple[str, str]:
    """ "<title>[: <how>]" split at the colon (or spaced dash) after a thread's whole title,
    for a title with its own ("Act 1: The Heist: they won"); else at the first."""
    splits = [(said, "")] + [
        (said[: mark.start()], said[mark.end() :]) for mark in RESOLUTION_MARK.finditer(said)
    ]
    named = {_story_key(t["title"]) for t in threads} | {t["id"].lower() for t in threads}
    whole = [split for split in splits if _story_key(split[0]) in named]
    if whole:
        title, resolution = max(whole, key=lambda split: len(split[0]))
    else:
        title, resolution = splits[1] if len(splits) > 1 else splits[0]
    return title.strip(), resolution.strip()


def nar_resolve_thread(s: Session, m: re.Match[str]) -> None:
    s.require("thread_resolve", what=_("resolve a thread"), gm_only=True, seen_by_all=True)
    threads = s.call("story_get")["threads"]
    said = m.groupdict().get("said")
    if said is None:
        said = m["title"] + (": " + m["resolution"] if m["resolution"] else "")
    title, resolution = _title_and_resolution(said, threads)
    # Of the threads so named, an open one (else the rules say it is already resolved, with
    # or without another thread open).
    try:
        thread = _story_item(
            s, "threads", title, _("There is no thread “%(name)s”. Threads: %(known)s."),
            items=threads, prefer=lambda t: t["status"] == "open",
        )  # fmt: skip
    except Refusal:
        if any(t["status"] == "open" for t in threads):
            raise
        raise Refusal(_("There is no open thread to resolve.")) from None
    s.call("thread_resolve", thread_id=thread["id"], resolution=resolution)
    text = (
        _("The thread “%(title)s” is resolved: %(resolution)s.")
        if resolution
        else _("The thread “%(title)s” is resolved.")
    )
    s.say(text % {"title": thread["title"], "resolution": resolution.rstrip(".")})


# "gm only", "GM-only", "(gm only)!": the GM's mark of a secret. Searched for on its own (a
# linear scan), so no punctuation around it can hide it from the check.
GM_ONLY_MARK = re.compile(r"\bgm[\s_-]*only\b", re.IGNORECASE)


def _fact_text(raw: str) -> tuple[str, bool]:
    """A fact's text and whether the GM marked it secret. Marked anywhere, it is secret (fail
    closed); marked at the end, the marker and the punctuation around it are not kept."""
    marks = list(GM_ONLY_MARK.finditer(raw))
    text = raw
    if marks and not re.search(r"[^\W_]", raw[marks[-1].end() :]):
        # Nothing before the mark ("record fact gm only"): no fact, not the fact "gm only".
        text = raw[: marks[-1].start()].rstrip(" ,;:([{*\"'“”—–-")
    return text.strip().strip('"“”').strip(), bool(marks)


def nar_record_fact(s: Session, m: re.Match[str]) -> None:
    s.require("fact_add", what=_("record a fact"), gm_only=True)
    text, marked = _fact_text(m["text"])
    if not text:
        raise Refusal(_("Say what the fact is, like: record fact The duke is a vampire gm only"))
    # Recorded in a GM-only action, the fact is as secret as the action itself.
    audience = "gm" if marked or s.turn.trigger_audience == "gm" else "public"
    s.call("fact_add", text=text, audience=audience)
    s.say(
        s.pick(_("Noted: %(text)s"), _("It is established: %(text)s"))
        % {"text": _sentences([text])},
        audience="gm" if audience == "gm" else "trigger",
    )


def _clocks_listed(clocks: list[dict[str, Any]]) -> str:
    """The story's clocks as the story panel lists them: running clocks first, each group in
    the order made, and a finished one marked (its name may be reused by a running clock)."""
    named = []
    for c in sorted(clocks, key=lambda c: c["filled"] >= c["segments"]):
        text = (
            _("%(name)s %(filled)s/%(segments)s (complete)")
            if c["filled"] >= c["segments"]
            else _("%(name)s %(filled)s/%(segments)s")
        )
        named.append(text % {"name": c["name"], "filled": c["filled"], "segments": c["segments"]})
    return ", ".join(named)


def nar_describe(s: Session, m: re.Match[str]) -> None:
    story = s.call("story_get")
    scene = story["scene"]
    parts = [_("No scene is set.")]
    if scene:
        # A description the GM wrote without a closing stop must not run into "Clocks:".
        description = scene["description"].strip()
        values = {
            "title": scene["title"],
            "description": _sentences([description] if description else []),
        }
        parts = [(_("Scene: %(title)s. %(description)s") % values).strip()]
    if story["clocks"]:
        parts.append(_("Clocks: %(clocks)s.") % {"clocks": _clocks_listed(story["clocks"])})
    # Threads are the table's open questions, listed beside the room to everyone.
    open_threads = [t["title"] for t in story["threads"] if t["status"] == "open"]
    if open_threads:
        parts.append(_("Open threads: %(threads)s") % {"threads": _sentences(open_threads)})
    public = [f["text"] for f in story["facts"] if f["audience"] == "public"]
    if public:
        parts.append(_("Known: %(facts)s") % {"facts": _sentences(public)})
    s.say(" ".join(parts))
    # story_get shows a GM every fact, and a player the ones told to them alone too: neither
    # kind may reach a public trigger.
    secret = [f["text"] for f in story["facts"] if f["audience"] == "gm"]
    told = [f["text"] for f in story["facts"] if f["audience"].startswith("player:")]
    if s.turn.is_gm:
        if secret:
            # The room badges a GM-only message as such: its words need not say it again.
            s.say(_("Known: %(facts)s") % {"facts": _sentences(secret)}, audience="gm")
        if told:
            s.say(_("Private to a player: %(facts)s") % {"facts": _sentences(told)}, audience="gm")
    elif told:
        # Said to the requester alone, which the room badges "Private: you".
        s.say(_("Known: %(facts)s") % {"facts": _sentences(told)}, audience="requester")


def nar_cast(s: Session, m: re.Match[str]) -> None:
    """ "who's here?": the story's characters, to the asker. The story places nobody in a
    scene, so who else is there is said to be the GM's to tell; a look shows the scene."""
    names = [c["name"] for c in s.call("campaign_get")["campaign"].get("characters") or []]
    if names:
        text = _(
            "The story's characters: %(names)s. Who else is in the scene is the GM's to say."
        ) % {"names": _and_list(names)}
    else:
        text = _("The story has no characters yet. Who is in the scene is the GM's to say.")
    s.say(text, audience="requester")
    s.suggestions.append(_("look"))


def nar_how_many_clocks(s: Session, m: re.Match[str]) -> None:
    """ "how many clocks are there?": the story's clocks, counted and named, to the asker."""
    clocks = s.call("story_get")["clocks"]
    if not clocks:
        s.say(_("There are no clocks."), audience="requester")
        return
    s.say(
        ngettext(
            "There is %(n)s clock: %(clocks)s.", "There are %(n)s clocks: %(clocks)s.", len(clocks)
        )
        % {"n": len(clocks), "clocks": _clocks_listed(clocks)},
        audience="requester",
    )


# How a clock is asked about: "is the Doom clock full?", "how full is the Doom clock?".
CLOCK_FULL = frozenset({"full", "done", "complete", "finished", "filled"})


def nar_clock_asked(s: Session, m: re.Match[str]) -> None:
    """ "is the Doom clock full?", "how full is the Doom clock?": the clock's segments, read
    from the story, told to the one who asks (not a question for the oracle)."""
    s.require("story_get", what=_("read the story"))
    clock = _story_item(
        s, "clocks", m["name"], _("There is no clock “%(name)s”. Clocks: %(known)s.")
    )
    values = {"name": clock["name"], "filled": clock["filled"], "segments": clock["segments"]}
    state = (m.groupdict().get("state") or "").lower()
    full = clock["filled"] >= clock["segments"]
    if state in CLOCK_FULL:
        text = _("Yes: ") if full else _("No: ")
    elif state == "empty":
        text = _("Yes: ") if clock["filled"] == 0 else _("No: ")
    else:
        text = ""
    s.say(
        text + _("the %(name)s clock is at %(filled)s/%(segments)s.") % values
        if text
        else _("The %(name)s clock is at %(filled)s/%(segments)s.") % values,
        audience="requester",
    )


# "help clocks", "help with the oracle": the commands of one part of the story, by topic.
# Each line is (what a player reads, what the GM reads); None: that seat has no such line.
HELP_TOPICS: dict[str, tuple[Any, tuple[tuple[Any, Any], ...]]] = {
    "oracle": (
        gettext_lazy("The oracle:"),
        (
            (
                gettext_lazy(
                    'ask the oracle "<question>" [impossible|very unlikely|unlikely|even|likely|'
                    "very likely|certain]; even unless you say"
                ),
            )
            * 2,
            (
                gettext_lazy(
                    "or a yes-or-no question with its odds in brackets, e.g. is the door "
                    "locked? (likely)"
                ),
            )
            * 2,
            (
                gettext_lazy(
                    'e.g. ask the oracle "Is the door locked?" likely; it answers yes or no, '
                    'with "and" or "but" when something more happens'
                ),
            )
            * 2,
        ),
    ),
    "clock": (
        gettext_lazy("Clocks:"),
        (
            (
                None,
                gettext_lazy(
                    "create clock <name> [with] N segments (2 to 12), e.g. create clock Doom 6"
                ),
            ),
            (None, gettext_lazy("advance [clock] <name> [by N | twice]; by -1 winds it back")),
            (
                gettext_lazy(
                    "is the <name> clock full?, how full is the <name> clock?, "
                    "how many clocks are there?"
                ),
            )
            * 2,
            (gettext_lazy("Only the GM creates and advances clocks."), None),
        ),
    ),
    "scene": (
        gettext_lazy("Scenes:"),
        (
            (None, gettext_lazy("open scene <title> (it ends the scene before it); end scene")),
            (gettext_lazy("describe, or look (or: what's happening?)"),) * 2,
            (gettext_lazy("Only the GM opens and ends scenes."), None),
        ),
    ),
    "thread": (
        gettext_lazy("Threads:"),
        (
            (None, gettext_lazy("open thread <title>; resolve thread <title>[: how it ended]")),
            (gettext_lazy("The threads are listed beside the room."), None),
            (gettext_lazy("Only the GM opens and resolves threads."), None),
        ),
    ),
    "fact": (
        gettext_lazy("Facts:"),
        (
            (None, gettext_lazy("record fact <text> [gm only] (gm only: only you see it)")),
            (gettext_lazy("list facts"),) * 2,
            (gettext_lazy("Only the GM records facts."), None),
        ),
    ),
}


# Help as a table asks for it: "help me", "please help"; politely or not ("help me, please",
# "pls help", "can you help me?", "I need help"), or as a call to the table ("need help",
# "help us out", "somebody help me"). Never with a name after it: "please help Ash" is the
# Help action.
POLITELY = r"(?:please|pls|plz)"
THANKS = r"(?:thanks|thank\s+you)"
POLITE_BEFORE = r"(?:" + POLITELY + r"(?:\s*,\s*|\s+))?"
# Thanks closes a request as "please" does ("help, thanks"), but opens none.
POLITE_AFTER = r"(?:(?:\s*,\s*|\s+)(?:" + POLITELY + "|" + THANKS + "))?"
# The asking itself, shared by the help list, help with a part of the game and a narrative
# part's own help ("can you help me with clocks?").
HELP_ASKED = (
    r"(?:(?:(?:can|could|would|will)\s+(?:you|someone|somebody|anyone|anybody)"
    r"|someone|somebody|anyone|anybody)\s+(?:" + POLITELY + r"\s+)?help(?:\s+(?:me|us))?(?:\s+out)?"
    r"|(?:i\s+)?need\s+(?:some\s+|your\s+)?help"
    r"|help(?:\s+(?:me|us))?(?:\s+out)?)"
)
# In a GM's narration a whole line "I need help!" or "Help me!" is an NPC's plea, story for
# the players: there only the terse command forms ask the scripted GM ("help", "help spells").
HELP_ASKED_TERSE = r"help"


def _help_topic_pattern(asked: str) -> re.Pattern[str]:
    return re.compile(
        r"(?:" + POLITE_BEFORE + asked + r"(?:\s+(?:with|on|about|for))?|how\s+do\s+i\s+use)"
        r"\s+(?:the\s+)?(?P<topic>oracle|odds|clocks?|scenes?|threads?|facts?)"
        + POLITE_AFTER
        + r"\??",
        re.IGNORECASE,
    )


HELP_TOPIC = _help_topic_pattern(HELP_ASKED)
HELP_TOPIC_TERSE = _help_topic_pattern(HELP_ASKED_TERSE)


def help_topic_text(system_id: str, text: str, *, gm: bool, narration: bool = False) -> str | None:
    """The help of one part of the story asked about ("help clocks"), from this seat; None
    for any other text, or a system without such parts. No grammar intent: like "help", it
    is only help, and the room is not told that the asker was answered privately."""
    pattern = HELP_TOPIC_TERSE if narration else HELP_TOPIC
    asked = pattern.fullmatch(text) if system_id == "narrative" else None
    if asked is None:
        return None
    topic = asked["topic"].lower().removesuffix("s")
    title, lines = HELP_TOPICS["oracle" if topic == "odd" else topic]
    shown = [gm_line if gm else player_line for player_line, gm_line in lines]
    return "\n".join([str(title), *(f"- {line}" for line in shown if line)])


def _sentences(texts: list[str]) -> str:
    return " ".join(t if t.endswith((".", "!", "?")) else f"{t}." for t in texts)


# -- grammar ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Intent:
    pattern: re.Pattern[str]
    handler: Callable[[Session, re.Match[str]], None]


# "you" in a question is the GM it is said to, never a character's name ("what can you cast?").
NOT_YOU = r"(?!(?:you|yourself)\b)"


def _intent(pattern: str, handler: Callable[[Session, re.Match[str]], None]) -> Intent:
    return Intent(re.compile(pattern, re.IGNORECASE), handler)


# The group an intent's pattern sets where its words are the fiction's, not a command's ("walk
# to", "approach", "help Bram with"): the name after them may be a thing's.
FICTION = "fiction"


class Parse(NamedTuple):
    """An intent that reads the line, its match, and whether the target it names was said in
    the fiction's words (`Session.said_in_fiction`): as the rewrite that read it marked it (a
    blow of the body: "kick the door" is read as "attack the door with a kick") or as the
    intent's own words are (its FICTION group)."""

    intent: Intent
    match: re.Match[str]
    in_fiction: bool


# Hit Dice spent on a short rest: "2 hit dice", "a hit die", "two hit dice".
HIT_DICE = r"(?P<dice>\d+|" + "|".join(COUNT_WORDS) + r")\s+hit\s+di(?:c?e)"
# "drop lowest", "keep the highest 3", "with advantage": dice a table keeps, said in words.
KEEP = (
    r"(?P<keep>(?:and\s+)?(?:drop(?:ping)?|keep(?:ing)?)\s+(?:the\s+)?(?:lowest|highest)"
    r"(?:\s+(?:\d+|die|dice|one))?|with\s+(?:advantage|disadvantage))"
)
ROLL = _intent(
    r"roll\s+(?P<expr>[0-9dDkKhHlL+\- ]+?)(?:\s+" + KEEP + r")?"
    # The label ends the text: a closing full stop is the sentence's (the reading without it
    # matches), an ellipsis, "!" or "?" the label's own.
    r"(?:\s+for\s+(?P<label>.*(?:[^.]|\.{3})))?",
    roll_dice,
)
# One die of several named in a roll: "a d20", "two d6", "1d20+5", "2d20kh1".
DIE_COUNT = r"\d+|an?|" + "|".join([*TEEN_WORDS, *UNIT_WORDS])
DIE_KIND = r"d\s*\d+(?:k[hl]?\d+)?(?:\s*[+-]\s*\d+)*"
DIE_TERM = re.compile(rf"(?:(?P<count>{DIE_COUNT})\s*)?(?P<die>{DIE_KIND})", re.IGNORECASE)
DIE_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+", re.IGNORECASE)
DIE = rf"(?:(?:{DIE_COUNT})\s*)?{DIE_KIND}"
ROLL_EACH = _intent(
    rf"roll\s+(?P<dice>{DIE}(?:(?:{DIE_SEPARATOR.pattern}){DIE})+)"
    # The label ends the text, as for one roll.
    r"(?:\s+for\s+(?P<label>.*(?:[^.]|\.{3})))?",
    roll_each,
)
SET_PHASE = _intent(
    # "change the phase to play", "set phase: play", "switch to the lobby".
    r"(?:(?:set|change|switch) (?:the )?phase[:,]?\s+(?:to )?|(?:switch|change) to (?:the )?)"
    r"(?P<phase>lobby|play)(?: phase)?",
    set_phase,
)
# Any word after "dc" is taken, so "dc abc" is answered as a bad DC rather than a bad skill;
# two for a number said in words ("dc twenty one").
DC = (
    r"(?:\s+(?:(?:at|vs\.?|against)\s+)?dc\s*(?P<dc>(?:"
    + "|".join(TENS_WORDS)
    + r")\s+(?:"
    + "|".join(UNIT_WORDS)
    + r")|\S*))?"
)
# "check perception with advantage", "dex save dc 14 with disadvantage": how the d20 is asked
# to be rolled (the rules still cancel it against the situation, as for an attack).
CHECK_MODE = r"(?:,?\s+(?:with|at)\s+(?P<mode>advantage|disadvantage))?"
# Said before the DC ("check athletics with advantage dc 12"), it ends what is checked.
MODE_ENDING = re.compile(r"\s+(?:with|at)\s+(?P<mode>advantage|disadvantage)$", re.IGNORECASE)
# Who is shoved and how: knocked "prone" (or down, over) or pushed "back" (or away).
SHOVED = r"(?P<target>.+?)(?:\s+(?P<how>prone|down|over|back|away))?"
# "as a bonus action": a rogue's Cunning Action, a goblin's Nimble Escape.
AS_BONUS = r"(?P<bonus>\s+as\s+(?:a|my|its|their)\s+bonus\s+action)?"
TEMP_HP = r"temp(?:orary)?\s+(?:hp|hit\s+points?)"
# A clock's size said in words: "with four segments", "an eight-segment clock".
SEGMENT_WORDS = {
    **COUNT_WORDS,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
SEGMENTS = r"(?P<segments>\d+|" + "|".join(SEGMENT_WORDS) + ")"
# How often a clock ticks, said as a table says it.
TIMES = {"once": 1, "twice": 2, "thrice": 3, "again": 1}
# "by 2", "by 2 segments", "by two ticks"; a closing stop after them is the sentence's, never
# a clock name's ("advance clock Doom by 2." as written).
# The whole of it is the tail: a clock may be named "Knock Twice".
BY_TICKS = (
    r"(?P<tail>(?:\s+by\s+(?P<ticks>[+-]?\d+|"
    + "|".join(COUNT_WORDS)
    + r")(?:\s+(?:segments?|ticks?))?[.!]?"
    # "twice", "thrice", "again": that many ticks.
    + r"|\s+(?P<times>once\s+more|"
    + "|".join(TIMES)
    + r")[.!]?)?)"
)
# "2", "two segments", "a tick": what "add … to the Doom clock" ticks it by.
ADDED_TICKS = r"(?P<ticks>\d+|" + "|".join(COUNT_WORDS) + r")(?:\s+(?:segments?|ticks?))?"
# How far and which way a move goes: "2 squares", "10 ft.", "two"; "north-west", "up", "NE".
DISTANCE = (
    r"(?P<amount>\d+|" + "|".join(SEGMENT_WORDS) + r")"
    r"(?:\s*(?P<unit>squares?|sq\.?|feet|foot|ft\.?))?"
)
DIRECTION = (
    r"(?P<direction>(?:north|south|up|down)(?:[\s-]?(?:east|west|left|right))?"
    r"|east|west|left|right|" + "|".join(COMPASS) + ")"
)
# "what's happening?", "what is going on here": a look, as a table asks for one.
HAPPENING = r"what(?:'s|’s|\s+is)\s+(?:happening|going\s+on)(?:\s+here|\s+now)?"
# "what scene are we in?", "what's the scene?", "which scene is this?": a look, which names it.
SCENE_ASKED = (
    r"(?:what(?:'s|’s|\s+is)\s+the\s+(?:current\s+)?scene"
    r"|(?:what|which)\s+scene\s+(?:are\s+we\s+in|is\s+(?:this|it)))(?:\s+now)?"
)


# The verbs a table types to make a story item, and "new" alone ("new clock Doom 6"): each
# set is only verbs that make one, so none reads as another command.
def _making(*verbs: str) -> str:
    return r"(?:(?:" + "|".join(verbs) + r")\s+(?:an?\s+|the\s+)?(?:new\s+)?|new\s+)"


CALLED = r"(?:(?:called|named|titled)[:,]?\s+)?"
NEW_CLOCK = _making("create", "add", "start", "make")
NEW_SCENE = _making("open", "start", "begin", "create")
NEW_THREAD = _making("open", "start", "begin", "create", "add")
NEW_FACT = _making("record", "add", "note")
# The verbs a table types to be rid of a clock, which the story keeps.
CLOCK_UNMADE = r"(?:reset|delete|remove|clear|erase|destroy)\s+"
# "with my longsword with advantage" (or "using my longsword", "and advantage", ", with
# advantage"): the weapon, then how the d20 is rolled; "with advantage" alone is no weapon.
WITH_WEAPON = (
    # "attack the goblin unarmed": the word is the weapon, said without "with" (last, or
    # before how: "the unarmed guard" is a target).
    r"(?:(?:\s+(?:with|using)\s+(?!(?:advantage|disadvantage)(?:\s+as\s|$))"
    r"|\s+(?=unarmed(?:$|,|\s+(?:with|at|and|as)\s)))(?P<weapon>.+?))?"
    r"(?:,?\s+(?:with|at|and(?:\s+with)?)\s+(?P<mode>advantage|disadvantage))?"
    # "as a reaction": the opportunity attack a move out of the attacker's reach provoked.
    r"(?:\s+as\s+(?:an?\s+|its\s+|their\s+|my\s+)?(?P<reaction>reaction|opportunity\s+attack))?"
)
# "an opportunity attack against Ilsa": an attack made as a reaction, on whom if named.
OPPORTUNITY_ATTACK = (
    r"(?P<opportunity>opportunity\s+attack)(?:\s+(?:on|against|at)\s+(?P<target>.+?))?"
)
# After the roll a table makes for an attack ("roll to hit", "make an attack roll"): the target,
# if named ("against the goblin", "vs goblin 2"), then the weapon and how the d20 is rolled.
ROLLED_AT = (
    r"(?:\s+(?:(?:on|against|at|vs\.?|versus)\s+)?"
    r"(?!(?:with|using|at|as|and|unarmed|advantage|disadvantage)\b)(?P<target>.+?))?" + WITH_WEAPON
)
# A skill or ability as said ("roll sleight of hand", "roll a dex save", "dex save for Ilsa").
# Longest first, so "str" does not stop "strength" short.
CHECKED = (
    "(?:"
    + "|".join(
        k.replace("_", "[ _]") for k in sorted({*SKILLS, *ABILITY_ALIASES}, key=len, reverse=True)
    )
    + r")\b"
)
# The subject of a plural verb ("the goblins wake up"); not "I" or "we", whose line is read
# without them ("I wake up" is "wake up").
# Words a table puts before a command ("please", "ok"): no subject, read without them.
NOT_A_SUBJECT = r"(?!(?:i|we|let|" + POLITELY + r"|ok|okay|alright)\b)"
PLURAL_SUBJECT = NOT_A_SUBJECT + r"(?P<target>.+?)"
# "roll 1d20 twice": a command said more than once. Not a roll whose label says how often
# something happens in a clause of its own ("for the bell that rings twice") or with a doer
# of its own ("for the door I kicked 3 times"): that is the label. "For you twice" names no
# doer: the pronoun's next word is the count.
REPEATED_COUNT = r"(?:twice|thrice|(?:\d+|two|three|four|five)\s+times)"
REPEATED = _intent(
    r"(?!roll\s.*\sfor\s(?:.*\s)?(?:that|which|who|whose|when|where|whether|if|until)\s)"
    r"(?!roll\s.*\sfor\s(?:.*\s)?(?:i|we|you|he|she|they)\s+(?!" + REPEATED_COUNT + r")\S+\s)"
    r"(?P<command>.+?)\s+" + REPEATED_COUNT,
    repeated,
)
GRAMMARS: dict[str, tuple[Intent, ...]] = {
    "dnd5e": (
        # First: "attack the goblin twice" is no attack on "the goblin twice".
        REPEATED,
        # Before the attacks: "shove the goblin" is no attack on "the goblin".
        _intent(r"(?P<verb>shove|push)\s+" + SHOVED, dnd_shove),
        _intent(NOT_A_SUBJECT + r"(?P<who>.+?)\s+(?P<verb>shoves|pushes)\s+" + SHOVED, dnd_shove),
        # Before the attacks: "help Bram attack the goblin" is the Help action, not an attack.
        _intent(
            # Not "help me" (the help list), nor "help with the rope" (no one named), nor
            # "help ?" or "help 🙏" (a closing mark set apart: a name has a letter or digit).
            r"help\s+(?!(?:me|us|" + POLITELY + "|" + THANKS + r"|with|to|out|on|in|by)\b)"
            r"(?P<ally>\W*\w.*?)"
            # "help Bram with the goblin": the foe, as after "against"; said in the fiction's
            # words but after "attack" or "hit" ("help Bram with the rope").
            r"(?:\s+(?:(?:to\s+)?(?:attack|hit)|(?P<fiction>(?:to\s+)?fight|against|with))"
            r"\s+(?P<target>.+))?",
            dnd_help,
        ),
        # "attack", "I attack with advantage": the nearest foe, as for "the goblin attacks".
        _intent(r"attack" + WITH_WEAPON, dnd_attack),
        _intent(r"attack\s+(?P<target>.+?)" + WITH_WEAPON, dnd_attack),
        # "make an opportunity attack against the goblin": the speaker's reaction.
        _intent(r"make\s+an\s+" + OPPORTUNITY_ATTACK + WITH_WEAPON, dnd_attack),
        # "make an attack against the goblin": the attack itself, not one by "make an".
        _intent(
            r"make\s+an\s+attack(?:\s+(?:on|against|at)\s+(?P<target>.+?))?" + WITH_WEAPON,
            dnd_attack,
        ),
        # "make an attack roll against the goblin", "roll to hit the goblin": the roll a table
        # makes for an attack is the attack (not one by "make an", nor dice).
        _intent(
            r"(?:make\s+an\s+attack\s+roll|roll\s+(?:an\s+)?(?:attack(?:\s+roll)?|to[\s-]?hit))"
            + ROLLED_AT,
            dnd_attack,
        ),
        # Said of who rolls ("Ilsa rolls to hit the goblin"; "Ilsa, roll to hit the goblin"
        # addressed): that one's attack. Before "<attackers> attack", whose subject "Ilsa
        # makes an" would be; not a roll's label ("roll 1d20 for the rogue who rolls to hit").
        _intent(
            r"(?!roll\s)(?P<attacker>.+?)\s+(?:makes\s+an\s+attack\s+roll"
            r"|rolls\s+(?:an\s+)?(?:attack(?:\s+roll)?|to[\s-]?hit))" + ROLLED_AT,
            dnd_attack,
        ),
        # Said of who makes it ("Ilsa makes an attack on goblin 2"; "Ilsa, make an attack
        # against the goblin" addressed): that one's attack, as "make an attack on X" is the
        # speaker's. Before "<attackers> attack", whose subject "Ilsa makes an" would be.
        _intent(
            r"(?!roll\s)(?P<attacker>.+?)\s+makes\s+an\s+attack"
            r"(?:\s+(?:on|against|at)\s+(?P<target>.+?))?" + WITH_WEAPON,
            dnd_attack,
        ),
        # Names who acts: "goblin 2 attacks Ilsa", as the GM's suggestions say it; not a
        # roll's label ("roll 1d20 for the goblin that attacks").
        _intent(
            r"(?!roll\s)(?P<attacker>.+?)\s+attacks\s+(?!with\s)(?P<target>.+?)" + WITH_WEAPON,
            dnd_attack,
        ),
        # "the goblin attacks": the nearest foe, when no other is as near.
        _intent(r"(?!roll\s)(?P<attacker>.+?)\s+attacks" + WITH_WEAPON, dnd_attack),
        # "the goblin makes an opportunity attack against Ilsa": the goblin's reaction, as
        # "goblin attacks Ilsa as a reaction"; before "<attackers> attack", whose subject "the
        # goblin makes an opportunity" would be. Not a roll's label.
        _intent(
            r"(?!roll\s)(?P<attacker>.+?)\s+makes\s+an\s+" + OPPORTUNITY_ATTACK + WITH_WEAPON,
            dnd_attack,
        ),
        # Said of several ("the goblins attack Ilsa"): asked about one at a time. Not a roll's
        # label ("roll 1d20 for the rogue who makes an attack").
        _intent(
            NOT_A_SUBJECT
            + r"(?!roll\s)(?P<attackers>[^,]+?)\s+attack(?:\s+(?!with\s)(?P<target>.+?))?"
            + WITH_WEAPON,
            dnd_attack,
        ),
        # Before the saves: "death save" is not an ability's save.
        _intent(
            r"(?:(?:make|roll) (?:an? |my ))?death sav(?:e|ing throw)(?:\s+for\s+(?P<target>.+))?",
            dnd_death_save,
        ),
        _intent(r"(?P<target>.+?)\s+makes? an? death sav(?:e|ing throw)", dnd_death_save),
        # "cast magic missile at the goblin": before "cast <weapon> at", which is an attack.
        _intent(
            r"casts?\s+(?P<spell>" + DAMAGE_SPELLS + r")(?:\s+(?:on|at|to)\s+(?P<target>.+))?",
            dnd_damage_spell,
        ),
        _intent(
            r"casts?\s+" + WARD_SPELLS + r"(?:\s+(?:on|at|to|for)\s+(?P<target>.+))?",
            dnd_ward_spell,
        ),
        _intent(
            r"casts?\s+" + BLESS_SPELL + r"(?:\s+(?:on|at|to|for)\s+(?P<target>.+))?",
            dnd_bless,
        ),
        # Ending concentration at will: "end concentration", "drop shield of faith", "stop
        # concentrating [on shield of faith]".
        _intent(
            r"(?:end|drop|stop|break)\s+(?:my\s+)?concentration(?:\s+on\s+(?P<spell>"
            + CONCENTRATION_SPELLS
            + r"))?",
            dnd_end_concentration,
        ),
        _intent(
            r"stop\s+concentrating(?:\s+on\s+(?:my\s+|the\s+)?(?P<spell>"
            + CONCENTRATION_SPELLS
            + r"))?",
            dnd_end_concentration,
        ),
        _intent(
            r"(?:end|drop|dismiss)\s+(?:my\s+|the\s+)?(?P<spell>" + CONCENTRATION_SPELLS + r")",
            dnd_end_concentration,
        ),
        # Before "heal": "heal Ilsa with cure wounds" names a spell, not who is healed.
        _intent(
            r"casts?\s+(?P<spell>" + HEALING_SPELLS + r")(?:\s+(?:on|at|to|for)\s+(?P<target>.+))?",
            dnd_healing_spell,
        ),
        _intent(
            r"heals?\s+(?P<target>.+?)\s+(?:with|using)\s+(?P<spell>"
            + HEALING_SPELLS
            + r")(?P<level>"
            + SLOT_LEVEL.pattern
            + r")?",
            dnd_healing_spell,
        ),
        # "goblin casts fire bolt at Ilsa": a spell said of a creature, after every "cast".
        _intent(
            NOT_A_SUBJECT + r"(?!roll\s)(?P<caster>.+?)\s+casts\s+(?P<rest>(?P<spell>.+?)"
            r"(?:\s+(?:on|at|to|for)\s+(?P<target>.+))?)",
            dnd_someone_casts,
        ),
        # "I take a short rest and spend 2 hit dice", "spend a hit die"; the GM's "short rest
        # for Ilsa, 2 hit dice". Before "long rest": a rest said with its dice.
        _intent(
            r"short\s+rest\s+for\s+(?P<target>.+?)(?:\s*,\s*(?:spend(?:ing)?\s+)?"
            + HIT_DICE
            + r")?",
            dnd_short_rest,
        ),
        _intent(
            r"(?:(?:we\s+)?(?:take|have|do)\s+a\s+)?short\s+rest"
            r"(?:\s*,?\s*(?:and\s+)?(?:spend(?:ing)?\s+)?" + HIT_DICE + r")?",
            dnd_short_rest,
        ),
        _intent(r"spend\s+" + HIT_DICE, dnd_short_rest),
        # "long rest", "we take a long rest", "Ilsa takes a long rest": the GM's.
        _intent(
            r"(?:we\s+)?(?:take|have|finish|do)\s+a\s+long\s+rest"
            r"(?:\s+for\s+(?P<target>.+))?",
            dnd_long_rest,
        ),
        _intent(r"long\s+rest(?:\s+(?:for\s+)?(?P<target>.+))?", dnd_long_rest),
        _intent(r"(?P<target>.+?)\s+(?:takes|has|finishes)\s+a\s+long\s+rest", dnd_long_rest),
        _intent(
            r"heal\s+(?P<target>.+?)"
            r"(?:\s+(?:for\s+|by\s+)?(?P<amount>(?![+-])"
            + AMOUNT
            + r")(?:\s*(?:hp|hit points))?)?",
            dnd_heal,
        ),
        # "grant Ilsa 5 temp hp", "grant 5 temp hp to Ilsa", "give me 5 temporary hit points",
        # "Ilsa gains 5 temp hp", "I gain 5 temp hp" (after the rewrite: "gain 5 temp hp").
        _intent(
            r"(?:grant|give)\s+(?P<target>.+?)\s+(?P<amount>" + AMOUNT + r")\s+" + TEMP_HP,
            dnd_temp_hp,
        ),
        _intent(
            r"(?:grant|give)\s+(?P<amount>"
            + AMOUNT
            + r")\s+"
            + TEMP_HP
            + r"\s+to\s+(?P<target>.+)",
            dnd_temp_hp,
        ),
        _intent(r"(?:gain|get)\s+(?P<amount>" + AMOUNT + r")\s+" + TEMP_HP, dnd_temp_hp),
        _intent(
            r"(?P<target>.+?)\s+(?:gains?|gets?)\s+(?P<amount>" + AMOUNT + r")\s+" + TEMP_HP,
            dnd_temp_hp,
        ),
        # The GM's damage outside an attack: "damage goblin 9 fire", "deal 7 fire damage to
        # the goblin", "the goblin takes 4 piercing damage" (the type is the domain's to check).
        _intent(
            r"damage\s+(?P<target>.+?)\s+(?:for\s+|by\s+)?(?P<amount>(?![+-])"
            + AMOUNT
            + r")(?:\s+(?:points?\s+of\s+)?(?P<type>(?!damage\b)[a-z]+))?(?:\s+damage)?",
            dnd_damage,
        ),
        _intent(
            r"deals?\s+(?P<amount>(?![+-])"
            + AMOUNT
            + r")\s+(?:points?\s+of\s+)?(?:(?P<type>[a-z]+)\s+)?damage\s+to\s+(?P<target>.+)",
            dnd_damage,
        ),
        _intent(
            # Not a roll's label ("roll 1d6 for the goblin that takes 4 damage").
            NOT_A_SUBJECT
            + r"(?!roll\s)(?P<target>.+?)\s+takes\s+(?P<amount>(?![+-])"
            + AMOUNT
            + r")\s+(?:points?\s+of\s+)?(?:(?P<type>[a-z]+)\s+)?damage",
            dnd_damage,
        ),
        _intent(r"(?:i\s+)?(?:stand(?:\s+back)?(?:\s+up)?|get\s+(?:back\s+)?up)", dnd_stand_up),
        _intent(r"(?P<who>.+?)\s+(?:stands|gets)(?:\s+back)?\s+up", dnd_stand_up),
        _intent(r"(?P<verb>" + "|".join(CONDITION_VERBS) + r")\s+(?P<target>.+)", dnd_condition),
        _intent(
            r"knock\s+(?P<target>.+?)\s+(?P<knocked>prone|down|unconscious|out)", dnd_condition
        ),
        _intent(r"knock\s+(?P<knocked>out)\s+(?P<target>.+)", dnd_condition),
        _intent(
            r"(?P<target>.+?)\s+(?:falls|(?:is|are)\s+knocked)\s+(?P<knocked>prone|unconscious)",
            dnd_condition,
        ),
        _intent(r"(?P<target>.+?)\s+(?:is|are)\s+knocked\s+(?P<knocked>out|down)", dnd_condition),
        _intent(r"(?P<target>.+?)\s+(?:falls|is|are)\s+(?P<knocked>asleep)", dnd_condition),
        _intent(r"(?P<target>.+?)\s+(?:passes\s+(?P<knocked>out)|faints)", dnd_condition),
        # Said of several ("the goblins fall unconscious"), not of oneself ("I faint").
        _intent(PLURAL_SUBJECT + r"\s+fall\s+(?P<knocked>prone|unconscious|asleep)", dnd_condition),
        _intent(PLURAL_SUBJECT + r"\s+(?:pass\s+(?P<knocked>out)|faint)", dnd_condition),
        _intent(
            r"(?P<verb>un(?:" + "|".join(CONDITION_VERBS) + r"))\s+(?P<target>.+)",
            dnd_condition_remove,
        ),
        _intent(r"cure\s+(?P<target>.+?)\s+of\s+" + LIFTED, dnd_condition_remove),
        # "wake up" alone names nobody, not a creature called "up".
        _intent(r"(?P<wake>wake)\s+up", dnd_condition_remove),
        _intent(r"(?P<wake>wake)(?:\s+up)?\s+(?P<target>.+?)(?:\s+up)?", dnd_condition_remove),
        _intent(r"(?P<target>.+?)\s+(?P<wake>wakes)(?:\s+up)?", dnd_condition_remove),
        _intent(PLURAL_SUBJECT + r"\s+(?P<wake>wake)(?:\s+up)?", dnd_condition_remove),
        _intent(r"(?:remove|lift)\s+" + LIFTED + r"\s+from\s+(?P<target>.+)", dnd_condition_remove),
        _intent(r"(?P<target>.+?)\s+(?:is|are)\s+no\s+longer\s+" + LIFTED, dnd_condition_remove),
        # Whose check or save, named ("perception check for Ilsa", "Ilsa makes a dex save dc
        # 12"): before the checks below, which would read the name as the skill.
        _intent(
            r"(?:make an? |roll an? )?(?P<what>"
            + CHECKED
            + r")\s+check\s+for\s+(?P<target>.+?)"
            + DC
            + CHECK_MODE,
            dnd_check,
        ),
        _intent(
            r"check\s+(?P<what>" + CHECKED + r")\s+for\s+(?P<target>.+?)" + DC + CHECK_MODE,
            dnd_check,
        ),
        _intent(
            r"(?P<target>.+?)\s+(?:makes|rolls)\s+(?:an?\s+)?(?P<what>"
            + CHECKED
            + r")\s+check"
            + DC
            + CHECK_MODE,
            dnd_check,
        ),
        # "Ilsa rolls perception", "goblin 2 rolls for stealth": a check, as "roll stealth" is.
        _intent(
            r"(?P<target>.+?)\s+rolls\s+(?:for\s+)?(?P<what>" + CHECKED + r")" + DC + CHECK_MODE,
            dnd_check,
        ),
        _intent(
            r"(?:make an? |roll an? )?(?P<what>" + CHECKED + r")\s+(?:save|saving throw)\s+for\s+"
            r"(?P<target>.+?)" + DC + CHECK_MODE,
            dnd_save,
        ),
        _intent(
            r"(?:save|saving throw)\s+(?P<what>"
            + CHECKED
            + r")\s+for\s+(?P<target>.+?)"
            + DC
            + CHECK_MODE,
            dnd_save,
        ),
        _intent(
            r"(?P<target>.+?)\s+(?:makes|rolls)\s+(?:an?\s+)?(?P<what>"
            + CHECKED
            + r")\s+(?:save|saving throw)"
            + DC
            + CHECK_MODE,
            dnd_save,
        ),
        # Before the checks: "check my hp" is no ability check.
        _intent(
            r"(?:what(?:'s|’s|\s+is|\s+are)\s+|(?:show|see|check)(?:\s+me)?\s+)?my\s+"
            r"(?:hp|hit\s+points|health|ac|armou?r\s+class|stats|conditions|sheet"
            r"|character(?:\s+sheet)?)",
            dnd_sheet,
        ),
        # "what spells do I have?", "how many spell slots do I have left?": the same read.
        _intent(
            r"(?P<spells>(?:what|which)\s+spells?(?:\s+slots)?\s+"
            r"(?:do\s+i\s+(?:have|know)|can\s+i\s+cast|have\s+i\s+got)(?:\s+(?:left|now))?"
            r"|how\s+many\s+spell\s+slots(?:\s+(?:do\s+i\s+have|have\s+i\s+got|are|do\s+i\s+get))?"
            r"(?:\s+(?:left|now))?"
            r"|(?:what(?:'s|’s|\s+is|\s+are)\s+|(?:show|list|see|check)(?:\s+me)?\s+)?my\s+"
            r"(?:spells|spell\s+slots|spell\s+list)(?:\s+left)?)",
            dnd_sheet,
        ),
        # "what spells does Ash have?", "Ash's spells", "what can Ash cast?": the same read of
        # the character named (`dnd_describe`). "You" names no one: it is the GM the line is
        # said to (`_asked_of_you_hint`).
        _intent(
            r"(?P<spells>(?:what|which)\s+spells?(?:\s+slots)?\s+(?:does|can)\s+"
            + NOT_YOU
            + r"(?P<target>.+?)\s+(?:have|know|cast|got)(?:\s+(?:left|now))?)",
            dnd_describe,
        ),
        _intent(
            r"(?P<spells>how\s+many\s+spell\s+slots\s+(?:does|has)\s+"
            + NOT_YOU
            + r"(?P<target>.+?)\s+(?:have|got)(?:\s+(?:left|now))?)",
            dnd_describe,
        ),
        _intent(r"(?P<spells>what\s+can\s+" + NOT_YOU + r"(?P<target>.+?)\s+cast)", dnd_describe),
        _intent(
            r"(?P<spells>(?:what(?:'s|’s|\s+is|\s+are)\s+|(?:show|list|see|check)(?:\s+me)?\s+)?"
            r"(?!(?:my|whats?|who|how|where|is|are|give|heal|damage|roll|cast|attack)\b)"
            r"(?P<target>(?:the\s+)?[a-z][\w-]*(?:\s+[\w-]+){0,2}?)['’]s?\s+"
            r"(?:spells|spell\s+slots|spell\s+list)(?:\s+left)?)",
            dnd_describe,
        ),
        # "what's the goblin's hp?", "how many hp does goblin 2 have?": a look at its hit points.
        _intent(
            r"(?P<hp>what(?:['’]s|\s+is|\s+are)\s+(?P<target>.+?)['’]s?\s+"
            r"(?:hp|hit\s+points|health)(?:\s+(?:left|now))?)",
            dnd_describe,
        ),
        # "goblin hp", "goblin 2's hit points": a name of a few words, no command before it.
        _intent(
            r"(?P<hp>(?P<bare_hp>(?!(?:my|whats?|who|how|where|is|are|give|grant|heal|deal"
            r"|damage|restore|set|roll|cast|attack)\b)(?!.*\b(?:my|your|our)\b)(?P<target>(?:the\s+)?[a-z][\w-]*(?:\s+[\w-]+){0,2}?)(?:['’]s?)?\s+"
            r"(?:hp|hit\s+points)(?:\s+(?:left|now))?))",
            dnd_describe,
        ),
        _intent(
            r"(?P<hp>how\s+(?:much|many)\s+(?:hp|hit\s+points|health)\s+(?:does|has)\s+"
            r"(?P<target>.+?)\s+(?:have|got)(?:\s+(?:left|now))?)",
            dnd_describe,
        ),
        # "how much hp do I have?", "how many hit points have I got left?": the same read.
        _intent(
            r"how\s+(?:much|many)\s+(?:hp|hit\s+points|health)\s+"
            r"(?:do\s+i\s+have|have\s+i\s+got)(?:\s+(?:left|now))?",
            dnd_sheet,
        ),
        # "check on the goblin": a look at it, not a check of a skill "on the goblin".
        _intent(r"check\s+on\s+(?P<target>.+)", dnd_describe),
        _intent(
            r"(?:make an? )?(?:ability )?check\s+(?P<what>[a-z_ ]+?)" + DC + CHECK_MODE, dnd_check
        ),
        _intent(r"(?:save|saving throw)\s+(?P<what>[a-z_ ]+?)" + DC + CHECK_MODE, dnd_save),
        # "roll a dex save" is read as "dex save" (DND_REWRITES), not a save of "roll a dex";
        # "I make a dex save" as "make a dex save" (FIRST_PERSON), not a save of "I make a dex",
        # and so are "let me make a dex save" and "we make a dex save".
        _intent(
            r"(?:make an? )?(?!(?:roll|i|we|let)\s)(?P<what>[a-z_ ]+?)\s+(?:save|saving throw)"
            + DC
            + CHECK_MODE,
            dnd_save,
        ),
        _intent(
            r"(?:make an? )?(?!(?:roll|i|we|let)\s)(?P<what>[a-z_ ]+?)\s+check" + DC + CHECK_MODE,
            dnd_check,
        ),
        _intent(r"(?:roll\s+)?(?:for\s+)?initiative", dnd_initiative),
        ROLL_EACH,
        ROLL,
        _intent(
            r"(?:move|walk|run|go|step)\s+(?:to\s+)?(?:square\s+)?\(?\s*(?P<x>[+-]?\d+)\s*(?:,\s*|\s+)"
            r"(?P<y>[+-]?\d+)\s*\)?",
            dnd_move,
        ),
        # "move 2 squares north", "I move 10 feet east", "move north-west": from where the
        # mover stands.
        _intent(
            r"(?:move|walk|run|step|go)\s+" + DISTANCE + r"\s+(?:to\s+(?:the\s+)?)?" + DIRECTION,
            dnd_move_by,
        ),
        _intent(
            r"(?:move|walk|run|step|go)\s+(?:to\s+the\s+)?"
            + DIRECTION
            + r"(?:\s+"
            + DISTANCE
            + ")?",
            dnd_move_by,
        ),
        # "move to the goblin", "walk next to Ilsa", "approach the goblin": beside that creature.
        _intent(
            # Not a square ("move to (3, 4)." as written, before its stop is dropped).
            # Not "go to": "go to sleep", "go to the tavern" name no creature on the map.
            # A step in the fiction's words ("walk to the tavern") may be to a thing.
            r"(?:move\s+(?:(?:up\s+)?(?:next\s+)?to|towards?|beside)"
            r"|(?P<fiction>(?:walk|run|step)\s+(?:(?:up\s+)?(?:next\s+)?to|towards?|beside)"
            r"|approach))\s+(?![\d(+-])(?P<target>.+)",
            dnd_move_beside,
        ),
        # "goblin 2 moves to 6,2", "Ilsa walks 2 squares north": who moves is named.
        _intent(
            r"(?P<who>.+?)\s+moves\s+(?:to\s+)?\(?\s*(?P<x>[+-]?\d+)\s*(?:,\s*|\s+)"
            r"(?P<y>[+-]?\d+)\s*\)?",
            dnd_move,
        ),
        _intent(
            r"(?P<who>.+?)\s+(?:moves|walks|steps|goes)\s+"
            + DISTANCE
            + r"\s+(?:to\s+(?:the\s+)?)?"
            + DIRECTION,
            dnd_move_by,
        ),
        _intent(
            r"(?P<who>.+?)\s+(?:moves|walks|steps|goes)\s+(?:to\s+the\s+)?"
            + DIRECTION
            + r"(?:\s+"
            + DISTANCE
            + ")?",
            dnd_move_by,
        ),
        _intent(
            r"(?P<who>.+?)\s+moves\s+(?:(?:up\s+)?(?:next\s+)?to|towards?|beside)\s+"
            r"(?![\d(+-])(?P<target>.+)",
            dnd_move_beside,
        ),
        _intent(
            # "I'm ending my turn": said as it is done.
            r"end (?:my |the |this )?turn|pass(?: my turn)?|next turn"
            r"|(?:i(?:['’]m|\s+am)\s+)?ending (?:my |the |this )?turn",
            dnd_end_turn,
        ),
        _intent(r"(?P<word>next)", dnd_end_turn),
        _intent(r"hide" + DC + AS_BONUS, dnd_hide),
        # "take the Hide action", as the Dodge action is taken.
        _intent(r"(?:take|use)\s+the\s+hide\s+action" + DC + AS_BONUS, dnd_hide),
        # After the rolls: "roll 1d6 for the dashes" is a roll's label.
        _intent(
            r"(?:(?:take|use)\s+the\s+)?(?P<action>dodge|dash|disengage)(?:\s+action)?" + AS_BONUS,
            dnd_combat_action,
        ),
        _intent(
            r"(?P<who>.+?)\s+takes\s+the\s+(?P<action>dodge|dash|disengage|hide)(?:\s+action)?"
            + AS_BONUS,
            dnd_combat_action,
        ),
        _intent(
            # "goblin 2 hides as a bonus action": a goblin's Nimble Escape, as the GM narrates it.
            r"(?P<who>.+?)\s+(?P<action>dodge|dash|disengage|hide)e?s" + AS_BONUS,
            dnd_combat_action,
        ),
        # A question about the turn, not a command: "whose turn is it?", "who's up?".
        _intent(
            r"(?:(?:whose|who['’]?s|who\s+is)\s+(?:turn|go)(?:\s+is\s+it)?"
            r"|who(?:['’]s|\s+is)\s+up|is\s+it\s+my\s+turn(?:\s+yet)?"
            r"|(?:what|which)\s+round\s+(?:is\s+it|are\s+we\s+(?:in|on)))(?:\s+now)?",
            dnd_whose_turn,
        ),
        # "who's next?", "whose turn is next?": the turn after the current one.
        _intent(
            r"(?:who(?:['’]?s|\s+is)(?:\s+up)?|who\s+goes|whose\s+turn(?:\s+is\s+it|\s+is)?)"
            r"\s+next(?:\s+now)?",
            dnd_whose_next,
        ),
        # "who's winning?", "how's the fight going?": the fight summed up.
        _intent(
            r"(?:who(?:['’]?s|\s+is)\s+winning"
            r"|how(?:['’]s|\s+is)\s+the\s+(?:fight|battle|combat)\s+going)"
            r"(?:\s+now|\s+so\s+far)?",
            dnd_combat_summary,
        ),
        # "end Ilsa's turn", as the GM is offered it.
        _intent(r"end\s+(?P<target>.+?)(?:'s|’s|')\s+turn", dnd_end_turn),
        # Questions the state answers: "is the goblin dead?", "how many goblins are there?",
        # "where am I?", "what can I do?".
        _intent(
            r"(?:is|are)\s+(?P<target>.+?)\s+(?:still\s+)?(?P<state>"
            + "|".join(sorted({*ASKED_STATES, *CONDITION_WORDS}, key=len, reverse=True))
            + r")(?:\s+(?:yet|now|still))?",
            dnd_is,
        ),
        _intent(
            r"am\s+i\s+(?:still\s+)?(?P<state>"
            + "|".join(sorted({*ASKED_STATES, *CONDITION_WORDS}, key=len, reverse=True))
            + r")(?:\s+(?:yet|now|still))?",
            dnd_is,
        ),
        # One or two words counted ("goblins", "giant rats"), not "how many hp does …" nor
        # "how many spell slots" (the character's, read above).
        _intent(
            r"how\s+many\s+(?!(?:hp|hit\s+points|spell\s+slots)\b)(?P<target>\w+(?:\s+(?!(?:are|is)\b)\w+)?)"
            r"(?:\s+(?:are|is)(?:\s+(?:there|here))?"
            r"(?:\s+(?:left|standing|alive|still\s+standing|now))?|\s+(?:remain|left))?",
            dnd_how_many,
        ),
        _intent(r"where\s+(?:am\s+i|are\s+we|do\s+i\s+stand)(?:\s+now)?", dnd_where),
        # "where is the goblin?", "how far away is goblin 2?": its square, and how far.
        _intent(
            r"(?:where(?:['’]s|\s+is)|how\s+far\s+(?:away\s+)?is)\s+(?P<target>.+?)"
            r"(?:\s+(?:now|from\s+me|away))?",
            dnd_where,
        ),
        # "who's here?": a look around; "how hurt is the goblin?": a look at it.
        _intent(r"who(?:['’]s|\s+is|\s+are)\s+(?:here|present|around|there)", dnd_describe),
        _intent(
            r"how\s+(?:badly\s+)?(?:hurt|wounded|injured)\s+(?:is|are)\s+(?P<target>.+)",
            dnd_describe,
        ),
        # "how's the goblin?", "how is Ilsa doing?": the same look; not "how's it going?".
        _intent(
            r"how(?:['’]s|\s+is|\s+are)\s+"
            r"(?!(?:it|that|this|things|everything|everyone|everybody|we|you|they)\b)"
            r"(?P<target>.+?)(?:\s+(?:doing|holding\s+up|faring|looking))?(?:\s+now)?",
            dnd_describe,
        ),
        _intent(r"how\s+am\s+i(?:\s+(?:doing|holding\s+up|faring|looking))?(?:\s+now)?", dnd_sheet),
        _intent(
            r"what\s+(?:can|should|do)\s+i\s+do(?:\s+now|\s+next)?|what\s+now"
            r"|what\s+are\s+my\s+options(?:\s+now)?",
            dnd_what_now,
        ),
        _intent(
            r"(?:start|begin) (?:an? |the )?(?:combat|fight|encounter)"
            r"(?:\s+(?:with|against)\s+(?P<monsters>.+))?",
            dnd_start_combat,
        ),
        _intent(r"(?:end|stop|finish) (?:the )?(?:combat|fight|encounter)", dnd_end_combat),
        SET_PHASE,
        # "look around the room": the whole of it, as "look around" is.
        _intent(r"(?:describe|look)(?:\s+around(?:\s+.+)?)?", dnd_describe),
        _intent(r"(?:describe|look at|examine)\s+(?P<target>.+)", dnd_describe),
        _intent(HAPPENING, dnd_describe),
        # Last: "Ilsa, make a dex save", a line addressed to a creature, is said of it.
        _intent(
            r"(?P<addressed>[^,]+?),\s*(?P<verb>" + "|".join(ADDRESSED_VERBS) + r")\b(?P<rest>.*)",
            dnd_addressed,
        ),
    ),
    "narrative": (
        # "Is it?" in double, curly or single quotes; odds after it, bracketed or not.
        _intent(
            r"ask (?:the )?oracle[:,]?\s+[\"“”'‘’](?P<question>.*)[\"“”'‘’]"
            r"(?:[\s,;:–—-]*[(\[]?(?P<likelihood>[\w ,/-]+?)[)\]]?)?",
            nar_oracle,
        ),
        _intent(r"ask (?:the )?oracle[:,]?\s+(?P<unquoted>[^\s\"“”'‘’].*)", nar_oracle),
        # "is the door locked? (likely)": odds in brackets are the oracle's, noted as a table
        # notes them. Not said in brackets, they may be a guess at the answer (_judgement_hint).
        _intent(
            r"(?P<unquoted>"
            + YES_NO.pattern
            + r"[^?\"“”]*\?\s*[(\[]\s*"
            + ODDS_NAMED
            + r"\s*[)\]])",
            nar_oracle,
        ),
        # A command with nothing after it: its empty group is the handler's cue to say what
        # is missing, with an example, rather than the help list.
        _intent(r"ask (?:the )?oracle[:,]?(?P<question>)(?P<likelihood>)", nar_oracle),
        _intent(
            r"(?:advance|tick(?: up)?) (?:the )?clock\s+(?:(?:called|named)\s+)?(?P<name>.+?)"
            + BY_TICKS,
            nar_advance_clock,
        ),
        # As a table says it: "advance the Doom clock by 2", "tick the doom clock".
        _intent(
            r"(?:advance|tick(?: up)?) (?:the )?(?!the\s)(?P<name>.+?)\s+clock" + BY_TICKS,
            nar_advance_clock,
        ),
        # "add 2 to the Doom clock", "add a segment to clock Doom": that many ticks (the
        # empty tail and times: no tick word said).
        _intent(
            r"add\s+" + ADDED_TICKS + r"\s+to\s+(?:the\s+)?(?!the\s)(?P<name>.+?)\s+clock"
            r"(?P<tail>)(?P<times>)",
            nar_advance_clock,
        ),
        _intent(
            r"add\s+" + ADDED_TICKS + r"\s+to\s+(?:the\s+)?clock\s+(?:(?:called|named)\s+)?"
            r"(?P<name>.+?)(?P<tail>)(?P<times>)",
            nar_advance_clock,
        ),
        # Last of the clocks: "advance Doom by 2", a clock named without the word "clock".
        _intent(r"(?:advance|tick)\s+(?P<name>.+?)" + BY_TICKS, nar_advance_named_clock),
        _intent(
            # "start a clock: the storm arrives, 4 segments": a colon before the name.
            NEW_CLOCK + r"clock(?::\s*|\s+)(?:(?:called|named)\s+)?(?P<name>.+?)"
            r"(?:(?:\s+with|,|\s+\()\s*" + SEGMENTS + r"\s+segments?\)?"
            # "create clock Doom 6 [segments]", "… four segments": the size ends the text
            # (a name may end in a number word: "Take Five" needs "with N segments").
            r"|\s+(?:(?P<size>\d+)(?:\s+segments?)?|(?P<size_word>"
            + "|".join(SEGMENT_WORDS)
            + r")\s+segments?))",
            nar_create_clock,
        ),
        # "create a 6-segment clock called Doom": the name ends the text, so a closing full
        # stop is the sentence's (the reading without it matches), an ellipsis the name's.
        _intent(
            NEW_CLOCK + SEGMENTS + r"[- ]?segments?\s+clock\s+"
            r"(?:(?:called|named)\s+)?(?P<name>.*(?:[^.]|\.{3}))",
            nar_create_clock,
        ),
        _intent(NEW_CLOCK + r"clock[:,]?(?P<name>)", nar_create_clock),
        # A name but no size: the handler asks for it. Not when a size was tried ("with 6
        # segmnts"): that is a typo to correct, not a name.
        _intent(
            NEW_CLOCK + r"clock\s+(?:(?:called|named)\s+)?"
            # A closing full stop is the sentence's, as for a name that ends the text above.
            r"(?P<name>(?!.*(?:\d|\bwith\b|\bsegm))[^:,](?:.*(?:[^.]|\.{3}))?)",
            nar_create_clock,
        ),
        # "reset clock Doom", "delete the Doom clock": no clock is deleted; the handler says
        # how one is wound back.
        _intent(
            CLOCK_UNMADE + r"(?:the\s+)?clock[:,]?\s+(?:(?:called|named)\s+)?(?P<name>.+)",
            nar_clock_not_deleted,
        ),
        _intent(CLOCK_UNMADE + r"(?:the\s+)?(?!the\s)(?P<name>.+?)\s+clock", nar_clock_not_deleted),
        # "called", "named": said before a title, never its own first word (as for a clock).
        _intent(NEW_SCENE + r"scene[:,]?\s+" + CALLED + r"(?P<title>.+)", nar_open_scene),
        _intent(NEW_SCENE + r"scene[:,]?(?P<title>)", nar_open_scene),
        _intent(r"(?:end|close|finish) (?:the )?(?:current |this )?scene", nar_end_scene),
        _intent(NEW_THREAD + r"thread[:,]?\s+" + CALLED + r"(?P<title>.+)", nar_open_thread),
        _intent(NEW_THREAD + r"thread[:,]?(?P<title>)", nar_open_thread),
        _intent(
            r"(?:resolve|close|finish|end|complete) (?:the )?thread[:,]?\s+(?P<said>.+)",
            nar_resolve_thread,
        ),
        # "close the heist thread: they got away", as a table says it.
        _intent(
            r"(?:resolve|close|finish|end|complete) (?:the )?(?!the\s)(?P<title>.+?)\s+thread"
            r"(?:\s*:\s*(?P<resolution>.+))?",
            nar_resolve_thread,
        ),
        _intent(
            # A "gm only" marker is found in the text by _fact_text, not here.
            NEW_FACT + r"fact[:,]?\s+(?P<text>.+)",
            nar_record_fact,
        ),
        _intent(NEW_FACT + r"fact[:,]?(?P<text>)", nar_record_fact),
        # "note that the mayor lied", "note: the bridge is out", "fact: …", as a table notes
        # one. Not "remember that …", which may be a reminder to the table (NEAREST_FORMS).
        _intent(r"(?:note|record)\s+that\s+(?P<text>.+)", nar_record_fact),
        _intent(r"(?:note|fact)\s*:\s*(?P<text>.+)", nar_record_fact),
        # After the clocks ("advance clock Doom twice"), facts and titles, which keep their
        # words; before a roll, whose label would take "twice" as its own.
        REPEATED,
        ROLL_EACH,
        ROLL,
        SET_PHASE,
        # "look around the mill", "describe the mill": the scene is what there is to see.
        _intent(r"(?:describe|examine|look(?:\s+around|\s+at)?)(?:\s+.+)?", nar_describe),
        _intent(HAPPENING, nar_describe),
        _intent(SCENE_ASKED, nar_describe),
        # A clock asked about: its segments, not the oracle's to judge.
        _intent(
            r"(?:is|are)\s+(?:the\s+)?(?P<name>.+?)\s+clock\s+(?:already\s+)?(?P<state>"
            + "|".join(sorted([*CLOCK_FULL, "empty"]))
            + r")(?:\s+yet)?",
            nar_clock_asked,
        ),
        _intent(
            r"how\s+(?:full|far\s+along|close)\s+is\s+(?:the\s+)?(?P<name>.+?)\s+clock(?:\s+now)?",
            nar_clock_asked,
        ),
        # "who's here?": the cast, not a question for the oracle. Not "who's there?", which
        # the fiction asks (a knock at the door).
        _intent(
            r"who(?:['’]?s|\s+is|\s+are)\s+(?:here|present|around"
            r"|in\s+(?:the|this)\s+(?:scene|story))(?:\s+now)?",
            nar_cast,
        ),
        _intent(
            r"how\s+many\s+clocks(?:\s+(?:are\s+(?:there|running|left)|do\s+we\s+have))?"
            r"(?:\s+now)?",
            nar_how_many_clocks,
        ),
        # "what clocks are there?", "show the clocks", "list facts", "what threads are
        # open?": the same read.
        _intent(
            r"(?:(?:show|list|see)(?:\s+me)?\s+(?:all\s+)?(?:the\s+)?(?:open\s+)?"
            r"(?:clocks|facts|scene|threads)"
            r"|what\s+(?:clocks|facts|threads)\s+"
            r"(?:are\s+there|are\s+running|are\s+open|do\s+we\s+(?:have|know))"
            r"|what\s+do\s+we\s+know)",
            nar_describe,
        ),
    ),
}


# The help list: asked for (HELP_ASKED), or "?" alone, "what can I say?", "list commands".
# `said`: what "what can I …?" asks with; in a narration "What can I do?" is a character's
# question, story, and only "what can I type?" asks for commands.
def _help_pattern(asked: str, said: str = r"do|say|type") -> re.Pattern[str]:
    return re.compile(
        r"(?:" + POLITE_BEFORE + asked + POLITE_AFTER + r"|\?"
        r"|(?:(?:list|show)\s+(?:me\s+)?(?:the\s+)?)?commands"
        r"|what\s+can\s+i\s+(?:" + said + r")\??)",
        re.IGNORECASE,
    )


HELP = _help_pattern(HELP_ASKED)
HELP_TERSE = _help_pattern(HELP_ASKED_TERSE, said="type")


# "help combat", "help me with spells", "I need help with combat", "can you help us with the
# rules?": help with a part of the game. Where that part has no help of its own (the
# narrative's story parts and dnd5e's DND_HELP_TOPICS have), it is the help list, never the
# Help action.
def _help_with_pattern(asked: str) -> re.Pattern[str]:
    return re.compile(
        POLITE_BEFORE + asked + r"(?:\s+(?:with|on|about|for))?\s+(?:the\s+|my\s+)?"
        r"(?P<topic>combat|fights?|fighting|attacks?|attacking|spells?|magic|casting|moves?"
        r"|movement|moving|checks?|saves?|saving\s+throws?|rolls?|rolling|dice|rests?|resting"
        r"|conditions?|commands?|rules|oracle|odds|clocks?|scenes?|threads?|facts?)"
        + POLITE_AFTER
        + r"\??",
        re.IGNORECASE,
    )


HELP_WITH = _help_with_pattern(HELP_ASKED)
HELP_WITH_TERSE = _help_with_pattern(HELP_ASKED_TERSE)


# The parts of a dnd5e game with rows of their own in the help list (`_dnd_help_rows`), by
# the words that ask for them: their help is those rows alone, short enough for a phone.
DND_HELP_TOPICS: tuple[tuple[str, Any, re.Pattern[str]], ...] = (
    (
        "combat",
        gettext_lazy("Combat:"),
        re.compile(r"combat|fights?|fighting|attacks?|attacking", re.IGNORECASE),
    ),
    ("spells", gettext_lazy("Spells:"), re.compile(r"spells?|magic|casting", re.IGNORECASE)),
    (
        "checks",
        gettext_lazy("Checks and rolls:"),
        re.compile(r"checks?|saves?|saving\s+throws?|rolls?|rolling|dice", re.IGNORECASE),
    ),
    ("moving", gettext_lazy("Moving:"), re.compile(r"moves?|movement|moving", re.IGNORECASE)),
    ("rests", gettext_lazy("Rests:"), re.compile(r"rests?|resting", re.IGNORECASE)),
    ("conditions", gettext_lazy("Conditions:"), re.compile(r"conditions?", re.IGNORECASE)),
)


def help_with_text(system_id: str, text: str, *, gm: bool, narration: bool = False) -> str:
    """The reply to help with a part of the game ("help combat"), from this seat: in dnd5e the
    help list's rows of that part, with "help" named for the rest; the whole list for any
    other system, or a part with no rows of its own for this seat ("help with the rules")."""
    asked = (HELP_WITH_TERSE if narration else HELP_WITH).fullmatch(_normalize(text))
    if asked is not None and system_id == "dnd5e":
        for key, title, words in DND_HELP_TOPICS:
            if not words.fullmatch(asked["topic"]):
                continue
            rows = [
                gm_line if gm else player_line
                for topics, player_line, gm_line in _dnd_help_rows()
                if key in topics
            ]
            shown = [f"- {line}" for line in rows if line]
            if shown:
                return "\n".join([str(title), *shown, _("Say “help” for every command.")])
    return help_text(system_id, gm=gm)


def _help_list_asked(text: str, *, narration: bool = False) -> bool:
    """Whether the line asks for the help list, whatever its spacing, case, emoji or closing
    marks: as written ("?" alone, "what can I say?") or without them ("Help me!"); in a
    narration only in a command's terse words."""
    pattern = HELP_TERSE if narration else HELP
    return bool(pattern.fullmatch(" ".join(text.split())) or pattern.fullmatch(_normalize(text)))


def _help_with_asked(text: str, *, narration: bool = False) -> bool:
    """Whether the line asks for help with a part of the game ("help combat"); in a narration
    only in a command's terse words."""
    return bool((HELP_WITH_TERSE if narration else HELP_WITH).fullmatch(_normalize(text)))


def help_asked(system_id: str, text: str, *, narration: bool = False) -> bool:
    """Whether the line only asks for help: the list, or one part of the game. A narration
    asks only in a command's terse words ("help", "help combat"): "I need help!" is story."""
    said = _normalize(text)
    return bool(
        _help_list_asked(text, narration=narration)
        or _help_with_asked(text, narration=narration)
        or help_topic_text(system_id, said, gm=False, narration=narration)
    )


def _dnd_help_rows() -> list[tuple[tuple[str, ...], str | None, str]]:
    """The dnd5e help list's rows: (the topics of DND_HELP_TOPICS a row is help with, what a
    player reads, what the GM reads); a player's None: a line for the GM alone, a GM's "": a
    line for players alone."""
    return [
        (
            ("combat",),
            _(
                "attack [<target>] [with <weapon>] [with advantage | with disadvantage] "
                "[as a reaction]; <name> hits (or shoots, stabs) <target>; "
                "punch (or kick) <target>, an unarmed strike"
            ),
            _(
                "attack [<target>] [with <weapon>] [with advantage | with disadvantage]; "
                "<name> attacks [<target>] (or hits, shoots, stabs <target>); "
                "<name> attacks <target> as a reaction (an opportunity attack)"
            ),
        ),
        (
            ("checks",),
            _(
                "check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] "
                "(or: roll stealth, roll a dex save)"
            ),
            _(
                "check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] "
                "(or: roll stealth, roll a dex save); for someone: perception check "
                "for <name>, dex save for <name> [dc N]"
            ),
        ),
        (
            ("checks",),
            *_both(
                _(
                    "roll <dice> [drop lowest | with advantage] [for <label>], "
                    "e.g. roll 4d6 drop lowest, roll a d20 and a d6"
                )
            ),
        ),
        (
            ("combat", "moving"),
            *_both(
                _(
                    "move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "
                    "<name> moves to X,Y (or walks east, moves next to <name>); "
                    "end turn or pass (in combat)"
                )
            ),
        ),
        # Conditions too: at 0 HP a creature is unconscious (healing wakes it), standing ends
        # prone.
        (
            ("combat", "conditions"),
            _(
                "death save (at 0 HP); stand up (or <name> gets up); "
                "heal <target> or heal me (a potion)"
            ),
            _("death save for <name>; heal <target> N (a potion without N)"),
        ),
        # The GM's action row has no combat_action (the tool cap): the GM narrates them.
        (
            ("combat",),
            _(
                "dodge, dash, disengage or hide [as a bonus action]; help <name> [attack "
                "<target>]; shove <target> [away] (in combat: your character's action)"
            ),
            "",
        ),
        (
            (),
            _("give me N temp hp (temporary hit points; they do not stack)"),
            _("grant <target> N temp hp (temporary hit points; they do not stack)"),
        ),
        # Damage outside an attack is the GM's ruling (a player attacks instead).
        (
            ("combat",),
            None,
            _(
                "damage <target> N [<type>], e.g. damage goblin 9 fire (or: deal 7 fire "
                "damage to <target>, <target> takes 4 piercing damage; in combat as narration)"
            ),
        ),
        # A player's cleric casts; the GM's long rest is narrated (the action row's cap).
        (
            ("spells",),
            _("cast cure wounds or healing word [on <target>] [at level N] (a cleric)"),
            "",
        ),
        # The rules cast only a player's spells (spell_cast for their character): a monster's
        # spell is the GM's roll and its effect applied, as a GM's cast is told.
        (
            ("spells",),
            None,
            _(
                "a monster's spell: roll its dice, then damage <target> N [<type>] (in combat "
                "as narration; a concentrating target rolls its save) or heal <target> N; "
                "players cast their own spells"
            ),
        ),
        (
            ("rests", "spells"),
            None,
            _("long rest [for <name>] (as narration: hit points and spell slots back)"),
        ),
        (("spells",), _("cast magic missile at <target> [at level N] (a wizard)"), ""),
        (
            ("spells",),
            _("cast fire bolt at <target> (a wizard) or sacred flame on <target> (a cleric)"),
            "",
        ),
        (
            ("spells",),
            _(
                "cast shield of faith [on <target>] (a cleric; +2 AC while concentrating); "
                "end concentration"
            ),
            "",
        ),
        (
            ("spells",),
            _(
                "cast bless on <target>, <target> and me [at level N] (a cleric; +1d4 to "
                "attack rolls and saves while concentrating)"
            ),
            "",
        ),
        (
            ("rests",),
            _("short rest, spend N hit dice (or: spend a hit die; out of combat)"),
            _("short rest for <name>, N hit dice (as narration: Hit Dice heal)"),
        ),
        (
            ("combat", "conditions"),
            None,
            _(
                "poison <target> (or blind, charm, deafen, frighten, paralyze, petrify, "
                "restrain, stun); knock <target> prone; knock <target> unconscious "
                "(or <name> falls asleep, passes out, faints)"
            ),
        ),
        (
            ("conditions",),
            None,
            _(
                "cure <target> of <condition> (or unpoison <target>, remove <condition> "
                "from <target>, <target> is no longer <condition>); stand up (whoever is "
                "up gets up), <name> stands up (or gets up); wake <target>"
            ),
        ),
        (
            ("combat",),
            None,
            _("start combat [with goblin, 2 orcs, a new orc]; end combat; set phase <lobby|play>"),
        ),
        (
            ("combat",),
            _(
                "describe, or look at <target>; whose turn is it?, who's next?, "
                "who's winning?; "
                "what's my hp?, show my character (or look at me)"
            ),
            _(
                "describe, or look at <target>; whose turn is it?, who's next?, "
                "who's winning?; what's <target>'s hp? (a monster's: to you alone)"
            ),
        ),
        # Your own character's (the GM has none), and anyone's.
        (
            ("spells",),
            _(
                "what spells do I have?, how many spell slots do I have left?, what spells "
                "does <name> have?"
            ),
            _("what spells does <name> have?, how many spell slots does <name> have left?"),
        ),
        # How to ask what you can do: in the first section, with the questions a turn asks,
        # and in no other (Moving and Conditions list their commands alone).
        (
            ("combat",),
            _(
                "is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, "
                "how hurt is <target>?, how many goblins are there?, who's here?, "
                "where am I?, how far can I move?, what can I do?"
            ),
            _(
                "is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is "
                "<target>?, how many goblins are there?, who's here?, where am I?, "
                "how can I move?, what can I do?"
            ),
        ),
    ]


def help_text(system_id: str, *, gm: bool) -> str:
    """The help reply: what the scripted agent understands for this system, from this seat (a
    player is not shown the GM's commands)."""
    # (what a player reads, what the GM reads); a player's None: a line for the GM alone.
    lines: list[tuple[str | None, str]]
    if system_id == "dnd5e":
        lines = [(player_line, gm_line) for _topics, player_line, gm_line in _dnd_help_rows()]
    elif system_id == "narrative":
        lines = [
            _both(
                _(
                    'ask the oracle "<question>" [likely|unlikely|even|very likely|...], '
                    "or <question>? (likely)"
                )
            ),
            _both(
                _(
                    "roll <dice> [drop lowest | with advantage] [for <label>], "
                    "e.g. roll a d20 and a d6"
                )
            ),
            (
                None,
                _(
                    "advance [clock] <name> [by N | twice] (or add N to the <name> clock); "
                    "create clock <name> [with] N segments, e.g. create clock Doom 6"
                ),
            ),
            (
                None,
                _(
                    "open scene <title>[: what the players see]; end scene; "
                    "record fact <text> [gm only] (or note that <text>); set phase <lobby|play>"
                ),
            ),
            (None, _("open thread <title>; resolve thread <title>[: how it ended]")),
            _both(_("describe, or look (or: what's happening?, show the clocks, list facts)")),
            _both(
                _(
                    "is the <name> clock full?, how full is the <name> clock?, "
                    "how many clocks are there?, who's here?"
                )
            ),
        ]
    else:
        lines = [_both(_("help"))]
    shown = [gm_line if gm else player_line for player_line, gm_line in lines]
    return _("I understand:") + "\n" + "\n".join(f"- {line}" for line in shown if line)


def _both(line: str) -> tuple[str, str]:
    return line, line


# Said the way a table talks, rewritten to the grammar's words (tried after the text as written).
# "We" as "I": a player speaks for their character, who acts with the party ("we make a dex
# save" is the character's save).
FIRST_PERSON = re.compile(
    # Longest first: "I try to pick the lock" is "pick the lock", not "try to pick …".
    r"^(?:(?:i|we)\s+would\s+(?:like|love)\s+to|(?:i|we)['’]d\s+(?:like|love)\s+to"
    r"|(?:i|we)\s+(?:want|need|try|have)\s+to|(?:i|we)\s+wanna"
    r"|(?:i['’]m|we['’]re|i\s+am|we\s+are)\s+(?:going\s+to|gonna)"
    r"|(?:i|we)\s+will|(?:i|we)['’]ll|(?:i|we)\s+shall|let\s+me|let['’]s|i|we)\s+",
    re.IGNORECASE,
)
# Said of the party ("we search the room", "let's ..."): what is asked of the oracle is ours.
FIRST_PERSON_PLURAL = re.compile(r"^(?:we\b|let['’]s\b)", re.IGNORECASE)
# "whats my hp", "whos here": a question typed without its apostrophe.
WITHOUT_APOSTROPHE = re.compile(r"\b(what|who|how|where)s\b", re.IGNORECASE)
# "please attack the goblin", "ok, end turn", "roll 2d6 please": said around a command.
COURTESY_BEFORE = re.compile(
    r"^(?:(?:" + POLITELY + r"|ok(?:ay)?|alright)(?:\s*,\s*|\s+))+", re.IGNORECASE
)
COURTESY_AFTER = re.compile(r"(?:\s*,\s*|\s+)(?:" + POLITELY + "|" + THANKS + ")$", re.IGNORECASE)
# A potion of healing as said: "a healing potion", "my potion of healing".
POTION = r"(?:an?|my|the|one|1)\s+(?:healing\s+)?potion(?:\s+of\s+healing)?"
# After a punch, kick or head-butt: the body part it is made with ("with my fist"), which is
# the Unarmed Strike's own and dropped, then how the d20 is rolled.
BLOW_WITH = (
    r"(?:\s+with\s+(?!(?:advantage|disadvantage)$)(?:(?!\s+(?:with|at)\s+(?:advantage|"
    r"disadvantage)$).)+)?(?P<mode>\s+(?:with|at)\s+(?:advantage|disadvantage))?"
)
# The mark of a rewrite that reads a blow of the body, said in the fiction's words, as an
# attack: what it is aimed at may be a thing, not a creature (`Parse.in_fiction`).
BLOW = "blow"
DND_REWRITES: tuple[tuple[Any, ...], ...] = (
    # "I use my action to attack the goblin": what the action is spent on is the command.
    (re.compile(r"^uses?\s+(?:my|an|its|their)\s+action\s+to\s+", re.I), ""),
    # "I drink a potion of healing", "give Ilsa a healing potion": the potion "heal" gives.
    (re.compile(r"^(?:drink|quaff|use)s?\s+" + POTION + "$", re.I), "heal me"),
    (re.compile(r"^gives?\s+(?P<target>.+?)\s+" + POTION + "$", re.I), r"heal \g<target>"),
    # "use cure wounds on Mira": a spell the grammar casts is cast.
    (
        re.compile(r"^uses?\s+(?=(?:" + HEALING_SPELLS + "|" + DAMAGE_SPELLS + r")\b)", re.I),
        "cast ",
    ),
    # "fire bolt at the goblin": the cantrip named, not a weapon "bolt" fired (below).
    (re.compile(r"^(?=fire\s+bolt\s+(?:at|on)\s)", re.I), "cast "),
    # "throw a punch at the goblin", "swing my fists at goblin 2": a blow, as "punch" is below;
    # the fists are the Unarmed Strike's, not a weapon's to drop as "swing my sword at" does.
    (
        re.compile(
            r"^(?:throw|swing|aim|land)s?\s+(?P<blow>an?\s+(?:punch|kick|head-?butt)"
            r"|(?:my|bare)\s+(?:fists?|hands?|feet|foot))\s+(?:at|on)\s+"
            r"(?P<target>.+?)" + BLOW_WITH + r"$",
            re.I,
        ),
        r"attack \g<target> with \g<blow>\g<mode>",
        BLOW,
    ),
    # "cast fire bolt at the goblin", "throw my dagger at the goblin": the spell or thrown
    # weapon is the attack's, as "attack the goblin with fire bolt" names it.
    (
        re.compile(
            # A healing, ward or Bless spell or Magic Missile is no attack: its own intent
            # answers it.
            r"^(?:cast|throw|hurl|fire)s?\s+(?!(?:"
            + "|".join((HEALING_SPELLS, DAMAGE_SPELLS, WARD_SPELLS, BLESS_SPELL))
            + r")\b)"
            r"(?P<weapon>.+?)\s+(?:at|on)\s+(?P<target>.+?)"
            r"(?P<mode>\s+(?:with|at)\s+(?:advantage|disadvantage))?$",
            re.I,
        ),
        r"attack \g<target> with \g<weapon>\g<mode>",
    ),
    # "I punch the goblin", "Ilsa kicks goblin 2": an Unarmed Strike (SRD 5.1).
    (
        re.compile(
            r"^(?P<blow>punch|kick|head-?butt)(?:e?s)?\s+(?P<target>.+?)" + BLOW_WITH + r"$",
            re.I,
        ),
        # The blow is kept as the weapon said: the narration tells it so ("a kick").
        r"attack \g<target> with a \g<blow>\g<mode>",
        BLOW,
    ),
    (
        re.compile(
            r"^(?!roll\s)(?P<who>.+?)\s+(?P<blow>punch|kick|head-?butt)(?:e?s)\s+(?P<target>.+?)"
            + BLOW_WITH
            + r"$",
            re.I,
        ),
        r"\g<who> attacks \g<target> with a \g<blow>\g<mode>",
        BLOW,
    ),
    # "swing my sword at the goblin": the weapon said before "at" is only colour.
    (re.compile(r"^(?:swing|strike|hit|shoot|stab|slash)s?\s+(?:.+?\s+)?at\s+", re.I), "attack "),
    # "fire at the goblin": no weapon named.
    (re.compile(r"^fires?\s+at\s+", re.I), "attack "),
    (re.compile(r"^(?:strike|hit|shoot|stab|slash)s?\s+", re.I), "attack "),
    (re.compile(r"^attacks\s+", re.I), "attack "),
    # "goblin 2 shoots its shortbow at Ilsa", "goblin 2 uses its scimitar on Ilsa": the weapon
    # named as its own is the attack's ("its action" is no weapon).
    (
        re.compile(
            r"^(?!roll\s)(?P<who>.+?)\s+(?:swings|strikes|hits|shoots|stabs|slashes|uses)\s+"
            r"(?P<weapon>(?:its|his|her|their)\s+(?!(?:bonus\s+)?action\b|reaction\b|turn\b"
            r"|movement\b).+?)\s+(?:at|on|against)\s+(?P<target>.+?)"
            r"(?P<mode>\s+(?:with|at)\s+(?:advantage|disadvantage))?$",
            re.I,
        ),
        r"\g<who> attacks \g<target> with \g<weapon>\g<mode>",
    ),
    # Who strikes whom, named ("goblin 2 hits Ilsa", "the goblin swings its scimitar at
    # Ilsa"): "<name> attacks <target>", as the GM's suggestions say it. Not in a roll's
    # label ("roll 1d20 for the goblin who shoots Ilsa"), which is kept as said.
    (
        re.compile(
            r"^(?!roll\s)(?P<who>.+?)\s+(?:swings|strikes|hits|shoots|stabs|slashes)\s+"
            r"(?:.+?\s+)?at\s+",
            re.I,
        ),
        r"\g<who> attacks ",
    ),
    (
        re.compile(r"^(?!roll\s)(?P<who>.+?)\s+(?:strikes|hits|shoots|stabs|slashes)\s+", re.I),
        r"\g<who> attacks ",
    ),
    # "I hide", "hide behind the crate": the Hide action, a Dexterity (Stealth) check (SRD),
    # not a free action left to the GM. Only hiding oneself: "hide the map" is no check.
    # A DC the GM gave is kept ("I hide behind the crate dc 15").
    (
        re.compile(
            r"^hides?(?:\s+(?:behind|in|under|among|inside|from|beneath)\b.*?)?"
            r"(?P<dc_said>" + DC + r")(?P<bonus>\s+as\s+(?:a|my)\s+bonus\s+action)?$",
            re.I,
        ),
        r"hide\g<dc_said>\g<bonus>",
    ),
    # "roll a dex save", "roll a stealth check": the save or check itself.
    (
        re.compile(r"^roll\s+(?:an?\s+|for\s+)?(?=" + CHECKED + r"\s+(?:check|sav))", re.I),
        "",
    ),
    # "roll stealth", "roll for perception dc 12": a skill or ability is checked, not dice.
    (
        re.compile(r"^roll\s+(?:an?\s+|for\s+)?(?=" + CHECKED + r"(?!\s+(?:check|sav)))", re.I),
        "check ",
    ),
)
REWRITES: tuple[tuple[Any, ...], ...] = (
    # "oracle: is it raining?", "Oracle, will it rain? likely": the oracle asked.
    (re.compile(r"^(?:the\s+)?oracle\s*[:,]\s*", re.I), "ask the oracle "),
    (re.compile(r"^roll\s+(?:an?\s+)?d(?=\d)", re.I), "roll 1d"),
    # "roll with advantage": no dice named, the d20 a table rolls so.
    (re.compile(r"^roll\s+(?=with\s+(?:advantage|disadvantage)\b)", re.I), "roll 1d20 "),
    # "roll two d6": the count of dice in words.
    (
        re.compile(
            r"^roll\s+(?P<count>" + "|".join([*TEEN_WORDS, *UNIT_WORDS]) + r")\s*d(?=\d)", re.I
        ),
        lambda m: f"roll {_amount(m['count'])}d",
    ),
    (re.compile(r"^roll\s+an?\s+(?=\d)", re.I), "roll "),
)
# Emoji and their joiners, variation selectors and skin tones (which are "Sk", like "^").
EMOJI_PARTS = frozenset({"\u200d", "\ufe0e", "\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))})


def _without_symbols(text: str) -> str:
    """One line without emoji."""
    text = "".join(" " if c in EMOJI_PARTS or unicodedata.category(c) == "So" else c for c in text)
    return " ".join(text.split())


def _normalize(text: str) -> str:
    """One line without emoji or trailing punctuation."""
    return _without_symbols(text).rstrip(".!?…,;: ")


AGAIN = re.compile(r"(?<=\S)\s+(?:again|once\s+more)$", re.IGNORECASE)


def _readings(system_id: str, text: str) -> list[str]:
    """The text as written, then in the grammar's words: first person and synonyms rewritten."""
    return [reading for reading, _blow in _marked_readings(system_id, text)]


def _marked_readings(system_id: str, text: str) -> list[tuple[str, bool]]:
    """`_readings`, each with whether a rewrite read it as a blow of the body (BLOW)."""
    written = " ".join(text.split())
    text = _normalize(text)
    if system_id == "dnd5e":
        # "attack the goblin again" is that attack: no name or command ends in "again", nor
        # in "please" (a roll's label is read in its own words first).
        text = COURTESY_AFTER.sub("", AGAIN.sub("", text))
        # No dnd5e command but a roll takes free text whose closing mark is its own: "with
        # advantage!" or "dc 12." read as written would make the mark part of a weapon or a
        # DC. A roll's label keeps its own ("for luck!"), as in narrative.
        marked = _rewritten(system_id, _without_symbols(written))
        rolled = any(i.pattern.fullmatch(marked[0]) for i in (ROLL, ROLL_EACH))
        readings = [(text, False), (written, False)]
        if rolled:
            readings.insert(0, marked)
    else:
        # As written first: free text (a fact, a question) keeps its "?" and symbols, said
        # in the first person too.
        readings = [(written, False), (text, False), _rewritten(system_id, written)]
    readings.append(_rewritten(system_id, text))
    first: dict[str, bool] = {}
    for reading, blow in readings:
        first.setdefault(reading, blow)  # a text read as written is no rewrite's
    return list(first.items())


def _rewritten(system_id: str, text: str) -> tuple[str, bool]:
    """`text` in the grammar's words: first person and synonyms rewritten; and whether a
    rewrite marked BLOW read it."""
    spoken = FIRST_PERSON.sub("", COURTESY_AFTER.sub("", COURTESY_BEFORE.sub("", text)))
    spoken = WITHOUT_APOSTROPHE.sub(r"\1's", spoken)
    blow = False
    rewrites = (*DND_REWRITES, *REWRITES) if system_id == "dnd5e" else REWRITES
    for pattern, replacement, *marks in rewrites:
        spoken, made = pattern.subn(replacement, spoken, count=1)
        blow = blow or (bool(made) and BLOW in marks)
    return spoken, blow


# The handlers of a cast the rules make for a player's character: a GM saying one of these of
# a creature is answered as for their own "cast".
SPELL_HANDLERS = frozenset({dnd_damage_spell, dnd_healing_spell, dnd_ward_spell, dnd_bless})


def _parse(system_id: str, text: str) -> tuple[Intent | None, re.Match[str] | None]:
    """The first intent of the system's grammar that the whole text matches, as written or as
    a table would read it ("I swing at the goblin!" is "attack the goblin")."""
    return next(_parses(system_id, text), (None, None))


def _parses(system_id: str, text: str) -> Iterator[tuple[Intent, re.Match[str]]]:
    """`_marked_parses` without their marks."""
    for parsed in _marked_parses(system_id, text):
        yield parsed.intent, parsed.match


def _marked_parses(system_id: str, text: str) -> Iterator[Parse]:
    """Each reading's first matching intent, in the order of `_readings`: a later reading is
    tried when an earlier one names nothing there (NotUnderstood: "advance Doom by 2." as
    written ends in the full stop that makes "Doom by 2." no clock's name)."""
    for reading, blow in _marked_readings(system_id, text):
        for intent in GRAMMARS.get(system_id, ()):
            if found := intent.pattern.fullmatch(reading):
                fiction = FICTION in intent.pattern.groupindex and found[FICTION] is not None
                yield Parse(intent, found, blow or fiction)
                break


def _verbs(system_id: str) -> frozenset[str]:
    """The first words of the system's grammar, for correcting a misspelt one."""
    words = {"help", "look", "describe", "examine", "make", "death", "save", "check"}
    for intent in GRAMMARS.get(system_id, ()):
        # The first verb of a group, nested or not: "(?:(?:create|add|…)\s+…" gives "create".
        if first := re.match(r"(?:\((?:\?:)?)*([a-z]+)", intent.pattern.pattern):
            words.add(first[1])
    return frozenset(words)


# The commands `Session.require` gives the GM alone: a player's typo is never corrected to one,
# since doing it would only be refused.
GM_ONLY_HANDLERS: frozenset[Callable[[Session, re.Match[str]], None]] = frozenset(
    {
        dnd_condition,
        dnd_condition_remove,
        dnd_start_combat,
        dnd_end_combat,
        set_phase,
        nar_advance_clock,
        nar_create_clock,
        nar_open_scene,
        nar_end_scene,
        nar_open_thread,
        nar_resolve_thread,
        nar_record_fact,
    }
)


def _did_you_mean(system_id: str, text: str, *, gm: bool) -> str | None:
    """The text with its misspelt first word corrected, when exactly one verb is close and the
    result is understood as a command this seat (`gm` or not) may use; the agent asks rather
    than acts on a guess."""
    for reading in _readings(system_id, text):
        first, _sep, rest = reading.partition(" ")
        verbs = _verbs(system_id)
        if not first or first.lower() in verbs:
            continue
        close = difflib.get_close_matches(first.lower(), verbs, n=2, cutoff=TYPO_CUTOFF)
        if len(close) == 1:
            corrected = f"{close[0]} {rest}".strip()
            intent = _parse(system_id, corrected)[0]
            # Not one that only the story can tell a command ("advance the plot" names a
            # clock only if there is one): that would be a guess offered as a command.
            if intent is None or intent.handler is nar_advance_named_clock:
                continue
            if gm or intent.handler not in GM_ONLY_HANDLERS:
                return corrected
    return None


def _ask(s: Session, corrected: str) -> None:
    """Answer a misspelt command with the corrected one (its target corrected too, from the
    names present), as a question and a suggestion; nothing is acted on."""
    intent, match = _parse(s.turn.system_id, corrected)
    if intent is not None and match is not None and s.turn.system_id == "dnd5e":
        target = match.groupdict().get("target")
        if target:
            s.match = match
            try:
                resolve(s, dnd_roster(s), target)
            except Refusal:
                # A close name was found: resolve suggested the command with both corrected.
                corrected = s.suggestions.pop() if s.suggestions else corrected
            s.match = None
    s.suggestions[:] = [corrected]
    s.say(_("Did you mean: %(command)s?") % {"command": corrected}, audience="requester")


# Said of oneself but no action to attempt ("I am hiding", "I have a rope").
STATE_VERBS = frozenset(
    {"am", "are", "was", "were", "have", "had", "can", "cannot", "can't", "know", "think"}
)


# A free action's first words (after "I"), and the skill check that decides it in dnd5e.
FREE_ACTION_SKILLS = (
    (re.compile(r"(?:search|investigate|inspect)\b", re.I), "investigation"),
    (re.compile(r"(?:look|watch|keep watch)\s+(?:out\s+)?for\b|(?:spot|listen|notice)\b", re.I),
     "perception"),
    (re.compile(r"(?:climb|jump|leap|swim)\b", re.I), "athletics"),
    (re.compile(r"(?:sneak|hide|creep)\b", re.I), "stealth"),
    (re.compile(r"(?:persuade|convince)\b", re.I), "persuasion"),
    (re.compile(r"(?:lie|bluff|deceive)\b", re.I), "deception"),
    (re.compile(r"(?:intimidate|threaten)\b", re.I), "intimidation"),
)  # fmt: skip
# What thieves' tools do: no skill covers it, and the tools are not tracked.
THIEVES_TOOLS = re.compile(r"(?:pick|unlock|open)\s+(?:the\s+|a\s+)?lock|disarm\b", re.I)


# Actions in combat a line may name: the rules keep Dodge, Dash and Disengage for a player's
# own character in combat; nothing keeps what a Help grants.
UNTRACKED_ACTIONS = re.compile(
    r"(?:take\s+the\s+)?(?P<action>dodge|dash|disengage|help)(?:e?s)?\b(?!\s+me\b)", re.I
)


# A fighter's Second Wind, which the rules here do not have: what heals instead is said.
SECOND_WIND = re.compile(
    r"(?:(?:can|could|may)\s+i\s+)?(?:(?:.+?\s+)?(?:uses?|takes?|activates?|does)\s+)?"
    r"(?:my\s+|the\s+|a\s+|her\s+|his\s+|their\s+|its\s+)?second\s+wind\b.*",
    re.IGNORECASE,
)


def _free_action_hint(
    text: str, *, characterless_gm: bool, in_combat: bool, takes_actions: bool = False
) -> tuple[str, str | None] | None:
    """(reply, suggestion) for a dnd5e free action a skill check decides ("I search the
    room" is "check investigation"); None when no check fits. A GM without a character has
    nobody to make the check, so is told who can, with no suggestion to press. `takes_actions`:
    the rules' combat_action is offered, so a Dodge said with more words is offered as one."""
    action = FIRST_PERSON.sub("", _normalize(text))
    if SECOND_WIND.fullmatch(action):
        if characterless_gm:
            reply = _(
                "The rules here have no Second Wind yet: roll 1d10 plus the fighter's level "
                "(roll 1d10+1 at level 1), then give the hit points back with: heal <name> N."
            )
            return reply, None
        reply = _(
            "The rules here have no Second Wind yet. To heal, say: heal me (a potion of "
            "healing, your character's action in combat), or out of combat: short rest, spend "
            "a hit die."
        )
        return reply, _("heal me")
    if untracked := UNTRACKED_ACTIONS.match(action):
        # Here when no tool took it: the GM rules on it. Only a fight has a turn to end and a
        # grid to move on.
        named = {"action": untracked["action"].lower().capitalize()}
        if takes_actions:
            # The rules would take it: said with more words than the command reads.
            if named["action"] == "Help":
                return _("To take the Help action, say: help <name> [attack <target>]."), None
            command = untracked["action"].lower()
            named["command"] = command
            return _("To take the %(action)s action, say: %(command)s.") % named, command
        # The rules take these for a player's own character in combat (combat_action).
        if in_combat:
            reply = _(
                "The rules take the %(action)s action for a player's own character; a "
                "monster takes it when the GM sends it as narration. What I can do: end turn, "
                "or move to X,Y (say “help” for everything I understand)."
            )
            return reply % named, _("end turn")
        if named["action"] != "Help":
            reply = _(
                "The %(action)s action is taken in combat, on your character's turn: outside "
                "a fight the GM rules on it (say “help” for everything I understand)."
            )
            return reply % named, None
        # Outside a fight, helping with a task is the GM's to rule on.
        reply = _(
            "The rules server doesn't track the %(action)s action: the GM rules on it in "
            "this room (say “help” for everything I understand)."
        )
        return reply % named, None
    tools = THIEVES_TOOLS.match(action)
    skill = "dexterity" if tools else None
    for pattern, checked in () if tools else FREE_ACTION_SKILLS:
        if pattern.match(action):
            skill = checked
            break
    if skill is None:
        return None
    command = _("check %(what)s") % {"what": skill}
    if characterless_gm:
        reply = _(
            "I can't judge free actions, and you have no character to check with: a player "
            "can “%(command)s” for theirs, or roll for anyone with “roll 1d20+3”."
        ) % {"command": command}
        return reply, None
    if tools:
        # In the rules a Dexterity check with the tools' proficiency added: only the first
        # part is there to offer, and the reply says so.
        reply = _(
            "The GM here can't judge free actions, and thieves' tools are not tracked; the "
            "nearest is: %(command)s."
        ) % {"command": command}
        return reply, command
    reply = _("The GM here can't judge free actions; try: %(command)s.") % {"command": command}
    return reply, command


def _judgement_hint(
    system_id: str,
    text: str,
    *,
    characterless_gm: bool = False,
    in_combat: bool = False,
    takes_actions: bool = False,
) -> tuple[str, str | None] | None:
    """(reply, suggestion) for a free action or a question that only a GM could judge, in the
    narrative system: the oracle's command with the player's own words ("I search the room"
    is asked "Do I manage to search the room?"), in dnd5e the skill check that decides it;
    None for anything else."""
    if system_id == "dnd5e":
        return _free_action_hint(
            text,
            characterless_gm=characterless_gm,
            in_combat=in_combat,
            takes_actions=takes_actions,
        )
    if system_id != "narrative":
        return None
    said = _normalize(text)
    question = " ".join(text.split()).endswith("?")
    odds = QUESTION_WITH_ODDS.fullmatch(said)
    if odds and len(odds["question"]) < ECHO_LENGTH:
        # The odds said after it are offered with it, in the oracle's words.
        asked = odds["question"][:1].upper() + odds["question"][1:]
        likelihood = (_likelihood(odds["odds"]) or "even").replace("_", " ")
        command = _("ask the oracle “%(question)s” %(odds)s") % {
            "question": asked,
            "odds": likelihood,
        }
        reply = _(
            "That is for the GM or the oracle to judge. Ask the oracle, like: %(command)s "
            "(or say “help” for what I understand)."
        ) % {"command": command}
        return reply, command
    if question and YES_NO.match(said) and len(said) < ECHO_LENGTH:
        asked = said[:1].upper() + said[1:] + "?"
    elif not question and FIRST_PERSON.match(said):
        action = FIRST_PERSON.sub("", said)
        first = action.split(" ", 1)[0].lower()
        if not action or first in STATE_VERBS or len(action) >= ECHO_LENGTH:
            return None
        asked = (
            _("Do we manage to %(action)s?")
            if FIRST_PERSON_PLURAL.match(said)
            else _("Do I manage to %(action)s?")
        ) % {"action": action}
    elif question:
        reply = _(
            "That is for the GM or the oracle to judge: “look” describes the scene, and the "
            "oracle answers yes-or-no questions, like: ask the oracle “Is it locked?” likely "
            "(or say “help” for what I understand)."
        )
        return reply, _("look")
    else:
        return None
    command = _("ask the oracle “%(question)s”") % {"question": asked}
    reply = _(
        "That is for the GM or the oracle to judge. Ask the oracle, like: %(command)s "
        "(or say “help” for what I understand)."
    ) % {"command": command}
    return reply, command


@dataclass(frozen=True)
class Form:
    """A command for a thing the grammar knows, as the help list words it: what it does, its
    words for the GM and for a player (None: the GM's alone), and the words of a text that
    pick it among the thing's forms (none: the thing's default, listed last)."""

    what: Any  # lazy translations, as said at the table
    gm: Any
    player: Any = None
    picked_by: frozenset[str] = frozenset()


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Every form of a move, as "how can I move?" is told them.
MOVE_FORMS = gettext_lazy("move N squares <direction>, move to X,Y or move to <target>")


ENDED = _words("end ends ended close closed finish finished stop over done")
# What a text may name that the grammar knows, per system: (the name, what a player is told
# only the GM can do with it, its forms). Mentioned in a text no intent takes, it is answered
# with its nearest form instead of the whole help list.
NEAREST_FORMS: dict[str, tuple[tuple[re.Pattern[str], Any, tuple[Form, ...]], ...]] = {
    "narrative": (
        (
            re.compile(r"\bthreads?\b", re.I),
            gettext_lazy("open or resolve a thread"),
            (
                Form(
                    gettext_lazy("resolve a thread"),
                    gettext_lazy("resolve thread <title>[: how it ended]"),
                    picked_by=ENDED | _words("resolve resolved complete completed solved"),
                ),
                Form(gettext_lazy("open a thread"), gettext_lazy("open thread <title>")),
            ),
        ),
        (
            re.compile(r"\bclocks?\b", re.I),
            gettext_lazy("create or advance a clock"),
            (
                Form(
                    gettext_lazy("advance a clock"),
                    gettext_lazy("advance clock <name> [by N]"),
                    picked_by=_words("advance advances tick ticks fill raise bump"),
                ),
                Form(
                    gettext_lazy("create a clock"),
                    gettext_lazy("create clock <name> with N segments (e.g. create clock Doom 6)"),
                ),
            ),
        ),
        (
            re.compile(r"\bscenes?\b", re.I),
            gettext_lazy("open or end a scene"),
            (
                Form(gettext_lazy("end the scene"), gettext_lazy("end scene"), picked_by=ENDED),
                Form(gettext_lazy("open a scene"), gettext_lazy("open scene <title>")),
            ),
        ),
        (
            re.compile(r"\b(?:facts?|remember)\b", re.I),
            gettext_lazy("record a fact"),
            (Form(gettext_lazy("record a fact"), gettext_lazy("record fact <text> [gm only]")),),
        ),
        (
            re.compile(r"\bphases?\b", re.I),
            gettext_lazy("set the phase"),
            (Form(gettext_lazy("set the phase"), gettext_lazy("set phase <lobby|play>")),),
        ),
    ),
    "dnd5e": (
        (
            re.compile(r"\b(?:combat|fight|battle)\b", re.I),
            gettext_lazy("start or end combat"),
            (
                Form(gettext_lazy("end combat"), gettext_lazy("end combat"), picked_by=ENDED),
                Form(
                    gettext_lazy("start combat"), gettext_lazy("start combat [with goblin, 2 orcs]")
                ),
            ),
        ),
        (
            re.compile(r"\bphases?\b", re.I),
            gettext_lazy("set the phase"),
            (Form(gettext_lazy("set the phase"), gettext_lazy("set phase <lobby|play>")),),
        ),
        (
            re.compile(r"\bdeath\s+sav", re.I),
            None,
            (
                Form(
                    gettext_lazy("make a death save"),
                    gettext_lazy("death save for <name>"),
                    gettext_lazy("death save"),
                ),
            ),
        ),
        (
            re.compile(r"\b(?:checks?|saves?|saving\s+throws?)\b", re.I),
            None,
            (
                Form(
                    gettext_lazy("make a check or a save"),
                    gettext_lazy(
                        "perception check for <name> [dc N], or dex save for <name> [dc N]"
                    ),
                    gettext_lazy("check <ability or skill> [dc N], or save <ability> [dc N]"),
                ),
            ),
        ),
        (
            # A punch, kick, head-butt, swing or hit at nobody named (or at a thing: "head-butt the
            # door"), and a charge, which may be a move or an attack. Hit points and hit dice
            # are no blow.
            re.compile(
                r"\b(?:attack|punch(?:es)?|kicks?|head-?butts?|swings?|charges?"
                r"|hits?(?!\s+(?:points?|di(?:c?e)|hp)\b))\b",
                re.I,
            ),
            None,
            (
                Form(
                    gettext_lazy("attack"),
                    gettext_lazy("<name> attacks <target>"),
                    gettext_lazy("attack <target> [with <weapon>]"),
                ),
            ),
        ),
        (
            # "I step back", "I run away", "approach the altar": a move with no square,
            # direction or creature to stand beside. ("move" itself is close to "move to X,Y",
            # which is offered.)
            re.compile(r"\b(?:walk|run|step|retreat|approach(?:e)?)s?\b", re.I),
            None,
            (
                Form(
                    gettext_lazy("move"),
                    MOVE_FORMS,
                    MOVE_FORMS,
                ),
            ),
        ),
        (
            re.compile(r"\b(?:heal|potion)\b", re.I),
            None,
            (
                Form(
                    gettext_lazy("heal"),
                    gettext_lazy("heal <target> N (a potion without N)"),
                    gettext_lazy("heal <target> (a potion)"),
                ),
            ),
        ),
        (
            # "I rest", "we rest for the night": a short rest or a long one, which are called
            # differently (a long rest is the GM's): not taken on a guess.
            re.compile(r"\brest(?:s|ing)?\b", re.I),
            gettext_lazy("call a long rest"),
            (
                Form(
                    gettext_lazy("take a long rest"),
                    gettext_lazy("long rest [for <name>]"),
                    picked_by=_words("long night overnight sleep camp"),
                ),
                Form(
                    gettext_lazy("rest"),
                    gettext_lazy("short rest for <name>, N hit dice, or long rest [for <name>]"),
                    gettext_lazy("short rest, spend N hit dice (a long rest is the GM's call)"),
                ),
            ),
        ),
        (
            # A turn to be ended ("skip my turn", "my turn is over", "I'm done"), not one asked
            # about ("whose turn is it"): that has nothing to end.
            re.compile(
                r"\b(?:skip|end|pass|finish)\b.*\bturns?\b|\bturns?\b.*\b(?:over|done|ended)\b"
                r"|^(?:(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+)?(?:all\s+)?(?:done|finished)$",
                re.I,
            ),
            None,
            (
                Form(
                    gettext_lazy("end a turn"),
                    gettext_lazy("end turn, or end <name>'s turn"),
                    gettext_lazy("end turn (or pass)"),
                ),
            ),
        ),
    ),
}


def _nearest_form(system_id: str, text: str, *, gm: bool) -> tuple[str, str | None] | None:
    """(reply, suggestion) for a text no intent takes that names a thing the grammar knows
    (the first it names): that thing's command, picked by the text's words (a misspelt one
    too), or for a player a GM's command said to be the GM's; None when it names nothing."""
    nearest = _nearest_command(system_id, text, gm=gm)
    if nearest is None:
        return None
    what, command = nearest
    if command is None:
        # A player is told whose it is, as a refusal would, with nothing to press.
        reply = _(
            "I did not understand that. Only the GM can %(what)s (say “help” for what you can do)."
        ) % {"what": what}
        return reply, None
    reply = _(
        "I did not understand that. To %(what)s, say: %(command)s (or say “help” for what I "
        "understand)."
    ) % {"what": what, "command": command}
    return reply, _pressable(command)


def _nearest_command(system_id: str, text: str, *, gm: bool) -> tuple[str, str | None] | None:
    """(what, command) for the thing the grammar knows that `text` names first, as
    `_nearest_form` picks it: the command from this seat, or None with the GM's words for
    what only the GM can do; None when it names nothing."""
    said = _normalize(text)
    named = [(m.start(), what, forms) for p, what, forms in NEAREST_FORMS.get(system_id, ())
             if (m := p.search(said))]  # fmt: skip
    if not named:
        return None
    _start, gm_what, forms = min(named, key=lambda found: found[0])
    words = said.lower().split()

    def picks(form: Form) -> bool:
        return any(difflib.get_close_matches(w, form.picked_by, n=1, cutoff=TYPO_CUTOFF)
                   for w in words)  # fmt: skip

    form = next((f for f in forms if f.picked_by and picks(f)), forms[-1])
    said_as = form.gm if gm else form.player
    if said_as is None:
        return str(gm_what), None
    return str(form.what), str(said_as)


def _pressable(command: str) -> str | None:
    """A command's first form ("end turn" of "end turn (or pass)"), which can be pressed if
    nothing in it is to fill in; else None."""
    first = re.split(r",| \(", command, maxsplit=1)[0]
    return first if not re.search(r"[<\[]", first) else None


def _movement_told(s: Session) -> str:
    """In combat, how far the requester's character can still go: its movement left on its
    turn, its speed otherwise ("" outside combat, or without a character in the fight)."""
    if s.turn.phase != "combat" or not s.turn.character_id or not s.offered("combat_status"):
        return ""
    combat = _read_combat(s)
    entry = next((e for e in combat["order"] if e["character"]["id"] == s.turn.character_id),
                 None)  # fmt: skip
    if entry is None or entry["character"].get("speed") is None:
        return ""
    values = {"who": entry["character"]["name"], "speed": entry["character"]["speed"]}
    left = (entry.get("budget") or {}).get("movement")
    if combat["current"] != s.turn.character_id or left is None:
        return _("%(who)s's speed is %(speed)s ft a turn.") % values
    return _("%(who)s has %(left)s ft of movement left this turn (speed %(speed)s ft).") % {
        **values,
        "left": left,
    }


# "how do I attack?", "how can I move?": how a command is said, asked ("how far can I move?":
# a move's, with the movement left).
HOW_DO_I = re.compile(
    r"how\s+(?:far\s+)?(?:do|can|should)\s+(?:i|we)\s+(?P<rest>.+)", re.IGNORECASE
)
# A move asked about in the words of any of its forms: "how can I go?"
MOVE_ASKED = frozenset({"move", "go", "walk", "run", "step"})


def _how_to_say(s: Session, text: str) -> bool:
    """Answer "how do I attack?" with the form of the command it names (as `_nearest_form`
    finds it), to the requester; False when the question names none."""
    asked = HOW_DO_I.fullmatch(_normalize(text))
    if asked is None:
        return False
    rest = asked["rest"]
    nearest = _nearest_command(s.turn.system_id, rest, gm=s.turn.is_gm)
    if nearest is None and s.turn.system_id == "dnd5e" and rest.split()[0].lower() in MOVE_ASKED:
        # "how can I move?": every form of a move, as a move in other words is told them.
        nearest = _nearest_command(s.turn.system_id, "walk", gm=s.turn.is_gm)
    if nearest is None:
        # "how do I move?": the commands that begin with the verb asked about, if any.
        verb = rest.split()[0].lower()
        said = [
            c
            for c in _closest_commands(s.turn.system_id, rest, gm=s.turn.is_gm)
            if c.split()[0] == verb
        ]
        if not said:
            return False
        s.say(_("Say: %(commands)s.") % {"commands": "; ".join(said)}, audience="requester")
        s.suggestions.extend(c for c in said if _pressable(c) == c)
        return True
    what, command = nearest
    if command is None:
        s.say(_("Only the GM can %(what)s.") % {"what": what}, audience="requester")
        return True
    text = _("To %(what)s, say: %(command)s.") % {"what": what, "command": command}
    if command == str(MOVE_FORMS) and (left := _movement_told(s)):
        text += " " + left
    s.say(text, audience="requester")
    if pressed := _pressable(command):
        s.suggestions.append(pressed)
    return True


# Short forms of the commands, per system, as (command, the GM's alone), for the closest few
# to a text no intent takes: the whole list is "help"'s.
SHORT_COMMANDS: dict[str, tuple[tuple[Any, bool], ...]] = {
    "dnd5e": (
        (gettext_lazy("attack <target>"), False),
        (gettext_lazy("check <ability or skill>"), False),
        (gettext_lazy("save <ability>"), False),
        (gettext_lazy("roll <dice>"), False),
        (gettext_lazy("move to X,Y"), False),
        (gettext_lazy("end turn"), False),
        (gettext_lazy("death save"), False),
        (gettext_lazy("stand up"), False),
        (gettext_lazy("heal <target>"), False),
        (gettext_lazy("dodge"), False),
        (gettext_lazy("dash"), False),
        (gettext_lazy("disengage"), False),
        (gettext_lazy("hide"), False),
        (gettext_lazy("help <name>"), False),
        (gettext_lazy("shove <target>"), False),
        (gettext_lazy("describe"), False),
        (gettext_lazy("look at <target>"), False),
        (gettext_lazy("whose turn is it?"), False),
        (gettext_lazy("what can I do?"), False),
        (gettext_lazy("start combat"), True),
        (gettext_lazy("end combat"), True),
        (gettext_lazy("set phase <lobby|play>"), True),
    ),
    "narrative": (
        (gettext_lazy("ask the oracle “<question>”"), False),
        (gettext_lazy("roll <dice>"), False),
        (gettext_lazy("describe"), False),
        (gettext_lazy("how many clocks are there?"), False),
        (gettext_lazy("advance clock <name> [by N]"), True),
        (gettext_lazy("create clock <name> N"), True),
        (gettext_lazy("open scene <title>"), True),
        (gettext_lazy("end scene"), True),
        (gettext_lazy("open thread <title>"), True),
        (gettext_lazy("resolve thread <title>"), True),
        (gettext_lazy("record fact <text>"), True),
        (gettext_lazy("set phase <lobby|play>"), True),
    ),
}
# Words too common to make a command close ("at the orc" is no "look at <target>").
COMMON_WORDS = frozenset({"the", "a", "an", "at", "to", "is", "it", "my", "me", "i", "of"})
CLOSEST_LIMIT = 3
# Closer than a typo's cutoff: "dance" is 0.83 of "advance" and no misspelling of it.
CLOSE_WORD = 0.85
# A word this long with one slip of the fingers is still the word.
SLIP_LENGTH = 5


def _one_slip(said: str, word: str) -> bool:
    """Whether `said` is `word` with one letter mistyped or two neighbours swapped ("shuve",
    "dogde"): for a five-letter word that is a ratio of 0.8, under CLOSE_WORD, though it is
    plainly that word, where "dance" (two letters more than it) is no "advance"."""
    if len(said) != len(word) or len(word) < SLIP_LENGTH:
        return False
    differ = [i for i, (a, b) in enumerate(zip(said, word, strict=True)) if a != b]
    if len(differ) == 1:
        return True
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and said[differ[0]] == word[differ[1]]
        and said[differ[1]] == word[differ[0]]
    )


def _closest_commands(system_id: str, text: str, *, gm: bool) -> list[str]:
    """Up to three commands this seat may use whose words are the text's (or close to them:
    "advnce" is "advance"; a first word one slip from the command's, "shuve" for "shove"),
    closest first; none when nothing is close."""
    said = [w for w in re.findall(r"[a-z]+", FIRST_PERSON.sub("", _normalize(text)).lower())
            if w not in COMMON_WORDS]  # fmt: skip
    scored: list[tuple[float, int, str]] = []
    for index, (command, gm_only) in enumerate(SHORT_COMMANDS.get(system_id, ())):
        if gm_only and not gm:
            continue
        words = [w for w in re.findall(r"[a-z]+", re.sub(r"<[^>]*>", "", str(command)).lower())
                 if w not in COMMON_WORDS]  # fmt: skip
        score = max(
            (difflib.SequenceMatcher(None, a, b).ratio() for a in said for b in words), default=0
        )
        if score >= CLOSE_WORD or (said and words and _one_slip(said[0], words[0])):
            scored.append((-score, index, str(command)))
    return [command for _score, _index, command in sorted(scored)[:CLOSEST_LIMIT]]


# "the goblin flees", "goblin 2 runs away": a creature leaving the fight, said in the fiction.
FLEES = re.compile(
    r"(?:the\s+)?(?P<who>.+?)\s+(?:flees?|runs?\s+(?:away|off)|retreats?|bolts?|escapes?"
    r"|takes?\s+flight|turns?\s+(?:tail|and\s+(?:runs?|flees?)))(?:\s+(?:away\s+)?from\s+.+)?",
    re.IGNORECASE,
)


def _flight_hint(s: Session, text: str) -> str | None:
    """The GM's reply to a creature said to flee in combat: the rules move it only to a square,
    on its turn, so the GM is told the commands that do. None otherwise (a player, no fight)."""
    if s.turn.system_id != "dnd5e" or not s.turn.is_gm or s.turn.phase != "combat":
        return None
    fled = FLEES.fullmatch(_normalize(text))
    if fled is None:
        return None
    return _(
        "To have %(name)s flee, move it on its turn: %(name)s moves to X,Y (or %(name)s moves N "
        "squares <direction>). Leaving a foe's reach provokes an opportunity attack unless it "
        "disengages first (as narration: %(name)s disengages)."
    ) % {"name": fled["who"]}


# Asked of "you", the GM the line is said to, who has no character: its spells ("what can you
# cast?", "what spells do you have?", "your spell slots"), or its numbers ("how many hp do you
# have?", "what's your AC?", "your character sheet").
SPELLS_OF_YOU = re.compile(
    r"(?:(?:what|which)\s+spells?(?:\s+slots)?\s+(?:do|does|can|have)\s+(?:you|yourself)\s+"
    r"(?:have|know|cast|got)(?:\s+(?:left|now))?"
    r"|how\s+many\s+spell\s+slots\s+(?:do|does|have)\s+(?:you|yourself)\s+(?:have|got)"
    r"(?:\s+(?:left|now))?"
    r"|what\s+can\s+(?:you|yourself)\s+cast"
    r"|(?:what(?:'s|’s|\s+is|\s+are)\s+|(?:show|list|see|check)(?:\s+me)?\s+)?your\s+"
    r"(?:spells|spell\s+slots|spell\s+list)(?:\s+left)?)",
    re.IGNORECASE,
)
NUMBERS_OF_YOU = re.compile(
    r"(?:how\s+(?:much|many)\s+(?:hp|hit\s+points|health)\s+(?:do|does|have)\s+(?:you|yourself)"
    r"\s+(?:have|got)(?:\s+(?:left|now))?"
    r"|(?:whats?\s+|what(?:'s|’s|\s+is|\s+are)\s+|(?:show|see|check)(?:\s+me)?\s+)?your\s+"
    r"(?:hp|hit\s+points|health|ac|armou?r\s+class|stats|conditions|sheet"
    r"|character(?:\s+sheet)?)(?:\s+(?:left|now))?)",
    re.IGNORECASE,
)


def _asked_of_you_hint(s: Session, text: str) -> tuple[str, str | None] | None:
    """(reply, suggestion) for spells or numbers asked of "you" (the GM, who has no character):
    the questions that read a character's, the asker's own first if they have one; None for
    anything else."""
    if s.turn.system_id != "dnd5e":
        return None
    said = _normalize(text)
    if SPELLS_OF_YOU.fullmatch(said):
        own = _("what spells do I have?")
        # A player with no character too: "what spells do I have?" would only say they have none.
        if not s.turn.character_id:
            return _(
                "I have no spells of my own: ask “what spells does <name> have?” for a character's."
            ), None
        return _(
            "I have no spells of my own: ask “%(own)s” for your character's, or “what spells "
            "does <name> have?” for another's."
        ) % {"own": own}, own
    if NUMBERS_OF_YOU.fullmatch(said):
        own = _("what's my hp?")
        if not s.turn.character_id:
            return _("I have no character of my own: ask “look at <name>” for a character's."), None
        return _(
            "I have no character of my own: ask “%(own)s” for your character's, or “look at "
            "<name>” for another's."
        ) % {"own": own}, own
    return None


def _not_understood(s: Session, text: str) -> AgentOutput:
    """The reply to text no intent takes: a way forward for a free action or question only a
    GM could judge, else the nearest command for a thing it names, else the help list. A GM's
    narration that no command takes is left as the GM said it, with no reply."""
    s.messages.clear()
    s.suggestions.clear()
    if s.turn.task == "narration":
        return s.output(help_only=True)
    # "How do I open a thread?" asks for a command's words, not for a GM's or oracle's ruling.
    if _how_to_say(s, text):
        return s.output(help_only=True)
    if flight := _flight_hint(s, text):
        s.say(flight, audience="requester")
        return s.output(help_only=True)
    if asked_of_you := _asked_of_you_hint(s, text):
        reply, suggestion = asked_of_you
        s.say(reply, audience="requester")
        if suggestion:
            s.suggestions.append(suggestion)
        return s.output(help_only=True)
    characterless_gm = s.turn.is_gm and not s.turn.character_id
    hint = _judgement_hint(
        s.turn.system_id,
        text,
        characterless_gm=characterless_gm,
        in_combat=s.turn.phase == "combat",
        takes_actions=s.turn.phase == "combat" and s.offered("combat_action"),
    )
    if hint:
        reply, suggestion = hint
        if suggestion and s.turn.phase == "lobby" and not s.offered("ability_check"):
            # The check offered would be refused in the lobby: say so, not offer it.
            try:
                s.require("ability_check", what=_("make an ability check"))
            except Refusal as refusal:
                reply, suggestion = str(refusal), None
        s.say(reply, audience="requester")
        if suggestion:
            s.suggestions.append(suggestion)
        return s.output(help_only=True)
    if s.turn.system_id == "dnd5e" and text.rstrip().endswith("?"):
        # A question the rules' state does not answer: what can be asked instead, not the list.
        s.say(
            _(
                "I can only answer from the game's state: whose turn is it?, what can I do?, "
                "where am I?, is <name> dead?, how many goblins are there?, or “describe” (say "
                "“help” for every command)."
            ),
            audience="requester",
        )
        s.suggestions.append(_("describe"))
        return s.output(help_only=True)
    # A question ("is the clock ticking?") is not a command to correct: it gets the help.
    if not text.rstrip().endswith("?") and (
        nearest := _nearest_form(s.turn.system_id, text, gm=s.turn.is_gm)
    ):
        reply, suggestion = nearest
        s.say(reply, audience="requester")
        if suggestion:
            s.suggestions.append(suggestion)
        return s.output(help_only=True)
    reply = _("I did not understand that.")
    if closest := _closest_commands(s.turn.system_id, text, gm=s.turn.is_gm):
        reply += " " + _("Closest: %(commands)s.") % {"commands": "; ".join(closest)}
        # Only a command with nothing to fill in can be pressed as it is.
        s.suggestions.extend(c for c in closest if not re.search(r"[<\[]|X,Y", c))
    s.say(reply + " " + _("Say “help” for everything I understand."), audience="requester")
    return s.output(help_only=True)


# "Can I attack the goblin?": a command asked about rather than said.
CAN_I = re.compile(r"(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?P<rest>.+)", re.IGNORECASE)
# What only reads and answers: asked about with "can I", it is simply answered.
ANSWERED = frozenset(
    {
        dnd_sheet, dnd_describe, dnd_whose_turn, dnd_whose_next, dnd_combat_summary, dnd_is,
        dnd_how_many,
        dnd_where, dnd_what_now, nar_describe, nar_cast, nar_how_many_clocks, nar_clock_asked,
    }
)  # fmt: skip


@dataclass(frozen=True)
class Asked:
    """A command a "can I …" question asks about: the line as said after "can I" ("kick the
    door"), and the grammar's reading of it ("attack the door with a kick")."""

    said: str
    parsed: Parse

    @property
    def command(self) -> str:
        return self.parsed.match.string

    @property
    def answered(self) -> bool:
        """It only reads: it is answered, not offered."""
        return self.parsed.intent.handler in ANSWERED


def _asked_about(system_id: str, text: str) -> Asked | None:
    """The command a "can I …" question asks about, as the grammar reads it; None when what
    follows "can I" is no command."""
    asked = CAN_I.fullmatch(_normalize(text))
    if asked is None:
        return None
    parsed = next(_marked_parses(system_id, asked["rest"]), None)
    if parsed is None:
        return None
    return Asked(asked["rest"], parsed)


class ScriptedAgent:
    """The default provider: the grammar above, no network besides the domain server."""

    name = "scripted"

    @staticmethod
    def action_audience(*, system_id: str, text: str, audience: str, task: str = "action") -> str:
        """A GM's action marked "gm only" ("record fact … gm only", misspelt or not) is itself
        the secret: it is posted GM-only, whatever the grammar makes of it (fail closed). So is
        a GM's help request: sent as narration, "help" was posted to the players as the GM's
        words, though the answer is the GM's alone. A narrated plea ("I need help!") is no
        request (run_turn gives it no reply), so it stays as sent."""
        narration = task == "narration"
        if GM_ONLY_MARK.search(text) or help_asked(system_id, text, narration=narration):
            return "gm"
        return audience

    def run_turn(self, turn: TurnContext, call_tool: CallTool) -> AgentOutput:
        session = Session(turn, call_tool)
        text = " ".join(turn.text.split())
        if asked := _asked_about(turn.system_id, text):
            if not asked.answered:
                # A question is not the command: nothing is done on it, the command is
                # offered, if it would be acted on; else it is answered as the line said.
                try:
                    _target_here(session, asked.parsed)
                except NotUnderstood:
                    return _not_understood(session, asked.said)
                except Refusal as refusal:
                    session.say(str(refusal), audience="requester")
                    _offer_turn_again(session)
                    return session.output(declined=True)
                command = asked.command
                session.say(_("To do it, say: %(command)s.") % {"command": command}, "requester")
                session.suggestions.append(command)
                return session.output(help_only=True)
            text = asked.command
        intent, match = _parse(turn.system_id, text)
        # As action_audience reads it: a narration asks for help only in terse words.
        narration = turn.task == "narration"
        if intent is None and (
            topic := help_topic_text(
                turn.system_id, _normalize(text), gm=turn.is_gm, narration=narration
            )
        ):
            session.say(topic, audience="requester")
            return session.output(help_only=True)
        # "help combat" is no Help action, and a narration's help request is answered too.
        if _help_with_asked(text, narration=narration):
            session.say(
                help_with_text(turn.system_id, text, gm=turn.is_gm, narration=narration),
                audience="requester",
            )
            return session.output(help_only=True)
        terse_help = _help_list_asked(text, narration=narration)
        if narration and not terse_help and help_asked(turn.system_id, text):
            # A plea or question narrated as story ("I need help!", "What can I do?", which
            # the grammar reads as a question of the turn): posted as the GM said it, no guess.
            return _not_understood(session, text)
        if intent is None and not terse_help:
            try:
                corrected = _did_you_mean(turn.system_id, text, gm=turn.is_gm)
                if corrected:
                    _ask(session, corrected)
                    return session.output(help_only=True)
            except Refusal as refusal:  # the typo's target not found either
                session.say(str(refusal), audience="requester")
                return session.output(help_only=True)
        if intent is None:
            if terse_help:
                session.say(help_text(turn.system_id, gm=turn.is_gm), audience="requester")
                return session.output(help_only=True)
            return _not_understood(session, text)
        for intent, match, in_fiction in _marked_parses(turn.system_id, text):
            session.match = match
            session.said_in_fiction = in_fiction
            try:
                intent.handler(session, match)
            except Refusal as refusal:
                session.say(str(refusal), audience="requester")
                _offer_turn_again(session)
                return session.output(declined=True)
            except NotUnderstood:
                session.messages.clear()
                session.suggestions.clear()
                session.offered_turn = None
                continue
            _offer_turn_again(session)
            return session.output()
        return _not_understood(session, text)
