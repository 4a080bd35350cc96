"""Retrievers behind one call: a request in (the analysed query, the units a list ranks, the
candidates kept), scored units out, and each retriever's own rule for which units its list holds.
The dense retriever scores every chunk through the store's FAISS indexes; the keyword retriever
scores the chunks holding a query term with BM25. Fusion (fusion.py) composes their lists, as
pyserini's hybrid searcher composes a dense and a sparse one; a further retriever is one more class
here and one more name in lists.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from rag.search import aggregation as agg
from rag.search.fusion import ranked
from rag.search.lists import DENSE, KEYWORD
from rag.search.query import Query


@dataclass(frozen=True)
class Request:
    """What every retriever is asked."""

    query: Query
    starts: np.ndarray  # unit i owns chunks starts[i] .. starts[i+1]-1 (a candidate, or one chunk)
    keep: np.ndarray | None  # bool per candidate the filters keep (None: all)
    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # the query's posting lists, read once


@dataclass(frozen=True)
class Retrieved:
    scores: np.ndarray  # per unit
    chunk_scores: np.ndarray | None = None  # per chunk, when every chunk was scored (evidence reads them)


class Retriever(Protocol):
    name: str

    def retrieve(self, request: Request) -> Retrieved:
        """Every unit's score for the query."""

    def order(self, scores: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
        """The units its list holds, best first, among those allowed (bool per unit; None: all)."""


class DenseRetriever:
    """Cosine of the query and each unit's closest chunk: every unit is in the list."""

    name = DENSE

    def __init__(self, chunk_scores: Callable[[str, np.ndarray | None], np.ndarray]):
        self.chunk_scores = chunk_scores  # (text, keep) -> cosine of every chunk (Searcher.dense_scores)

    def retrieve(self, request: Request) -> Retrieved:
        chunks = self.chunk_scores(request.query.dense_text, request.keep)
        return Retrieved(agg.best_of_all(request.starts, chunks), chunks)

    def order(self, scores: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
        return only(ranked(scores), allowed)


class KeywordRetriever:
    """BM25, each query term from the unit's chunk where it weighs most: units holding a term."""

    name = KEYWORD

    def retrieve(self, request: Request) -> Retrieved:
        units = len(request.starts) - 1
        return Retrieved(
            sum(
                (agg.best_of_some(request.starts, *request.postings[t]) for t in request.query.terms),
                np.zeros(units),
            )
        )

    def order(self, scores: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
        order = only(ranked(scores), allowed)
        return order[scores[order] > 0]


def only(order: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
    """An order without the units the filters left out."""
    return order if allowed is None else order[allowed[order]]
