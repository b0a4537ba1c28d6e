"""ToolCaller: trusted arguments are injected, model identity is stripped, faults are raised."""

from __future__ import annotations

import pytest

from apps.core.errors import ApplicationError
from apps.domains.client import principal_for
from apps.domains.errors import DomainError, DomainUnavailable
from apps.turns.errors import AgentOutputInvalid, classify_error
from apps.turns.types import audience_allowed
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_identity_campaign_revision_and_key_come_from_the_job(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    turn = table.context(gm, "-", job_id="t1")
    caller = table.caller(gm, turn)
    outcome = caller("character_create", {
        "name": "Mole", "template": "rogue", "controller": "user:mallory",
        "principal": "user:mallory", "campaign_id": "c-elsewhere", "expected_revision": 999,
        "idempotency_key": "chosen-by-model",
    })  # fmt: skip
    assert outcome.ok, outcome.structured
    character = outcome.structured["character"]
    # A GM may name a controller, so only stripping keeps the model from choosing one.
    assert character["controller"] == principal_for(gm)
    assert outcome.structured["receipt"]["idempotency_key"] == "job-t1:1"
    assert caller.revision == outcome.structured["receipt"]["authority_revision"]
    assert caller.arguments_for(turn.tools[0], {"x": 1, "user": "u"}, 7) == {
        "x": 1, "campaign_id": table.campaign_id,
    }  # fmt: skip


def test_unoffered_tool_is_refused_without_a_call(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    turn = table.context(player, "-", job_id="t2")
    before = table.revision()
    outcome = table.caller(player, turn)("monster_spawn", {"monster_key": "ogre"})
    assert (outcome.ok, outcome.error_code, outcome.step) == (False, "tool_not_offered", 1)
    assert outcome.error_message == (
        "monster_spawn is not offered in this turn; use one of: campaign_get, "
        "character_create, character_get, dice_roll."
    )
    assert table.revision() == before


def test_stale_revision_is_raised_for_the_worker_and_changes_nothing(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    turn = table.context(gm, "-", job_id="t3")
    caller = table.caller(gm, turn)
    caller.revision -= 1  # another turn wrote since this one read
    before = table.revision()
    with pytest.raises(DomainError) as caught:
        caller("dice_roll", {"expression": "1d6"})
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable) == ("stale_revision", True)
    assert table.revision() == before


def test_a_public_view_reads_what_the_public_sees_and_writes_as_the_requester(
    live_domains, gm, player
):
    """Reads narrowed to the public view show the GM and a player alike only what everyone may
    see: not the GM's facts, nor one player's own. A narrowed write still runs as its
    requester; the domain refuses a view it does not know."""
    from apps.domains.client import domain_call

    table = make_table("narrative", gm, player)
    table.call(gm, "phase_set", phase="play")
    pat = f"player:{principal_for(player)}"
    facts = {
        "public": "The inn is the Drowned Rat.",
        "gm": "The innkeeper leads the cult.",
        pat: "Pat owes the innkeeper.",
    }
    for audience, text in facts.items():
        table.call(gm, "fact_add", text=text, audience=audience,
                   expected_revision=table.revision(), idempotency_key=audience)  # fmt: skip

    def story(user, view):
        caller = table.caller(user, table.context(user, "-", job_id=f"v-{user.pk}"))
        caller.view = view
        read = caller("story_get", {}).structured
        return read["audience"], [fact["text"] for fact in read["facts"]]

    public = ("public", [facts["public"]])
    assert story(gm, None) == ("gm", list(facts.values()))
    assert story(player, None) == (pat, [facts["public"], facts[pat]])
    assert story(gm, "public") == story(player, "public") == public
    caller = table.caller(player, table.context(player, "-", job_id="v-write"))
    caller.view = "public"
    assert caller("dice_roll", {"expression": "1d6"}).structured["receipt"]["audience"] == "public"
    # A narrowed write is the requester's: only what its result shows is narrowed.
    before = table.revision()
    rolled = domain_call(system_id="narrative", tool="dice_roll", requester=gm,
                         campaign_id=table.campaign_id, view="public",
                         arguments={"expression": "1d6", "expected_revision": before,
                                    "idempotency_key": "narrowed"})  # fmt: skip
    assert rolled.structured["rolled_by"] == principal_for(gm)
    assert rolled.structured["receipt"]["authority_revision"] == table.revision() == before + 1
    with pytest.raises(DomainError) as caught:
        domain_call(system_id="narrative", tool="story_get", arguments={}, requester=gm,
                    campaign_id=table.campaign_id, view="everyone")  # fmt: skip
    assert (caught.value.domain_code, caught.value.message) == (
        "authorization_denied", "delegation token view must be one of: public",
    )  # fmt: skip
    assert table.revision() == before + 1


def test_classify_error():
    assert classify_error(DomainUnavailable("down")).code == "domain_unavailable"
    assert classify_error(DomainUnavailable("down")).retryable is True
    invalid = classify_error(AgentOutputInvalid("bad"))
    assert (invalid.code, invalid.retryable, invalid.recovery) == (
        "agent_output_invalid", False, "Rephrase the action and try again.",
    )  # fmt: skip
    assert classify_error(ApplicationError("x", code="quota_exceeded")).code == "quota_exceeded"
    transient = classify_error(TimeoutError("slow"))
    assert (transient.code, transient.retryable, transient.message) == (
        "transient_fault", True, "A passing fault stopped the turn.",
    )  # fmt: skip
    bug = classify_error(KeyError("oops"))
    assert (bug.code, bug.retryable, bug.message) == (
        "internal_error", False, "The turn failed unexpectedly.",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("audience", "trigger", "is_gm", "allowed"),
    [
        ("public", "public", False, True),
        ("public", "private", False, False),
        ("public", "gm", True, False),
        ("trigger", "private", False, True),
        ("requester", "private", False, True),
        ("requester", "gm", False, False),
        ("requester", "gm", True, True),
        ("gm", "private", False, True),
        ("everyone", "public", False, False),
    ],
)
def test_audience_is_never_wider_than_the_trigger(audience, trigger, is_gm, allowed):
    assert (
        audience_allowed(audience=audience, trigger_audience=trigger, requester_is_gm=is_gm)
        is allowed
    )
