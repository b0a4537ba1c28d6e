"""Factory for the dnd5e domain server."""

from __future__ import annotations

from domain_servers.common.delegation import DelegationVerifier
from domain_servers.common.server import DomainServer
from domain_servers.common.storage import Storage
from domain_servers.dnd5e.tools import SYSTEM_ID, tools


def create(storage: Storage, verifier: DelegationVerifier) -> DomainServer:
    return DomainServer(SYSTEM_ID, "D&D 5e (SRD 5.1-style)", tools(), storage, verifier)
