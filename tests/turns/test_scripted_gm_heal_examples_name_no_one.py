"""A GM's healing said with no one to heal ("cast cure wounds", "heal me" from a GM with no
character): the example of healing names the help's placeholder, not a sample creature the
table may not have, as the GM's damage spell cast at no one does."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        (
            "cast cure wounds",
            "The rules here cast healing spells for a player's cleric: roll Cure Wounds and "
            "heal the hit points it restores (“heal <target> 5”).",
        ),
        (
            "cast healing word",
            "The rules here cast healing spells for a player's cleric: roll Healing Word and "
            "heal the hit points it restores (“heal <target> 5”).",
        ),
        ("heal me", "As the GM you have no character: name who is healed (“heal <target> 5”)."),
    ],
)
def test_the_gms_healing_at_no_one_gets_a_placeholder_example(
    live_domains, gm, player, said, answer
):
    table = make_table("dnd5e", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    run = table.run(gm, said, job_id="heal")
    assert run.texts == [(answer, "requester")]
    # Read only: "heal me" reads the campaign to find who "me" is.
    assert not {"heal", "spell_cast"} & set(run.tools) and table.revision() == before
