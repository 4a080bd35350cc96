"""The keyword index: BM25 over chunk terms, and where every word stands, for phrases.

bm25.pkl is a plain rank_bm25.BM25Okapi, the reference. Search reads bm25.index.npz instead:
every (term, chunk) weight that BM25Okapi.get_scores would compute, precomputed with the same
formula and operation order into a sparse term x chunk matrix, so a query costs one row slice
per term, not a Python loop over every chunk. The same file keeps each content word's positions,
so "cost accounting" can be told from a CV that says "cost" and "accounting" far apart.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile
from rag.lexicon.terms import STOPWORDS, expand_words, raw_tokens

K1, B, EPSILON = 1.5, 0.75, 0.25
PICKLE = "bm25.pkl"  # the reference BM25Okapi
INDEX = "bm25.index.npz"  # what search reads
FILES = (PICKLE, INDEX)


def build_okapi(corpus: list[list[str]]):
    from rank_bm25 import BM25Okapi  # only builds need it; search reads the inverted index

    return BM25Okapi(corpus, k1=K1, b=B, epsilon=EPSILON)


@dataclass
class KeywordIndex:
    terms: dict[str, int]  # term -> row
    indptr: np.ndarray  # CSR over rows: chunks holding term r are indices[indptr[r]:indptr[r+1]]
    indices: np.ndarray  # chunk ids, ascending within a row
    weights: np.ndarray  # float64, BM25Okapi's contribution of that term to that chunk
    idf: np.ndarray  # per row, as BM25Okapi computed it (with its epsilon floor)
    n_docs: int
    pos_indptr: np.ndarray  # CSR over rows: word positions of term r are positions[pos_indptr[r]:...]
    positions: np.ndarray  # global word positions, ascending within a row
    chunk_first: np.ndarray  # global position of each chunk's first word; one past the end last

    @classmethod
    def build(cls, texts: list[str]) -> tuple[KeywordIndex, object]:
        """The index and the BM25Okapi it derives from, for chunk texts in chunk order."""
        words = [[t.term for t in raw_tokens(text)] for text in texts]
        okapi = build_okapi([expand_words(w) for w in words])
        return cls.from_okapi(okapi, words), okapi

    @classmethod
    def from_okapi(cls, bm25, words: list[list[str]]) -> KeywordIndex:
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
        pos_indptr, positions, chunk_first = _positions(words, terms)
        return cls(terms, indptr, docs, weights, term_idf, bm25.corpus_size, pos_indptr, positions, chunk_first)

    # ---- storage -----------------------------------------------------------------------------

    def save(self, folder: Path, okapi) -> None:
        with (folder / PICKLE).open("wb") as f:
            pickle.dump(okapi, f, protocol=5)
        with (folder / INDEX).open("wb") as f:
            np.savez(f, vocab=np.array(list(self.terms), dtype=str), indptr=self.indptr, indices=self.indices,
                     weights=self.weights, idf=self.idf, n_docs=np.array(self.n_docs), pos_indptr=self.pos_indptr,
                     positions=self.positions, chunk_first=self.chunk_first)

    @classmethod
    def load(cls, folder: Path, chunk_count: int) -> KeywordIndex:
        """Read bm25.index.npz (checksummed by the store beforehand) and check it covers the store."""
        try:
            with np.load(folder / INDEX, allow_pickle=False) as data:
                vocab = data["vocab"].tolist()
                index = cls({t: r for r, t in enumerate(vocab)}, data["indptr"], data["indices"], data["weights"],
                            data["idf"], int(data["n_docs"]), data["pos_indptr"], data["positions"],
                            data["chunk_first"])
        except (OSError, ValueError, KeyError) as exc:
            raise DamagedFile(f"{INDEX} cannot be read ({type(exc).__name__})") from None
        if index.n_docs != chunk_count or len(index.chunk_first) != chunk_count + 1:
            raise DamagedFile(f"{INDEX} covers {index.n_docs} chunks, not {chunk_count}")
        return index

    @staticmethod
    def load_okapi(folder: Path, chunk_count: int):
        """The reference BM25Okapi (for equivalence checks); the store checksums it before this runs."""
        with (folder / PICKLE).open("rb") as f:
            okapi = pickle.load(f)
        if okapi.corpus_size != chunk_count:
            raise DamagedFile(f"{PICKLE} covers {okapi.corpus_size} chunks, not {chunk_count}")
        return okapi

    # ---- search ------------------------------------------------------------------------------

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """Chunks holding term (ascending) and the term's BM25 weight in each."""
        row = self.terms.get(term)
        if row is None:
            return np.zeros(0, np.int32), np.zeros(0)
        lo, hi = self.indptr[row], self.indptr[row + 1]
        return self.indices[lo:hi], self.weights[lo:hi]

    def scores(self, query: list[str], read: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> np.ndarray:
        """Equal to BM25Okapi.get_scores(query), summed in the same order; `read` holds posting
        lists the caller has already read (postings()), which are not read again."""
        out = np.zeros(self.n_docs)
        for term in query:
            chunks, weights = read[term] if read and term in read else self.postings(term)
            out[chunks] += weights
        return out

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

    def term_weights(self, terms: list[str]) -> dict[str, float]:
        """How telling each query term is (its idf); unknown terms weigh nothing."""
        return {t: float(self.idf[self.terms[t]]) if t in self.terms else 0.0 for t in terms}

    def phrase_chunks(self, words: tuple[str, ...]) -> np.ndarray:
        """Chunks in which the words stand side by side, in order (ascending chunk ids)."""
        starts = self._word_positions(words[0])
        for offset, word in enumerate(words[1:], start=1):
            starts = np.intersect1d(starts, self._word_positions(word) - offset, assume_unique=True)
        return np.unique(np.searchsorted(self.chunk_first, starts, side="right") - 1)

    def _word_positions(self, word: str) -> np.ndarray:
        row = self.terms.get(word)
        if row is None:
            return np.zeros(0, self.positions.dtype)
        return self.positions[self.pos_indptr[row] : self.pos_indptr[row + 1]]


def _positions(words: list[list[str]], terms: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each content word stands: positions count every word, stop words included, so a
    phrase never skips one; one unused position between chunks keeps phrases inside a chunk."""
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
    chunk_first = np.concatenate([[0], np.cumsum(lengths + 1)])
    row_of = {t: r for t, r in terms.items() if t not in STOPWORDS}
    total = int(lengths.sum())
    rows = np.fromiter((row_of.get(w, -1) for chunk in words for w in chunk), dtype=np.int32, count=total)
    where = np.arange(total, dtype=np.int64) + np.repeat(np.arange(len(words), dtype=np.int64), lengths)
    kept = rows >= 0
    rows, where = rows[kept], where[kept]
    order = np.argsort(rows, kind="stable")  # stable: positions stay ascending within a row
    pos_indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(terms)))])
    dtype = np.int32 if chunk_first[-1] < np.iinfo(np.int32).max else np.int64
    return pos_indptr, where[order].astype(dtype), chunk_first
