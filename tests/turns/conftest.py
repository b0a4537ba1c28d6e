"""Fixtures: live dnd5e and narrative server processes, and a campaign table to run turns on."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import override_settings

from apps.domains import client as domain_client
from apps.domains.client import domain_call, domain_connections_close, principal_for
from apps.domains.keys import ensure_local_keys
from apps.domains.registry import get_plugin
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.catalog import offered_tools, tool_catalog_clear
from apps.turns.tool_calls import ToolCaller
from apps.turns.types import AgentOutput, TurnContext
from domain_servers.common.testing import HttpServerProcess

WRITES = frozenset({"campaign_create", "character_create", "member_grant", "phase_set"})
SEED = "5a" * 32  # a fixed campaign random stream makes every roll, and so every narration, exact


@pytest.fixture(scope="session")
def live_domains(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    base = tmp_path_factory.mktemp("turn-domains")
    # An empty variable selects local key files, whatever the developer's shell exports.
    with override_settings(SAGASMITH_DELEGATION_KEY_DIR=str(base / "keys"),
                           SAGASMITH_DELEGATION_PRIVATE_KEYS=""):  # fmt: skip
        jwks = str(ensure_local_keys())
        servers = {
            system: HttpServerProcess(
                f"domain_servers.{system}", f"sqlite:///{base}/{system}.sqlite3", jwks
            )
            for system in ("dnd5e", "narrative")
        }
        try:
            setting = {s: {"url": p.url, "timeout": 10} for s, p in servers.items()}
            with override_settings(SAGASMITH_DOMAINS=setting):
                yield {s: p.url for s, p in servers.items()}
        finally:
            domain_connections_close()
            tool_catalog_clear()
            for process in servers.values():
                process.stop()


@dataclass
class CatalogListings:
    """The systems listed (`tools/list`) in order; `stale` names tools the first listing leaves
    out, as a listing taken before a redeploy that added them would."""

    calls: list[str] = field(default_factory=list)
    stale: set[str] = field(default_factory=set)


@pytest.fixture
def catalog_listings(live_domains, monkeypatch) -> Iterator[CatalogListings]:
    """Counts listings from an empty catalog cache, and leaves the cache empty afterwards."""
    listings = CatalogListings()
    real = domain_client.domain_list_tools

    def counted(plugin: Any) -> list[Any]:
        listed = real(plugin)
        listings.calls.append(plugin.system_id)
        if len(listings.calls) == 1:
            listed = [tool for tool in listed if tool.name not in listings.stale]
        return listed

    monkeypatch.setattr(domain_client, "domain_list_tools", counted)
    tool_catalog_clear()
    yield listings
    tool_catalog_clear()  # no stale listing outlives the test


@pytest.fixture
def turns_stay_queued(monkeypatch) -> None:
    """No turn is handed to a worker: a submission, a cancel, a publication retry and the
    recovery sweep enqueue nothing, so a turn stays queued until the test runs it."""
    for module in ("jobs", "publish", "recovery"):
        monkeypatch.setattr(f"apps.turns.services.{module}.enqueue_run", lambda *a, **kw: None)


@dataclass
class Table:
    """One campaign on a live server: its GM (the owner), a player and their character."""

    system_id: str
    gm: Any
    player: Any
    campaign_id: str = field(default_factory=lambda: f"c-{uuid.uuid4().hex[:12]}")
    characters: dict[str, str | None] = field(default_factory=dict)  # principal -> character
    turns: int = 0

    def call(self, user: Any, tool: str, **arguments: Any) -> Any:
        if tool in WRITES:
            if "expected_revision" not in arguments:
                arguments["expected_revision"] = self.revision(user)
            arguments.setdefault("idempotency_key", uuid.uuid4().hex)
        return domain_call(
            system_id=self.system_id,
            tool=tool,
            arguments=arguments,
            requester=user,
            campaign_id=self.campaign_id,
        )

    def revision(self, user: Any | None = None) -> int:
        result = domain_call(
            system_id=self.system_id,
            tool="campaign_get",
            arguments={},
            requester=user or self.gm,
            campaign_id=self.campaign_id,
        )
        return result.authority_revision

    def campaign(self, user: Any | None = None) -> dict[str, Any]:
        return self.call(user or self.gm, "campaign_get").structured["campaign"]

    def role_of(self, user: Any) -> str:
        members = {m["principal"]: m["role"] for m in self.campaign(user)["members"]}
        return members[principal_for(user)]

    def context(self, user: Any, text: str, *, job_id: str, task: str = "action",
                trigger_audience: str = "public") -> TurnContext:  # fmt: skip
        campaign = self.campaign(user)
        role = self.role_of(user)
        names = get_plugin(self.system_id).facade_tools(
            phase=campaign["phase"], role=role, task=task
        )
        return TurnContext(
            job_id=job_id,
            system_id=self.system_id,
            phase=campaign["phase"],
            role=role,
            task=task,
            text=text,
            tools=offered_tools(self.system_id, names),
            trigger_audience=trigger_audience,
            character_id=self.characters.get(principal_for(user)),
        )

    def caller(self, user: Any, turn: TurnContext) -> ToolCaller:
        return ToolCaller(
            system_id=self.system_id,
            campaign_id=self.campaign_id,
            requester=user,
            job_key=f"job-{turn.job_id}",
            tools=turn.tools,
            base_revision=self.revision(user),
            turn=turn.job_id,
            character=turn.character_id,
        )

    def run(self, user: Any, text: str, *, job_id: str | None = None, **extra: Any) -> Run:
        self.turns += 1
        turn = self.context(user, text, job_id=job_id or f"{self.campaign_id}-{self.turns}",
                            **extra)  # fmt: skip
        caller = self.caller(user, turn)
        output = ScriptedAgent().run_turn(turn, caller)
        return Run(output=output, caller=caller)


@dataclass
class Run:
    output: AgentOutput
    caller: ToolCaller

    @property
    def texts(self) -> list[tuple[str, str]]:
        return [(m.text, m.audience) for m in self.output.messages]

    @property
    def tools(self) -> list[str]:
        return [o.tool for o in self.caller.outcomes]


def make_table(system_id: str, gm: Any, player: Any) -> Table:
    table = Table(system_id, gm, player)
    table.call(gm, "campaign_create", name="Keep", random_seed=SEED, expected_revision=0)
    table.call(gm, "member_grant", principal=principal_for(player), role="player")
    return table


@pytest.fixture
def gm(make_user):
    return make_user("gm@example.test")


@pytest.fixture
def player(make_user):
    return make_user("pat@example.test")


@pytest.fixture
def llm():
    """A real local OpenAI-compatible server that answers from a script."""
    from tests.turns.fake_llm import FakeLLM

    fake = FakeLLM()
    yield fake
    fake.close()


@pytest.fixture
def story(live_domains, gm, player):
    """A narrative table in its play phase, the GM and the player at it."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    return table


@pytest.fixture
def table(live_domains, gm, player):
    """A dnd5e table in play."""
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    return table


# Job, API and fault tests: a Django campaign on the live server, eager Celery, turn URLs.
from tests.turns.rooms_support import dnd_room, eager, panel_reads, turn_urls  # noqa: E402,F401
