"""Reciprocal Rank Fusion: combine ranked lists using ranks only, so scores need no calibration."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

DEFAULT_RRF_K = 60


@dataclass(frozen=True)
class Fused:
    item: Hashable
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # list name -> 1-based rank there


def rrf(lists: dict[str, Sequence[Hashable]], k: int = DEFAULT_RRF_K) -> list[Fused]:
    """Fuse named ranked lists: score = sum of 1/(k + rank) over the lists an item appears in.

    Ties go to the item with the better best rank, then to the smaller item, so the order never
    depends on dict or set iteration order.
    """
    if k < 0:
        raise ValueError(f"rrf k must be >= 0, got {k}")
    ranks: dict[Hashable, dict[str, int]] = {}
    for name, items in lists.items():
        for rank, item in enumerate(items, start=1):
            ranks.setdefault(item, {}).setdefault(name, rank)
    fused = [
        Fused(item, sum(1.0 / (k + r) for r in where.values()), where)
        for item, where in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), f.item))
    return fused
