"""dnd5e, SRD 5.1 "Bonus Action" casting time: a creature that casts a spell with a bonus action
can't cast another spell during the same turn, except a cantrip with a casting time of 1 action.
In combat Healing Word (a bonus action) and a levelled spell cast with the action exclude each
other in one turn; outside combat there are no turns, and nothing changes."""

from __future__ import annotations

import pytest

from domain_servers.common.errors import DomainError
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

AFTER_HEALING_WORD = (
    "Ash cast Healing Word with a bonus action this turn: the only other spell Ash can cast "
    "this turn is a cantrip with a casting time of 1 action, and Cure Wounds is a level 1 spell"
)
BEFORE_HEALING_WORD = (
    "Ash cast Cure Wounds this turn: Healing Word is cast with a bonus action, which allows no "
    "other spell in the same turn but a cantrip with a casting time of 1 action"
)


def _ash_up(dnd: Game) -> dict[str, str]:
    """Ash (a 3rd-level cleric: four 1st-level slots) beside a badly hurt Bram, Ash's turn."""
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    return ids


def _budget(dnd: Game, char_id: str) -> tuple[int, int]:
    order = dnd.read("combat_status")["combat"]["order"]
    budget = next(e["budget"] for e in order if e["id"] == char_id)
    return budget["action"], budget["bonus_action"]


def test_after_healing_word_no_levelled_spell_that_turn_and_nothing_is_spent(dnd: Game) -> None:
    ids = _ash_up(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    assert _budget(dnd, ids["ash"]) == (1, 0)

    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    error = _refused(dnd, args)  # nothing changed: no slot, no action
    assert (error["code"], error["message"]) == ("invalid_request", AFTER_HEALING_WORD)
    assert _refused(dnd, {**args, "slot_level": 2})["message"] == AFTER_HEALING_WORD
    assert _budget(dnd, ids["ash"]) == (1, 0)
    assert _char(dnd, ids["ash"])["spell_slots"]["1"] == {"current": 3, "max": 4}
    # The action is still Ash's for anything but a spell.
    dnd.write("combat_action", {"character_id": ids["ash"], "action": "dodge"}, sub=PLAYER)


def test_after_a_levelled_spell_with_the_action_no_healing_word_that_turn(dnd: Game) -> None:
    ids = _ash_up(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")
    assert _budget(dnd, ids["ash"]) == (0, 1)

    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "healing_word"}
    error = _refused(dnd, args)
    assert (error["code"], error["message"]) == ("invalid_request", BEFORE_HEALING_WORD)
    assert _budget(dnd, ids["ash"]) == (0, 1)


def test_a_spent_action_or_bonus_action_is_said_first(dnd: Game) -> None:
    ids = _ash_up(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "healing_word"}
    assert _refused(dnd, args)["message"] == "Ash has no bonus action left this turn"


def test_the_caster_casts_again_on_its_next_turn(dnd: Game) -> None:
    ids = _ash_up(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["ash"])
    assert _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")["casting"] == "action"


def test_outside_combat_there_are_no_turns_to_limit(dnd: Game) -> None:
    ids = _party(dnd, level=3)
    for spell, left in (("healing_word", 3), ("cure_wounds", 2), ("healing_word", 1)):
        # Hurt again each time, so a heal has something to heal.
        hp = _char(dnd, ids["bram"])["hp"]["current"]
        dnd.write("damage_apply", {"target_id": ids["bram"], "amount": hp - 1})
        assert _cast(dnd, ids["ash"], ids["bram"], spell)["slots_left"] == left


@pytest.mark.parametrize("spell", ["cure_wounds", "healing_word", "magic_missile"])
def test_no_levelled_spell_follows_a_bonus_action_spell(spell: str) -> None:
    with pytest.raises(DomainError) as refused:
        rules.check_spell_this_turn(rules.SPELLS[spell], [rules.SPELLS["healing_word"]], who="Ash")
    assert refused.value.message.startswith("Ash cast Healing Word with a bonus action")


def test_a_cantrip_cast_with_the_action_goes_with_a_bonus_action_spell() -> None:
    cantrip = {"name": "Sacred Flame", "level": 0, "casting": "action"}
    rules.check_spell_this_turn(cantrip, [rules.SPELLS["healing_word"]], who="Ash")
    rules.check_spell_this_turn(rules.SPELLS["healing_word"], [cantrip], who="Ash")
    # A levelled spell cast with the action does not.
    with pytest.raises(DomainError):
        rules.check_spell_this_turn(
            rules.SPELLS["healing_word"], [rules.SPELLS["magic_missile"]], who="Ash"
        )
    # Two spells with the action (an Action Surge) are no bonus-action spell's business.
    rules.check_spell_this_turn(
        rules.SPELLS["magic_missile"], [rules.SPELLS["magic_missile"]], who="Ash"
    )
