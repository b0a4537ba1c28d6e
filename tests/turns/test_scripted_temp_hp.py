"""Temporary hit points through the scripted agent: a player grants their own character some, the
GM anyone; the table hears the result in its words, and a monster's numbers reach the GM alone."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _playing(gm, player):
    """Ilsa (the player's fighter) and a goblin, in play."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="phase")
    table.call(gm, "monster_spawn", monster_key="goblin", idempotency_key="spawn",
               expected_revision=table.revision())  # fmt: skip
    return table


def _temp(table, character_id, user=None):
    return table.call(user or table.gm, "character_get", character_id=character_id).structured[
        "character"
    ]["hp"]["temp"]


def _grants(run):
    return [(o.ok, o.structured.get("temp_hp_after")) for o in run.caller.outcomes
            if o.tool == "temp_hp_grant"]  # fmt: skip


def test_a_player_grants_their_character_temporary_hit_points(live_domains, gm, player):
    table = _playing(gm, player)
    mine = table.run(player, "give me 5 temporary hit points", job_id="mine")
    assert mine.texts == [("Ilsa gains 5 temporary hit points.", "trigger")]
    assert _grants(mine) == [(True, 5)]
    assert _temp(table, "pc-1", player) == 5
    # They do not stack: a lower grant keeps what she has, and the table is told why.
    lower = table.run(player, "I gain 3 temp hp", job_id="lower")
    assert lower.texts == [
        ("Ilsa keeps 5 temporary hit points (more than 3: they do not stack).", "trigger")
    ]
    same = table.run(player, "Ilsa gains 5 temp hp", job_id="same")
    assert same.texts == [
        ("Ilsa already has 5 temporary hit points (they do not stack).", "trigger")
    ]
    higher = table.run(gm, "grant Ilsa 8 temp hp", job_id="higher")
    assert higher.texts == [
        ("Ilsa gains 8 temporary hit points (in place of 5: they do not stack).", "trigger")
    ]
    assert _temp(table, "pc-1", player) == 8


def test_one_temporary_hit_point_is_said_in_the_singular(live_domains, gm, player):
    table = _playing(gm, player)
    assert table.run(gm, "grant 1 temp hp to Ilsa", job_id="one").texts == [
        ("Ilsa gains 1 temporary hit point.", "trigger")
    ]
    assert table.run(player, "grant myself 1 temp hp", job_id="again").texts == [
        ("Ilsa already has 1 temporary hit point (they do not stack).", "trigger")
    ]


def test_a_monsters_temporary_hit_points_are_said_to_the_gm_alone(live_domains, gm, player):
    table = _playing(gm, player)
    public = table.run(gm, "the goblin gains 6 temporary hit points", job_id="public")
    assert public.texts == [
        ("Goblin is granted temporary hit points.", "trigger"),
        ("Goblin gains 6 temporary hit points.", "gm"),
    ]
    assert _grants(public) == [(True, 6)]
    # A GM-only action is the GM's alone already: one line, with the numbers.
    secret = table.run(gm, "grant goblin 9 temp hp", job_id="secret", trigger_audience="gm")
    assert secret.texts == [
        ("Goblin gains 9 temporary hit points (in place of 6: they do not stack).", "trigger")
    ]
    assert _temp(table, "mon-2") == 9


def test_refusals_in_player_words_that_change_nothing(live_domains, gm, player, make_user):
    table = _playing(gm, player)
    other = make_user("bo@example.test")
    table.call(gm, "member_grant", principal=principal_for(other), role="player")
    table.call(other, "character_create", name="Bram", template="cleric")
    before = table.revision()
    monster = table.run(player, "grant the goblin 5 temp hp", job_id="monster")
    assert monster.texts == [("Only the GM can grant Goblin temporary hit points.", "requester")]
    assert _grants(monster) == []
    someone = table.run(player, "Bram gains 5 temp hp", job_id="someone")
    assert someone.texts == [
        ("Only Bram's player or the GM can grant Bram temporary hit points.", "requester")
    ]
    assert _grants(someone) == [(False, None)]
    for n, text in enumerate(["grant Ilsa 0 temp hp", "give me 1000 temporary hit points"]):
        bounds = table.run(player, text, job_id=f"bounds-{n}")
        assert bounds.texts == [("Grant 1 to 999 temporary hit points.", "requester")]
        assert bounds.tools == []
    gm_self = table.run(gm, "give me 5 temp hp", job_id="gm-self")
    assert gm_self.texts == [
        ("As the GM you have no character: name who gains them (“grant Ilsa 5 temp hp”).",
         "requester")
    ]  # fmt: skip
    assert gm_self.tools == []
    # Everyone sees a character's hit points: a GM-only action cannot keep them secret.
    secret = table.run(gm, "grant Ilsa 5 temp hp", job_id="secret", trigger_audience="gm")
    assert secret.texts == [
        ("Everyone sees it when you grant temporary hit points: send it as a public action.",
         "requester")
    ]  # fmt: skip
    assert _grants(secret) == []
    assert table.revision() == before
    # In the lobby there is nothing to grant yet.
    lobby = make_table("dnd5e", gm, player)
    made = lobby.call(player, "character_create", name="Nim", template="rogue")
    lobby.characters[principal_for(player)] = made.structured["character"]["id"]
    assert lobby.run(player, "give me 5 temp hp", job_id="lobby").texts == [
        ("You cannot grant temporary hit points in the lobby phase. Play starts when the GM "
         "says so.", "requester")
    ]  # fmt: skip


def test_in_combat_both_seats_grant_them(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    mine = table.run(player, "give me 4 temp hp", job_id="mine")
    assert mine.texts == [("Ilsa gains 4 temporary hit points.", "trigger")]
    goblin = table.run(gm, "Goblin 2 gains 3 temp hp", job_id="goblin")
    assert goblin.texts == [
        ("Goblin 2 is granted temporary hit points.", "trigger"),
        ("Goblin 2 gains 3 temporary hit points.", "gm"),
    ]
    assert _temp(table, "mon-3") == 3
    # The player's combat view shows Ilsa's, and no monster's hit points at all.
    order = table.call(player, "combat_status").structured["combat"]["order"]
    shown = {e["id"]: e["character"].get("hp") for e in order}
    assert shown == {"pc-1": {"current": 12, "max": 12, "temp": 4}, "mon-3": None, "mon-2": None}
