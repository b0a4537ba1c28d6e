"""Contract shared by every domain server (see docs/domain-contract.md)."""
