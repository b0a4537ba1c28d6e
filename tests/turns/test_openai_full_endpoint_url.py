"""A base URL given as the whole chat-completions endpoint, as the endpoint's own examples
write it (a real local fake chat-completions server and a live dnd5e server): the requests go
to that endpoint, not to .../chat/completions/chat/completions, which every server answers
with HTTP 404, failing every turn as a refused request."""

from __future__ import annotations

import pytest

from apps.turns.agents.openai import OpenAIAgent
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("suffix", "path"),
    [
        ("", "/v1/chat/completions"),
        ("/", "/v1/chat/completions"),
        ("/chat/completions", "/v1/chat/completions"),
        ("/chat/completions/", "/v1/chat/completions"),
        ("/chat", "/v1/chat/chat/completions"),
    ],
    ids=["base", "base-slash", "endpoint", "endpoint-slash", "other-path"],
)
def test_requests_go_to_the_chat_completions_endpoint(table, llm, suffix, path):
    llm.base_url += suffix
    llm.script = [(200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.paths == [path]


def test_the_endpoint_url_is_named_once():
    agent = OpenAIAgent(base_url="https://models.example/v1/chat/completions", model="m-1")
    assert agent.url == "https://models.example/v1/chat/completions"
