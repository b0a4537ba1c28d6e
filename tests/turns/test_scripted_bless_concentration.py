"""Bless is held by concentration on several creatures: ending it at will ("end concentration",
"drop bless") ends it on all of them, naming them; "drop bless" while concentrating on another
spell is refused; "show my character" names every creature it blesses."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_bless import _blessed, _party, _read

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "said",
    ["end concentration", "drop bless", "stop concentrating on bless", "end my bless",
     "drop my concentration on bless"],
)  # fmt: skip
def test_ending_concentration_ends_bless_on_every_target(live_domains, gm, player, said):
    table = _party(gm, player)
    table.run(player, "cast bless on Ilsa, Bram and me", job_id="bless")
    run = table.run(player, said, job_id="end")
    assert run.tools == ["character_get", "spell_cast"]
    assert run.texts == [("Ash stops concentrating: Bless on Ilsa, Bram and Ash ends.", "trigger")]
    assert "concentration" not in _read(table, "pc-1")
    assert [_blessed(table, c) for c in ("pc-1", "pc-2", "pc-3")] == [False, False, False]


def test_ending_bless_on_the_caster_alone_names_no_target(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless", job_id="bless")
    run = table.run(player, "drop bless", job_id="end")
    assert run.texts == [("Ash stops concentrating: Bless ends.", "trigger")]


def test_dropping_bless_while_concentrating_on_another_spell_is_refused(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    before = table.revision()
    run = table.run(player, "drop bless", job_id="end")
    assert run.texts == [
        ("Ash is not concentrating on Bless: on Shield of Faith on Bram.", "requester")
    ]
    assert run.tools == ["character_get"] and table.revision() == before


def test_my_character_names_every_creature_it_blesses(live_domains, gm, player):
    table = _party(gm, player)
    before = table.run(player, "show my character", job_id="before").texts[0][0]
    table.run(player, "cast bless on Ilsa, Bram and me", job_id="bless")
    run = table.run(player, "show my character", job_id="after")
    assert run.texts == [
        (before[:-1] + "; concentrating on Bless on Ilsa, Bram and Ash.", "requester")
    ]
