"""A liveness checker registered through settings in the reaper test."""


def alive_if_prefixed(owner_id: str) -> bool:
    return owner_id.startswith("alive-")
