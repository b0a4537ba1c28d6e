"""The GM calls a check or a save for a named character or creature ("perception check for
Ilsa", "Ilsa makes a perception check", "dex save for Goblin DC 12") with the same tools a
player's own check uses; a player names only their own character."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import help_text
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def keep(live_domains, gm, player):
    """Ilsa (a player's fighter) and a goblin, in play."""
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "monster_spawn", monster_key="goblin", expected_revision=table.revision(),
               idempotency_key="goblin")  # fmt: skip
    return table


DEFAULT = " No DC was named, so the default DC 10 was used."


def _rolled(run) -> list[tuple[str, str, int]]:
    """(tool, whose, DC) of each check or save the turn sent."""
    return [
        (o.tool, o.structured["character_id"], o.structured["dc"])
        for o in run.caller.outcomes
        if o.tool in ("ability_check", "saving_throw")
    ]


def test_the_gm_calls_a_check_or_a_save_for_a_named_character_or_creature(keep):
    for text, rolled, said in [
        ("perception check for Ilsa", ("ability_check", "pc-1", 10),
         "Ilsa's perception check falls short with 7 (DC 10)." + DEFAULT),
        ("Ilsa makes a perception check dc 12", ("ability_check", "pc-1", 12),
         "Ilsa's perception check succeeds with 19 (DC 12)."),
        ("check athletics for Ilsa", ("ability_check", "pc-1", 10),
         "A roll of 23 beats DC 10: Ilsa's athletics check succeeds." + DEFAULT),
        ("wisdom saving throw for Ilsa", ("saving_throw", "pc-1", 10),
         "Ilsa's wisdom save: 15 against DC 10. Success." + DEFAULT),
        ("dex save for Goblin DC 12", ("saving_throw", "mon-2", 12),
         "A roll of 6 is not enough for DC 12: Goblin's dex save fails."),
        ("the goblin makes a con save", ("saving_throw", "mon-2", 10),
         "Goblin's con save succeeds with 13 (DC 10)." + DEFAULT),
    ]:  # fmt: skip
        run = keep.run(keep.gm, text, job_id=text)
        assert _rolled(run) == [rolled], text
        # Said to whoever saw the action, as a player's own check is.
        assert run.texts == [(said, "trigger")], text


def test_a_gm_only_check_for_a_creature_stays_the_gms(keep):
    run = keep.run(keep.gm, "stealth check for the goblin", job_id="secret",
                   trigger_audience="gm")  # fmt: skip
    assert _rolled(run) == [("ability_check", "mon-2", 10)]
    # Said to the action's own audience: a GM-only action's roll reaches the GMs alone.
    assert run.texts == [
        ("A roll of 10 meets DC 10: Goblin's stealth check succeeds." + DEFAULT, "trigger")
    ]


def test_a_player_names_only_their_own_character(keep):
    own = keep.run(keep.player, "perception check for Ilsa", job_id="own")
    assert _rolled(own) == [("ability_check", "pc-1", 10)]
    before = keep.revision()
    for text, refusal in [
        ("dex save for the goblin", "Only the GM calls a saving throw for someone else."),
        ("the goblin makes a perception check",
         "Only the GM calls an ability check for someone else."),
    ]:  # fmt: skip
        run = keep.run(keep.player, text, job_id=text)
        assert run.texts == [(refusal, "requester")], text
        assert _rolled(run) == [], text
    assert keep.revision() == before


def test_a_players_check_for_something_no_one_is_called_is_their_own(keep):
    # Table talk: what the check is for, not whose.
    run = keep.run(keep.player, "perception check for traps", job_id="traps")
    assert _rolled(run) == [("ability_check", "pc-1", 10)]


def test_the_gm_reads_the_named_form_in_help_and_a_player_does_not():
    line = (
        "- check <ability or skill> [dc N] [with advantage]; save <ability> [dc N] (or: roll "
        "stealth, roll a dex save); for someone: perception check for <name>, dex save for "
        "<name> [dc N]\n"
    )
    assert line in help_text("dnd5e", gm=True)
    assert "for someone" not in help_text("dnd5e", gm=False)
