"""Candidate-level retrieval metrics: binary relevance (a CV is relevant or it is not), and graded
relevance for job descriptions (how much of a job a CV meets)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def recall_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Share of the relevant candidates found in the top k, out of at most k (so 1.0 is reachable)."""
    if not relevant:
        return 0.0
    hits = sum(1 for c in ranked[:k] if c in relevant)
    return hits / min(len(relevant), k)


def mrr_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    for rank, c in enumerate(ranked[:k], start=1):
        if c in relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    dcg = sum(1.0 / math.log2(rank + 1) for rank, c in enumerate(ranked[:k], start=1) if c in relevant)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(relevant), k) + 1))
    return dcg / ideal if ideal else 0.0


def graded_ndcg_at_k(ranked: Sequence[str], gains: Mapping[str, float], k: int) -> float:
    """nDCG with graded relevance: a candidate's gain is its grade (linear), log2 discount,
    normalised by the best possible order of all graded candidates."""
    dcg = sum(gains.get(c, 0.0) / math.log2(rank + 1) for rank, c in enumerate(ranked[:k], start=1))
    best = sorted(gains.values(), reverse=True)[:k]
    ideal = sum(g / math.log2(rank + 1) for rank, g in enumerate(best, start=1))
    return dcg / ideal if ideal else 0.0
