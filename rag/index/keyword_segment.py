"""One segment's keyword index: term frequencies and word positions, grouped by term id.

What a segment stores is only what is its own: how often each term occurs in each of its chunks,
each chunk's length, and where each word stands. BM25 weights depend on the whole store (idf,
average length), so they are computed at query time (bm25.py), never stored: a segment written
once stays valid however many others join it or are deleted.

Written in blocks (KeywordWriter: chunk after chunk to flat files, then grouped by term on disk);
read through memory maps (KeywordSegment), so opening one costs nothing however large it is.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.errors import DamagedFile
from rag.index.bm25 import TermCounts
from rag.index.dictionary import DictionaryPart
from rag.index.tokens import TokenBatch
from rag.index.transpose import Spool, group_by_key


@dataclass(frozen=True)
class KeywordFiles:
    """Where a segment's keyword index lives (the store names the files: rag/store/layout.py)."""

    pickle: Path  # TermCounts: the segment's term frequencies as a sparse matrix (the reference)
    dictionary: Path  # the term ids this segment introduced (dictionary.py)
    terms: Path  # term ids present, ascending
    indptr: Path  # CSR over terms: the chunks of term row r are chunks[indptr[r]:indptr[r+1]]
    chunks: Path  # segment chunk rows, ascending within a term
    tf: Path  # the term's frequency in that chunk
    lengths: Path  # per chunk: its number of BM25 terms
    pos_indptr: Path  # CSR over terms into positions
    positions: Path  # word positions of the term, ascending
    chunk_first: Path  # position of each chunk's first word; one past the end last


class KeywordWriter:
    """Collects a segment's chunks a batch at a time; finish() writes the segment's files."""

    def __init__(self, spool_dir: Path):
        spool_dir.mkdir(exist_ok=True)
        self.spool_dir = spool_dir
        self.entry_terms = Spool(spool_dir / "terms", np.int64)
        self.entry_chunks = Spool(spool_dir / "chunks", np.int32)
        self.entry_tf = Spool(spool_dir / "tf", np.int32)
        self.word_terms = Spool(spool_dir / "word-terms", np.int64)
        self.word_where = Spool(spool_dir / "word-where", np.int64)
        self.lengths: list[np.ndarray] = []
        self.chunk_first: list[np.ndarray] = []
        self.chunks = 0
        self.words = 0  # positions used so far
        self.max_tf = 0

    def add(self, batch: TokenBatch, ids: np.ndarray) -> None:
        """A batch of chunks, in order; ids maps the batch's vocabulary to term ids."""
        n = len(batch.term_counts)
        width = max(len(batch.vocab), 1)
        owner = np.repeat(np.arange(n, dtype=np.int64), batch.term_counts)
        keys, tf = np.unique(owner * width + batch.terms, return_counts=True)
        self.entry_terms.append(ids[keys % width])
        self.entry_chunks.append(keys // width + self.chunks)
        self.entry_tf.append(tf)
        self.max_tf = max(self.max_tf, int(tf.max(initial=0)))
        # Positions count every word, stop words included, and leave one unused between chunks,
        # so a phrase never skips a word nor spans two chunks.
        first = self.words + np.concatenate([[0], np.cumsum(batch.word_counts + 1)])
        where = np.arange(len(batch.words), dtype=np.int64) + np.repeat(
            first[:-1] - np.concatenate([[0], np.cumsum(batch.word_counts)])[:-1], batch.word_counts
        )
        content = batch.words >= 0
        self.word_terms.append(ids[batch.words[content]])
        self.word_where.append(where[content])
        self.chunk_first.append(first[:-1])
        self.words = int(first[-1])
        self.lengths.append(batch.term_counts)
        self.chunks += n

    def finish(self, files: KeywordFiles, term_count: int, dictionary: DictionaryPart, terms_of) -> int:
        """Write the segment's keyword files; term_count bounds the term ids, and
        terms_of(ids) gives their text (for the pickle). The BM25 terms of all chunks, counted."""
        tf_dtype = np.uint16 if self.max_tf <= np.iinfo(np.uint16).max else np.int32
        lengths = np.concatenate(self.lengths).astype(np.int32) if self.lengths else np.zeros(0, np.int32)
        terms, indptr, (chunks, tf) = group_by_key(
            self.entry_terms.close(),
            [self.entry_chunks.close(), self.entry_tf.close()],
            term_count,
            [(files.chunks, np.int32), (files.tf, tf_dtype)],
        )
        _write_pickle(files.pickle, TermCounts(terms_of(terms), _csc(tf, chunks, indptr, self.chunks), lengths))
        del chunks, tf  # unmapped before the positions are grouped
        position_dtype = np.int32 if self.words < np.iinfo(np.int32).max else np.int64
        word_terms, word_indptr, _ = group_by_key(
            self.word_terms.close(), [self.word_where.close()], term_count, [(files.positions, position_dtype)]
        )
        per_term = np.zeros(term_count, np.int64)
        per_term[word_terms] = np.diff(word_indptr)
        pos_indptr = np.concatenate([[0], np.cumsum(per_term[terms])])
        chunk_first = np.concatenate([*self.chunk_first, [self.words]]).astype(np.int64)
        for path, array in (
            (files.terms, terms),
            (files.indptr, indptr),
            (files.lengths, lengths),
            (files.pos_indptr, pos_indptr),
            (files.chunk_first, chunk_first),
        ):
            np.save(path, array, allow_pickle=False)
        dictionary.save(files.dictionary)
        for spool in self.spool_dir.iterdir():
            spool.unlink()
        self.spool_dir.rmdir()
        return int(lengths.sum())


def _csc(tf: np.ndarray, chunks: np.ndarray, indptr: np.ndarray, rows: int):
    from scipy.sparse import csc_matrix

    index = np.int32 if len(chunks) < np.iinfo(np.int32).max else np.int64
    return csc_matrix(
        (tf, chunks.astype(index, copy=False), indptr.astype(index)), shape=(rows, len(indptr) - 1), copy=False
    )


def _write_pickle(path: Path, counts: TermCounts) -> None:
    with path.open("wb") as f:
        pickle.dump(counts, f, protocol=5)


def load_term_counts(path: Path, chunk_count: int) -> TermCounts:
    """A segment's pickled term counts (its checksum is checked by the store before this runs)."""
    with path.open("rb") as f:
        counts = pickle.load(f)
    if not isinstance(counts, TermCounts) or len(counts.lengths) != chunk_count:
        raise DamagedFile(f"{path.name} does not hold the term counts of {chunk_count} chunks")
    return counts


@dataclass
class KeywordSegment:
    terms: np.ndarray
    indptr: np.ndarray
    chunks: np.ndarray
    tf: np.ndarray
    lengths: np.ndarray
    pos_indptr: np.ndarray
    positions: np.ndarray
    chunk_first: np.ndarray

    @classmethod
    def load(cls, files: KeywordFiles, chunk_count: int) -> KeywordSegment:
        """Memory-map a segment's keyword files and check that they fit together and cover its chunks."""
        try:
            arrays = [
                np.load(path, mmap_mode="r", allow_pickle=False)
                for path in (
                    files.terms,
                    files.indptr,
                    files.chunks,
                    files.tf,
                    files.lengths,
                    files.pos_indptr,
                    files.positions,
                    files.chunk_first,
                )
            ]
        except (OSError, ValueError) as exc:
            raise DamagedFile(f"the keyword index of a segment cannot be read ({type(exc).__name__})") from None
        segment = cls(*arrays)
        consistent = (
            len(segment.indptr) == len(segment.pos_indptr) == len(segment.terms) + 1
            and int(segment.indptr[-1]) == len(segment.chunks) == len(segment.tf)
            and int(segment.pos_indptr[-1]) == len(segment.positions)
            and len(segment.lengths) == chunk_count
            and len(segment.chunk_first) == chunk_count + 1
        )
        if not consistent:
            raise DamagedFile(f"the keyword index of a segment does not describe its {chunk_count} chunks")
        return segment

    def row(self, term_id: int) -> int | None:
        r = int(np.searchsorted(self.terms, term_id))
        return r if r < len(self.terms) and int(self.terms[r]) == term_id else None

    def postings(self, row: int) -> tuple[np.ndarray, np.ndarray]:
        """The segment's chunks holding the term of that row (ascending), and its frequency in each."""
        lo, hi = int(self.indptr[row]), int(self.indptr[row + 1])
        chunks = np.asarray(self.chunks[lo:hi])
        if len(chunks) and (chunks.min() < 0 or chunks.max() >= len(self.lengths)):
            raise DamagedFile("the keyword index of a segment names chunks it does not have")
        return chunks, np.asarray(self.tf[lo:hi])

    def positions_of(self, row: int | None) -> np.ndarray:
        if row is None:
            return np.zeros(0, np.int64)
        return np.asarray(self.positions[int(self.pos_indptr[row]) : int(self.pos_indptr[row + 1])], np.int64)

    def chunks_at(self, positions: np.ndarray) -> np.ndarray:
        """The segment chunks holding those word positions (distinct, ascending)."""
        return np.unique(np.searchsorted(self.chunk_first, positions, side="right") - 1)
