"""The openai provider against a real local fake chat-completions server and a live dnd5e server."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents import agent_provider
from apps.turns.agents.openai import MAX_TOOL_CALLS, OpenAIAgent
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.errors import AgentNotConfigured, classify_error
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import FakeLLM, completion, tool_call

pytestmark = pytest.mark.django_db
FINAL = json.dumps({"messages": [{"text": "The die lands.", "audience": "trigger"}],
                    "suggestions": ["roll again"]})  # fmt: skip


def agent(llm: FakeLLM, **extra) -> OpenAIAgent:
    return OpenAIAgent(base_url=llm.base_url, model="m-1", api_key="sk-test", **extra)


def run(table, llm, text="roll a d20", *, user=None, trigger="public", **extra):
    turn = table.context(user or table.player, text, job_id="j1", trigger_audience=trigger)
    caller = table.caller(user or table.player, turn)
    return agent(llm, **extra).run_turn(turn, caller), caller


def test_tool_call_then_final_answer(table, llm):
    before = table.revision()
    llm.script = [
        (
            200,
            completion(
                tool_calls=[
                    tool_call(
                        "c1",
                        "dice_roll",
                        {
                            "expression": "1d20",
                            "campaign_id": "someone-else",
                            "idempotency_key": "mine",
                            "expected_revision": 0,
                        },
                    )
                ]
            ),
        ),  # fmt: skip
        (200, completion(content=f"```json\n{FINAL}\n```")),
    ]
    output, caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert output.suggestions == ("roll again",)
    assert output.tool_calls == 1
    assert output.usage == {
        "model_calls": 2,
        "prompt_tokens": 20,
        "completion_tokens": 10,
        "total_tokens": 30,
    }
    # Trusted arguments replaced the model's: this campaign, its revision, the job's key.
    receipt = caller.outcomes[0].structured["receipt"]
    assert receipt["idempotency_key"] == "job-j1:1"
    assert table.revision() == before + 1
    first, second = llm.requests
    assert llm.headers[0]["Authorization"] == "Bearer sk-test"
    assert first["model"] == "m-1" and first["tool_choice"] == "auto"
    offered = {t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]}
    assert sorted(offered) == sorted(t.name for t in caller.tools.values())
    assert offered["dice_roll"]["required"] == ["expression"]
    assert sorted(offered["dice_roll"]["properties"]) == ["expression", "label"]
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "c1"
    assert json.loads(tool_message["content"])["total"] == caller.outcomes[0].structured["total"]


def test_refused_and_unoffered_tools_are_shown_to_the_model(table, llm):
    llm.script = [
        (
            200,
            completion(
                tool_calls=[
                    tool_call("c1", "combat_end", {}),
                    tool_call("c2", "attack", {"attacker_id": "pc-9", "target_id": "mon-1"}),
                    tool_call("c3", "dice_roll", "{not json"),
                ]
            ),
        ),  # fmt: skip
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert output.tool_calls == 3
    results = [json.loads(m["content"]) for m in llm.requests[1]["messages"][-3:]]
    assert results[0]["error"]["code"] == "tool_not_offered"
    assert results[1]["error"] == {
        "code": "invalid_request",
        "message": "attacker_id 'pc-9' is not a character in this campaign",
    }
    assert results[2] == {
        "error": {"code": "invalid_arguments", "message": "arguments must be a JSON object"}
    }


def test_invalid_output_gets_one_correction(table, llm):
    wide = json.dumps({"messages": [{"text": "Everyone hears it.", "audience": "public"}]})
    llm.script = [(200, completion(content=wide)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm, trigger="private")
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    correction = llm.requests[1]["messages"][-1]
    assert correction == {
        "role": "user",
        "content": "Your answer was invalid: messages[0].audience 'public' is wider than the "
        "player's message ('private'); use 'trigger' or 'gm'. Reply with only the JSON object "
        "described in the instructions.",
    }


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        ("not json", "still not json", "the answer is not JSON (Expecting value)"),
        ('{"messages": []}', '{"messages": []}', "messages must be a list of 1 to 4 objects"),
        (
            json.dumps({"messages": [{"text": "x"}], "suggestions": ["a"] * 5}),
            json.dumps({"messages": [{"text": "x"}], "suggestions": ["a"] * 5}),
            "suggestions must be a list of at most 4 non-empty strings of at most 200 characters",
        ),
    ],
)
def test_invalid_output_twice_fails_with_a_stable_code(table, llm, first, second, reason):
    llm.script = [(200, completion(content=first)), (200, completion(content=second))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable) == ("agent_output_invalid", False)
    assert caught.value.details == {"reason": reason}
    assert len(llm.requests) == 2


def test_at_most_eight_tool_calls(table, llm):
    before = table.revision()
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(10)]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert output.tool_calls == MAX_TOOL_CALLS == 8
    assert table.revision() == before + 8
    second = llm.requests[1]
    assert second["tool_choice"] == "none"
    limited = [json.loads(m["content"]) for m in second["messages"][-2:]]
    assert [r["error"]["code"] for r in limited] == ["tool_limit", "tool_limit"]
    # A model that keeps calling tools after the limit, even offered none, fails the turn.
    llm.script = [(200, completion(tool_calls=calls))] + [
        (200, completion(tool_calls=calls[:1])) for _ in range(2)
    ]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert classify_error(caught.value).code == "agent_tool_limit"


@pytest.mark.parametrize("audience", ["public", "gm"])
def test_a_gms_public_turn_shows_the_model_only_what_the_public_sees(
    dnd_room, llm, settings, monkeypatch, django_capture_on_commit_callbacks, audience
):
    """A model's words on a public action reach everyone, so what it reads is what everyone
    may see: a monster's hit points and the GM's notes are read (for the model) only in a
    GM-only action."""
    from apps.campaigns.services.authority import authority_write, campaign_refresh
    from apps.turns.services import turn_run
    from tests.turns.test_jobs import narrations, submit

    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    room = dnd_room
    for tool, arguments in (
        ("phase_set", {"phase": "play"}),
        ("monster_spawn", {"monster_key": "goblin", "gm_notes": "The baron's lost son."}),
    ):
        room.campaign.refresh_from_db()
        authority_write(campaign=room.campaign, tool=tool, arguments=arguments,
                        requester=room.gm, key=tool)  # fmt: skip
    campaign_refresh(campaign=room.campaign, requester=room.gm)
    revision = room.domain_revision()
    look = tool_call("c1", "character_get", {"character_id": "mon-1"})
    llm.script = [(200, completion(tool_calls=[look])), (200, completion(content=FINAL))]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="How does the goblin look?", audience=audience)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    shown = json.loads(llm.requests[1]["messages"][-1]["content"])
    public = {"id": "mon-1", "name": "Goblin", "kind": "monster", "monster_key": "goblin",
              "conditions": [], "status": "unhurt"}  # fmt: skip
    if audience == "public":
        assert shown == {"character": public, "authority_revision": revision}
    else:
        assert (shown["character"]["hp"], shown["character"]["gm_notes"]) == (
            {"current": 7, "max": 7, "temp": 0}, "The baron's lost son."
        )  # fmt: skip
    assert [(m.body, m.audience) for m in narrations(job)] == [("The die lands.", audience)]


@pytest.mark.parametrize("audience", ["public", "gm"])
def test_a_gms_public_turn_shows_the_model_no_hidden_value_in_a_writes_result(
    dnd_room, llm, settings, monkeypatch, django_capture_on_commit_callbacks, audience
):
    """The results of a GM's writes are narrowed as the reads are: in a public action the
    model is shown a spawned monster's public card, a damaged or healed monster's status, and
    no hit points or GM notes; a GM-only action shows them. The writes are the GM's alike."""
    from apps.campaigns.services.authority import authority_write, campaign_refresh
    from apps.domains.client import domain_call
    from apps.turns.services import turn_run
    from tests.turns.test_jobs import submit

    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    room = dnd_room
    authority_write(campaign=room.campaign, tool="phase_set", arguments={"phase": "play"},
                    requester=room.gm, key="phase_set")  # fmt: skip
    campaign_refresh(campaign=room.campaign, requester=room.gm)
    revision = room.domain_revision()
    calls = [
        tool_call("c1", "monster_spawn",
                  {"monster_key": "goblin", "gm_notes": "The baron's lost son."}),
        tool_call("c2", "damage_apply", {"target_id": "mon-1", "amount": 3}),
        tool_call("c3", "heal", {"target_id": "mon-1", "amount": 1}),
    ]  # fmt: skip
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="A goblin appears; hurt it.", audience=audience)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    texts = [m["content"] for m in llm.requests[1]["messages"][-3:]]
    shown = [json.loads(text) for text in texts]
    receipts = [result.pop("receipt") for result in shown]
    # The receipts are the writes' own, whatever the view.
    assert [(r["previous_revision"], r["changed_scopes"], r["idempotency_key"])
            for r in receipts] == [
        (revision + step - 1, ["character:mon-1"], f"turn-{job.pk}:{step}") for step in (1, 2, 3)
    ]  # fmt: skip
    if audience == "public":
        assert shown == [
            {"character": {"id": "mon-1", "name": "Goblin", "kind": "monster",
                           "monster_key": "goblin", "conditions": [], "status": "unhurt"}},
            {"target_id": "mon-1", "dropped_to_zero": False, "dead": False, "status": "wounded"},
            {"target_id": "mon-1", "target_name": "Goblin", "source": "gm", "revived": False,
             "status": "wounded"},
        ]  # fmt: skip
        assert not any("hp" in text or "baron" in text for text in texts)
    else:
        assert shown[0]["character"]["hp"] == {"current": 7, "max": 7, "temp": 0}
        assert shown[0]["character"]["gm_notes"] == "The baron's lost son."
        assert shown[1]["hp_after"] == {"current": 4, "max": 7, "temp": 0}
        assert (shown[2]["hp_before"], shown[2]["hp_after"]) == (4, 5)
    # Performed as the GM's writes either way: the goblin has its notes and lost 2 HP net.
    goblin = domain_call(system_id="dnd5e", tool="character_get",
                         arguments={"character_id": "mon-1"}, requester=room.gm,
                         campaign_id=str(room.campaign.id)).structured["character"]  # fmt: skip
    assert (goblin["hp"]["current"], goblin["gm_notes"]) == (5, "The baron's lost son.")
    assert room.domain_revision() == revision + 3


@pytest.mark.parametrize(
    ("entry", "code", "retryable"),
    [
        ((500, {"error": "boom"}), "agent_unavailable", True),
        ((429, {"error": "slow down"}), "agent_unavailable", True),
        ((401, {"error": "bad key"}), "agent_rejected", False),
        ((200, "<html>"), "agent_protocol_error", False),
        ((200, {"choices": []}), "agent_protocol_error", False),
        (("sleep", 1.5, completion(content=FINAL)), "agent_timeout", True),
    ],
)
def test_endpoint_faults_are_classified(table, llm, entry, code, retryable):
    llm.script = [entry]
    with pytest.raises(Exception) as caught:
        run(table, llm, timeout=0.5)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable) == (code, retryable)


def test_a_model_turn_is_charged_even_when_the_endpoint_reports_no_tokens():
    from apps.turns.services.publish import _actual_credits

    def refused():
        return True

    # Answered with words only, refused by the rules, no token counts: the model still ran.
    assert _actual_credits({"usage": {"model_calls": 2}}, [], refused) == 1
    # The scripted agent (no model) saying the same is free.
    assert _actual_credits({"usage": {}}, [], refused) == 0


def test_provider_selection(settings, monkeypatch):
    settings.SAGASMITH_AGENT_PROVIDER = "scripted"
    assert isinstance(agent_provider(), ScriptedAgent)
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    for name in ("SAGASMITH_OPENAI_BASE_URL", "SAGASMITH_OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(AgentNotConfigured) as caught:
        agent_provider()
    assert caught.value.details == {
        "missing": ["SAGASMITH_OPENAI_BASE_URL", "SAGASMITH_OPENAI_MODEL"]
    }
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", "http://127.0.0.1:9/v1/")
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-2")
    provider = agent_provider()
    assert (provider.url, provider.model) == ("http://127.0.0.1:9/v1/chat/completions", "m-2")
    with pytest.raises(AgentNotConfigured):
        agent_provider("claude-direct")
