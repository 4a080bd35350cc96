"""The keyword index of a store: BM25 over the live chunks of all its segments, and phrases.

Each segment holds term frequencies and word positions (keyword_segment.py); this view adds the
store-wide statistics (bm25.py) and numbers chunks store-wide, live ones only (live.py). A
query term costs one posting-list slice per segment, weighted in numpy with BM25Okapi's
expressions, so scores equal BM25Okapi.get_scores over the live chunks, however the store is
split into segments, and no query loops over chunks in Python.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from rag.index.bm25 import Bm25Stats
from rag.index.dictionary import TermDictionary
from rag.index.keyword_segment import KeywordFiles, KeywordSegment
from rag.index.live import LiveRows
from rag.index.tokens import TokenBatch
from rag.lexicon.terms import JOINERS, STOPWORDS, pieces

_CACHED_TERMS = 32  # a search asks for the same term's postings several times (ranking, concepts, evidence)


@dataclass
class DeletedTerms:
    """What a segment's deleted chunks held: subtracted from the store-wide statistics."""

    terms: np.ndarray  # term ids
    counts: np.ndarray  # deleted chunks holding each
    length: int  # their BM25 terms, summed


def held_terms(batch: TokenBatch, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The term ids a batch of chunks holds, and in how many of its chunks each (ids maps the
    batch's vocabulary to term ids): what deleting those chunks takes from the statistics."""
    width = max(len(batch.vocab), 1)
    owner = np.repeat(np.arange(len(batch.term_counts), dtype=np.int64), batch.term_counts)
    held = np.unique(owner * width + batch.terms) % width
    return np.unique(ids[held], return_counts=True)


def store_stats(
    segments: list[KeywordSegment], live: list[LiveRows], deleted: list[DeletedTerms | None], term_count: int
) -> Bm25Stats:
    """Document frequencies, chunk count and total length over the live chunks of every segment."""
    df = np.zeros(term_count, np.int64)
    total = 0
    for segment, gone in zip(segments, deleted):
        df[np.asarray(segment.terms)] += np.diff(np.asarray(segment.indptr))
        total += int(np.asarray(segment.lengths, np.int64).sum())
        if gone is not None:
            np.subtract.at(df, gone.terms, gone.counts)
            total -= gone.length
    return Bm25Stats(sum(rows.count for rows in live), total, df)


class KeywordIndex:
    def __init__(
        self, segments: list[KeywordSegment], live: list[LiveRows], dictionary: TermDictionary, stats: Bm25Stats
    ):
        self.segments = segments
        self.live = live
        self.dictionary = dictionary
        self.stats = stats
        self.n_docs = stats.n
        self._ids: dict[str, int | None] = {}
        self._postings: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._joined: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None

    @classmethod
    def load(
        cls,
        files: list[KeywordFiles],
        live: list[LiveRows],
        deleted: list[DeletedTerms | None],
        dictionary: TermDictionary,
        term_count: int,
    ) -> KeywordIndex:
        segments = [KeywordSegment.load(f, rows.size) for f, rows in zip(files, live)]
        return cls(segments, live, dictionary, store_stats(segments, live, deleted, term_count))

    def term_id(self, term: str) -> int | None:
        if term not in self._ids:
            self._ids[term] = self.dictionary.lookup(term)
        return self._ids[term]

    def joined_terms(self, term: str) -> list[str]:
        """The index's other terms that hold term's pieces side by side ("javascript/jquery" and
        "html/css/javascript" for javascript, "ci-cd" for ci/cd): the tokenizer keeps a joined
        term whole, where a reader of the text sees its pieces. Found once per store."""
        if self._joined is None:
            self._joined = {}
            for joined in self.dictionary.terms_with_any(JOINERS):
                split = pieces(joined)
                for piece in set(split):
                    self._joined.setdefault(piece, []).append((joined, split))
        wanted = pieces(term) or (term,)
        n = len(wanted)
        return [
            joined
            for joined, split in self._joined.get(wanted[0], ())
            if joined != term and any(split[i : i + n] == wanted for i in range(len(split) - n + 1))
        ]

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """Live chunks holding term (ascending store-wide ids) and the term's BM25 weight in each."""
        cached = self._postings.get(term)
        if cached is None:
            cached = self._compute_postings(term)
            self._postings[term] = cached
            if len(self._postings) > _CACHED_TERMS:
                self._postings.popitem(last=False)
        else:
            self._postings.move_to_end(term)
        return cached

    def _compute_postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        term_id = self.term_id(term)
        ids, weights = [np.zeros(0, np.int64)], [np.zeros(0)]
        if term_id is not None:
            idf = self.stats.idf(term_id)
            for segment, rows in zip(self.segments, self.live):
                row = segment.row(term_id)
                if row is None:
                    continue
                chunks, tf = segment.postings(row)
                numbers, live = rows.to_store(chunks)
                weight = self.stats.weights(tf, np.asarray(segment.lengths[chunks]), idf)
                ids.append(numbers)
                weights.append(weight if live is None else weight[live])
        return np.concatenate(ids), np.concatenate(weights)

    def scores(self, query: list[str], read: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> np.ndarray:
        """Equal to BM25Okapi.get_scores(query) over the live chunks, summed in the same order;
        `read` holds posting lists the caller has already read (postings()), which are not read again."""
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
        return {t: self.stats.idf(self.term_id(t)) for t in terms}

    def phrase_chunks(self, words: tuple[str, ...]) -> np.ndarray:
        """Live chunks in which the words stand side by side, in order (ascending ids). A stop word
        holds its place in the index without a term (tokens.py), so one between two words stands
        for the word in its place, whichever it is: "gestion de proyectos" is held where "gestion"
        and "proyectos" stand two words apart, as the text reader (vocabulary.find_skills) holds
        it. At either end it holds nothing ("t sql", the pieces of "T-SQL", is no "... sql")."""
        placed = [(offset, w) for offset, w in enumerate(words) if w not in STOPWORDS]
        ids = [(offset, self.term_id(w)) for offset, w in placed]
        found = [np.zeros(0, np.int64)]
        if not words or words[0] in STOPWORDS or words[-1] in STOPWORDS or any(i is None for _, i in ids):
            return found[0]
        for segment, rows in zip(self.segments, self.live):
            starts = segment.positions_of(segment.row(ids[0][1]))
            for offset, term_id in ids[1:]:
                if not len(starts):
                    break
                starts = np.intersect1d(starts, segment.positions_of(segment.row(term_id)) - offset, assume_unique=True)
            if len(starts):
                found.append(rows.to_store(segment.chunks_at(starts))[0])
        return np.concatenate(found)
