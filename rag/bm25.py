"""BM25 scoring through an inverted index derived from rank_bm25's own statistics.

bm25.pkl stays a plain rank_bm25.BM25Okapi (the reference). For search, every (term, chunk) weight
that BM25Okapi.get_scores would compute is precomputed once into a sparse term x chunk matrix, with
the same formula and operation order, so a query costs one row slice per query term instead of a
Python loop over every chunk per term.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

K1, B, EPSILON = 1.5, 0.75, 0.25


def build_okapi(corpus: list[list[str]]):
    from rank_bm25 import BM25Okapi  # only builds need it; search reads the inverted index

    return BM25Okapi(corpus, k1=K1, b=B, epsilon=EPSILON)


@dataclass
class InvertedIndex:
    terms: dict[str, int]  # term -> row
    indptr: np.ndarray  # CSR over rows: chunks holding term r are indices[indptr[r]:indptr[r+1]]
    indices: np.ndarray
    weights: np.ndarray  # float64, BM25Okapi's per-term contribution for that chunk
    idf: np.ndarray  # per row, as BM25Okapi computed it (with its epsilon floor)
    n_docs: int

    @classmethod
    def from_okapi(cls, bm25) -> InvertedIndex:
        vocab = sorted(bm25.idf)
        terms = {t: r for r, t in enumerate(vocab)}
        postings: list[list[tuple[int, int]]] = [[] for _ in vocab]
        for doc, freqs in enumerate(bm25.doc_freqs):
            for term, tf in freqs.items():
                postings[terms[term]].append((doc, tf))
        lengths = np.fromiter((len(p) for p in postings), dtype=np.int64, count=len(vocab))
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        docs = np.fromiter((d for p in postings for d, _ in p), dtype=np.int32, count=int(indptr[-1]))
        tf = np.fromiter((f for p in postings for _, f in p), dtype=np.float64, count=int(indptr[-1]))
        term_idf = np.array([bm25.idf[t] for t in vocab], dtype=np.float64)
        idf = np.repeat(term_idf, lengths)
        doc_len = np.asarray(bm25.doc_len, dtype=np.float64)[docs]
        # The exact expression of BM25Okapi.get_scores, evaluated elementwise.
        weights = idf * (tf * (bm25.k1 + 1) / (tf + bm25.k1 * (1 - bm25.b + bm25.b * doc_len / bm25.avgdl)))
        return cls(terms, indptr, docs, weights, term_idf, bm25.corpus_size)

    def scores(self, query: list[str]) -> np.ndarray:
        """Equal to BM25Okapi.get_scores(query), summed in the same order."""
        out = np.zeros(self.n_docs)
        for term in query:
            row = self.terms.get(term)
            if row is not None:
                lo, hi = self.indptr[row], self.indptr[row + 1]
                out[self.indices[lo:hi]] += self.weights[lo:hi]
        return out

    def term_weights(self, terms: list[str]) -> dict[str, float]:
        """How telling each query term is (its idf); unknown terms weigh nothing."""
        return {t: float(self.idf[self.terms[t]]) if t in self.terms else 0.0 for t in terms}

    def top(self, query: list[str], k: int) -> list[tuple[int, float]]:
        """The k best chunks with a positive score, best first; ties go to the lower chunk id."""
        scores = self.scores(query)
        hits = np.flatnonzero(scores > 0)
        if len(hits) > k:
            hits = hits[np.argpartition(-scores[hits], k - 1)[:k]]
            # argpartition may cut a tie at the k-th score arbitrarily: take every tied chunk, then trim.
            cutoff = scores[hits].min()
            hits = np.flatnonzero(scores >= cutoff)
        ranked = sorted(hits.tolist(), key=lambda d: (-scores[d], d))[:k]
        return [(d, float(scores[d])) for d in ranked]

    def save(self, path: Path) -> None:
        with path.open("wb") as f:
            np.savez(
                f,
                vocab=np.array(list(self.terms), dtype=str),
                indptr=self.indptr,
                indices=self.indices,
                weights=self.weights,
                idf=self.idf,
                n_docs=np.array(self.n_docs),
            )

    @classmethod
    def load(cls, path: Path) -> InvertedIndex:
        with np.load(path, allow_pickle=False) as data:
            vocab = data["vocab"].tolist()
            return cls(
                {t: r for r, t in enumerate(vocab)},
                data["indptr"],
                data["indices"],
                data["weights"],
                data["idf"],
                int(data["n_docs"]),
            )
