"""Fusing the dense and keyword lists: coverage first, then a fusion rule.

Coverage is the number of the query's concepts a candidate holds (rag.query: skills by any known
spelling, phrases verbatim, the seniority a query names). Candidates are ordered by coverage
first, so one who holds every concept of "Who has experience with Jenkins?" never falls below a
pure meaning match: coordination-level ranking, the oldest rule in ranked retrieval, applied to
concepts rather than words. Within a coverage level a fusion rule orders them:

- convex (default): w_bm25 * bm25 + w_faiss * faiss, each list's scores min-max normalised over
  all candidates (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval",
  ACM TOIS 2023, who find a tuned convex combination beats RRF and needs few labels to tune);
- rrf: the sum over lists of 1 / (k + rank), ranks only.

Ties go to the lower index, so the order never depends on anything but the scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

DEFAULT_RRF_K = 60
RULES = ("convex", "rrf")
DEFAULT_RULE = "convex"
# Chosen on the development corpus (docs/search.md), never on the one it is tested on.
DEFAULT_WEIGHTS = {"bm25": 0.0, "faiss": 1.0}


@dataclass(frozen=True)
class FusionSettings:
    rule: str = DEFAULT_RULE
    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    rrf_k: int = DEFAULT_RRF_K
    coverage: bool = True  # order by concepts held before the rule

    def describe(self) -> str:
        return describe_fusion(**self.to_json())

    def to_json(self) -> dict:
        return {"rule": self.rule, "weights": dict(self.weights), "rrf_k": self.rrf_k, "coverage": self.coverage}


def describe_fusion(rule: str, weights: Mapping[str, float], rrf_k: int, coverage: bool) -> str:
    """The fusion settings in one line, as a list's heading and a report name them."""
    shown = (f"convex: {' + '.join(f'{w:g}·{n}' for n, w in weights.items())} (min-max normalised)"
             if rule == "convex" else f"rrf: Σ 1/({rrf_k} + rank)")
    return ("concepts held first, then " if coverage else "") + shown


def normalised(scores: np.ndarray) -> np.ndarray:
    """Min-max over all candidates: 0 for the lowest, 1 for the highest (all 0 when flat)."""
    if scores.size == 0:
        return scores.astype(float)
    low, high = float(scores.min()), float(scores.max())
    return (scores - low) / (high - low) if high > low else np.zeros(len(scores))


def convex_scores(scores: Mapping[str, np.ndarray], weights: Mapping[str, float]) -> np.ndarray:
    total = sum(weights[name] for name in scores)
    if total <= 0:
        raise ValueError("fusion weights must add up to more than 0")
    return sum(weights[name] / total * normalised(s) for name, s in scores.items())


def rrf_scores(rankings: Sequence[np.ndarray], n: int, k: int = DEFAULT_RRF_K) -> np.ndarray:
    """Each ranking lists candidate indices best first (and may leave some out)."""
    out = np.zeros(n)
    for ranking in rankings:
        out[ranking] += 1.0 / (k + np.arange(1, len(ranking) + 1))
    return out


def ranked(scores: np.ndarray, levels: np.ndarray | None = None) -> np.ndarray:
    """Indices ordered by level (highest first), then score, then index (stable sorts keep ties
    in index order)."""
    order = np.argsort(-scores, kind="stable")
    if levels is not None:
        order = order[np.argsort(-levels[order], kind="stable")]
    return order
