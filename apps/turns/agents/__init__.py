"""Agent providers: one interface, chosen by `settings.SAGASMITH_AGENT_PROVIDER`.

    provider = agent_provider()
    output = provider.run_turn(turn, call_tool)

`turn` is a `TurnContext`; `call_tool(name, arguments) -> ToolOutcome` is supplied by the
worker (`apps.turns.tool_calls.ToolCaller`), which injects identity, campaign, revision and
idempotency. A provider returns an `AgentOutput` or raises a `TurnError`.

Two optional class flags (absent means False) tell the worker what a provider needs:
`reads_as_audience`, its tool results are read at the action's audience, not the requester's; and
`addresses_characters`, it is given the campaign's bound characters
(`TurnContext.bound_characters`), the only ids its suggestions may name.
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings
from django.utils.translation import gettext as _

from apps.turns.errors import AgentNotConfigured
from apps.turns.types import AgentOutput, CallTool, TurnContext

DEFAULT_PROVIDER = "scripted"


class AgentProvider(Protocol):
    name: str

    def run_turn(self, turn: TurnContext, call_tool: CallTool) -> AgentOutput: ...


def agent_provider(name: str | None = None) -> AgentProvider:
    """The configured provider. Raises AgentNotConfigured for an unknown name or settings."""
    name = name or getattr(settings, "SAGASMITH_AGENT_PROVIDER", DEFAULT_PROVIDER)
    if name == "scripted":
        from apps.turns.agents.scripted import ScriptedAgent

        return ScriptedAgent()
    if name == "openai":
        from apps.turns.agents.openai import OpenAIAgent

        return OpenAIAgent.from_settings()
    raise AgentNotConfigured(
        _("Unknown agent provider %(name)s; use scripted or openai.") % {"name": name},
        details={"provider": name},
    )


def action_audience(*, system_id: str, text: str, audience: str, task: str = "action") -> str:
    """The audience a GM's action is posted with: the one chosen, unless the configured agent's
    grammar reads the action itself as a secret (the scripted agent's "record fact … gm
    only"), which is then posted GM-only. Builds no provider: the web process calls it."""
    if getattr(settings, "SAGASMITH_AGENT_PROVIDER", DEFAULT_PROVIDER) == "scripted":
        from apps.turns.agents.scripted import ScriptedAgent

        return ScriptedAgent.action_audience(
            system_id=system_id, text=text, audience=audience, task=task
        )
    return audience
