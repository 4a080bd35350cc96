"""BM25Okapi's arithmetic (rank_bm25 0.2.2), over statistics that span every segment of a store.

A store's chunks live in several segments, but a score must not depend on how they are split:
document frequencies, the chunk count and the average length are summed over the live chunks of
all segments, and weights are computed at query time with BM25Okapi's own expressions, so a
store of many segments scores exactly as one built at once. One statistic is global in a less
obvious way: a term in more than half the chunks gets epsilon times the mean idf of the whole
vocabulary, which is summed here exactly (correctly rounded), independent of term order.

bm25.pkl, one per segment, holds that segment's term frequencies as a sparse matrix (TermCounts);
Bm25Reference scores a store from those pickles alone, as BM25Okapi would over its live chunks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

K1, B, EPSILON = 1.5, 0.75, 0.25


def idf(df: int, n: int) -> float:
    """BM25Okapi._calc_idf for one term, before the floor."""
    return math.log(n - df + 0.5) - math.log(df + 0.5)


def exact_mean_idf(df: np.ndarray, n: int) -> float:
    """The mean idf over the terms some live chunk holds (df > 0), summed exactly."""
    values, counts = np.unique(df[df > 0], return_counts=True)
    if not len(values):
        return 0.0
    total = sum(Fraction(idf(int(d), n)) * int(c) for d, c in zip(values, counts))
    return float(total / int(counts.sum()))


@dataclass
class Bm25Stats:
    """What a term's weight depends on besides its own frequency and the chunk's length."""

    n: int  # live chunks
    total_length: int  # their BM25 terms, summed
    df: np.ndarray  # int64 per term id: live chunks holding it

    @property
    def avgdl(self) -> float:
        return self.total_length / self.n

    @cached_property
    def floor(self) -> float:
        return EPSILON * exact_mean_idf(self.df, self.n)

    def idf(self, term_id: int | None) -> float:
        """BM25Okapi's idf of a term (0 for a term no live chunk holds)."""
        if term_id is None or term_id >= len(self.df) or self.df[term_id] <= 0:
            return 0.0
        value = idf(int(self.df[term_id]), self.n)
        return self.floor if value < 0 else value

    def weights(self, tf: np.ndarray, lengths: np.ndarray, term_idf: float) -> np.ndarray:
        """BM25Okapi.get_scores' term for one query term, elementwise over the chunks holding it."""
        return term_idf * (tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths / self.avgdl)))


@dataclass
class TermCounts:
    """One segment's term frequencies: what its bm25.pkl holds."""

    terms: list[str]  # the term of each column
    counts: object  # scipy.sparse.csc_matrix, chunks x terms: how often each term occurs in each chunk
    lengths: np.ndarray  # per chunk: its number of BM25 terms


class Bm25Reference:
    """BM25Okapi.get_scores over the live chunks of a store, in store order, from its segments'
    TermCounts (live: bool per chunk of each segment, or None when all are live). For checks."""

    def __init__(self, parts: list[tuple[TermCounts, np.ndarray | None]]):
        self.parts = [(counts, np.ones(len(counts.lengths), bool) if live is None else live) for counts, live in parts]
        df: dict[str, int] = {}
        total = n = 0
        for counts, live in self.parts:
            held = (counts.counts if live.all() else counts.counts[np.flatnonzero(live)]).getnnz(axis=0)
            for term, count in zip(counts.terms, held.tolist()):
                if count:
                    df[term] = df.get(term, 0) + count
            total += int(counts.lengths[live].sum())
            n += int(live.sum())
        self.terms = {t: i for i, t in enumerate(df)}
        self.stats = Bm25Stats(n, total, np.fromiter(df.values(), np.int64, len(df)))

    def get_scores(self, query: list[str]) -> np.ndarray:
        out = []
        for counts, live in self.parts:
            column = {t: i for i, t in enumerate(counts.terms)}
            lengths = counts.lengths[live]
            scores = np.zeros(len(lengths))
            for term in query:
                tf = np.zeros(len(counts.lengths))
                if term in column:
                    tf = counts.counts[:, column[term]].toarray().ravel()
                scores += self.stats.weights(tf[live], lengths, self.stats.idf(self.terms.get(term)))
            out.append(scores)
        return np.concatenate(out) if out else np.zeros(0)
