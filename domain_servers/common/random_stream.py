"""The `sha256-counter-v1` seeded random stream."""

from __future__ import annotations

import hashlib
from typing import Any

ALGORITHM = "sha256-counter-v1"
_SPACE = 1 << 256


def derive_seed(system_id: str, campaign_id: str) -> str:
    return hashlib.sha256(f"sagasmith-{system_id}:{campaign_id}".encode()).hexdigest()


def seed_fingerprint(seed: str) -> str:
    # A fingerprint lets clients compare streams without learning the seed.
    return hashlib.sha256(f"{ALGORITHM}:fingerprint:{seed}".encode()).hexdigest()[:16]


class RandomStream:
    """Counter-mode draws; `position` is the next counter value."""

    def __init__(self, seed: str, position: int = 0) -> None:
        self.seed = seed
        self.position = position
        self.start = position
        self.draws = 0

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RandomStream:
        return cls(state["seed"], state["position"])

    def _block(self) -> int:
        counter = self.position
        self.position += 1
        digest = hashlib.sha256(f"{ALGORITHM}\0{self.seed}\0{counter}".encode()).digest()
        return int.from_bytes(digest, "big")

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high]; rejection sampling keeps it unbiased."""
        if high < low:
            raise ValueError("empty range")
        span = high - low + 1
        limit = _SPACE - (_SPACE % span)
        self.draws += 1
        while True:
            value = self._block()
            if value < limit:
                return low + value % span

    def receipt(self) -> dict[str, Any]:
        return {
            "algorithm": ALGORITHM,
            "seed_fingerprint": seed_fingerprint(self.seed),
            "position_before": self.start,
            "position_after": self.position,
            "draw_count": self.draws,
        }
