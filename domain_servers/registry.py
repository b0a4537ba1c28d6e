"""Registered domain servers: the conformance suite runs against every entry."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerEntry:
    system_id: str
    module: str  # run with `python -m <module>`
    audience: str
    factory: str  # "<module>:<callable>" building a DomainServer from storage and verifier


SERVERS: dict[str, ServerEntry] = {
    entry.system_id: entry
    for entry in (
        ServerEntry(
            "dnd5e", "domain_servers.dnd5e", "sagasmith-dnd5e", "domain_servers.dnd5e.server:create"
        ),
        ServerEntry(
            "narrative",
            "domain_servers.narrative",
            "sagasmith-narrative",
            "domain_servers.narrative.server:create",
        ),
    )
}
