"""Factory for the narrative domain server."""

from __future__ import annotations

from domain_servers.common.delegation import DelegationVerifier
from domain_servers.common.server import DomainServer
from domain_servers.common.storage import Storage
from domain_servers.narrative.tools import SYSTEM_ID, tools


def create(storage: Storage, verifier: DelegationVerifier) -> DomainServer:
    return DomainServer(SYSTEM_ID, "Narrative (system-neutral)", tools(), storage, verifier)
