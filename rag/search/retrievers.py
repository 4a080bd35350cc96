"""Retrievers behind one call: a request in (the analysed query, the units a list ranks, the
candidates kept), scored units out, and each retriever's own rule for which units its list holds.
Each owns its index, loaded when first asked: the dense retriever scores every chunk through the
segments' FAISS indexes and the store's encoder; the keyword retriever scores the chunks holding a
query term with BM25 over the store's postings. Fusion (fusion.py) composes their lists, as
pyserini's hybrid searcher composes a dense and a sparse one; a further retriever is one more class
here and one more name in lists.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from rag.search import aggregation as agg
from rag.search.fusion import ranked
from rag.search.lists import DENSE, KEYWORD
from rag.search.query import Query
from rag.store.open import OpenStore

DESCRIBED_SECOND = 0.3  # a description's dense score adds its second-best chunk times this (docs/search.md)


@dataclass(frozen=True)
class Request:
    """What every retriever is asked."""

    query: Query
    starts: np.ndarray  # unit i owns chunks starts[i] .. starts[i+1]-1 (a candidate, or one chunk)
    keep: np.ndarray | None  # bool per candidate the filters keep (None: all)
    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # the query's posting lists, read once
    described: bool = False  # the query names nothing concrete (retrieval.names_something)


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

    def __init__(self, store: OpenStore):
        self.store = store
        self._index = None
        self._encoder = None

    @property
    def index(self):
        """The segments' FAISS indexes, as one (index/dense.py)."""
        if self._index is None:
            self._index = self.store.dense_index()
        return self._index

    @property
    def encoder(self):
        """The store's encoder (queries and passages as the store embedded them)."""
        if self._encoder is None:
            from rag.index.encoder import load_encoder

            self._encoder = self.store.checked(
                lambda: load_encoder(self.store.encoder_dir, self.store.manifest.encoder["variant"])
            )
        return self._encoder

    def chunk_scores(
        self, text: str | Sequence[str], keep: np.ndarray | None = None, at_least: float | None = None
    ) -> np.ndarray:
        """Cosine of the query with every chunk; several texts are one query, the mean of their
        vectors (a description embedded cut and whole: Query.dense_texts), embedded in one batch
        and searched once. Exact in a store scored exactly (every segment up to ann.FLAT_MAX
        chunks); in a larger one exact for the closest chunks among those of the candidates kept
        (keep: bool per candidate) and for every chunk at or above at_least, the lowest of those
        elsewhere (dense.py, docs/scale.md)."""
        texts = [text] if isinstance(text, str) else list(text)
        index = self.index
        allowed = None if keep is None else np.repeat(keep, np.diff(self.store.starts))
        return self.store.checked(
            lambda: index.similarities(self.encoder.embed_queries(texts).mean(axis=0), allowed, at_least)
        )

    def retrieve(self, request: Request) -> Retrieved:
        chunks = self.chunk_scores(request.query.dense_texts, request.keep)
        if request.described:
            return Retrieved(agg.best_and_next(request.starts, chunks, DESCRIBED_SECOND), chunks)
        return Retrieved(agg.best_of_all(request.starts, chunks), chunks)

    def order(self, scores: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
        return only(ranked(scores), allowed)


class KeywordRetriever:
    """BM25, each query term from the unit's chunk where it weighs most: units holding a term."""

    name = KEYWORD

    def __init__(self, store: OpenStore):
        self.store = store
        self._index = None

    @property
    def index(self):
        """The store's keyword index: postings and BM25 statistics (index/keyword.py)."""
        if self._index is None:
            self._index = self.store.keyword_index()
        return self._index

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
