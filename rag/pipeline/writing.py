"""Writing a build's segments: the new one (CVs added or changed) and merged ones, the same way.

A segment is written from (document, cached profile) pairs in order: the CVs are prepared in
worker processes (prepare.py), their vectors found a block at a time (vectors.py), and the rows,
terms and vectors handed to the store's writer (store/writer.py), which seals the segment and
names it. A merge is the same with the live CVs of the segments merged as input and their
vectors as the only cache, so it never embeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.index.dictionary import DictionaryPart, TermIds
from rag.ingest.document import Document
from rag.pipeline.engines.local import Engine
from rag.pipeline.prepare import ChunkSettings, PreparedGroup, prepare_all
from rag.pipeline.vectors import CachedSegment, EncoderUse, VectorCache, Vectors
from rag.store.folder import StoreDir
from rag.store.profiles import ProfileRecord
from rag.store.reader import SegmentReader
from rag.store.writer import SegmentWriter

Item = tuple[Document, ProfileRecord | None]
BLOCK = 32_768  # chunks embedded (or looked up) and written together
_READ_BLOCK = 256  # documents read from a segment at a time when merging


@dataclass
class Writing:
    store: StoreDir
    encoder: EncoderUse
    encoder_dir: Path
    term_ids: TermIds
    chunking: ChunkSettings
    engine: Engine
    batch_size: int
    workers: int
    next_number: int
    progress: Callable[[int, str], object]  # Reporter.progress
    same: bool = False  # the live generation's settings: its segments are kept, the build is incremental
    extracted: int = 0  # files read this time (the rest came from the previous generation)
    profiled: int = 0  # profiles read (not taken from a cache)
    embedded: int = 0  # distinct texts embedded
    embedded_chunks: int = 0  # chunks whose vector was embedded rather than reused

    def write(
        self, items: Iterable[Item], count: int, dictionary: Callable[[], DictionaryPart], cache: VectorCache, what: str
    ) -> SegmentReader:
        """A new segment holding these CVs, in order; dictionary() gives the term ids it keeps,
        once all its terms are known."""
        with self.progress(count, what) as advance, self.store.new_segment() as tmp:
            vectors = Vectors(
                cache, self.engine, self.encoder_dir, self.encoder.variant, self.batch_size, lambda n: None
            )
            writer = SegmentWriter(tmp, self.encoder.dim)
            pending: list[PreparedGroup] = []
            for group in prepare_all(items, count, self.chunking, self.workers):
                pending.append(group)
                if sum(len(g.tokens.term_counts) for g in pending) >= BLOCK:
                    self._hand_over(writer, pending, vectors)
                    pending = []
                advance(len(group.items))
            self._hand_over(writer, pending, vectors)
            record = writer.finish(self.term_ids.next_id, dictionary, self.term_ids.terms_of)
            written = writer.commit(self.store, record, self.next_number)
        self.next_number += 1
        self.embedded += vectors.embedded
        self.embedded_chunks += record.chunks - vectors.reused
        return SegmentReader(written.entry, written.folder, written.record)

    def _hand_over(self, writer: SegmentWriter, groups: list[PreparedGroup], vectors: Vectors) -> None:
        """A block of prepared CVs to the store's writer, with their chunks' vectors."""
        if not groups:
            return
        rows = [p.rows for g in groups for p in g.items]
        texts = [c.text for r in rows for c in r.chunks]
        keys = self.encoder.keys(texts)
        found = vectors.block(texts, keys, self.encoder.dim)
        terms = [(g.tokens, self.term_ids.ids(g.tokens.vocab)) for g in groups]
        writer.add(rows, terms, found, keys)
        self.profiled += sum(p.profiled for g in groups for p in g.items)

    def merge(self, sources: list[SegmentReader]) -> SegmentReader:
        """One segment with the live CVs of these, in order."""
        parts = [s.dictionary() for s in sources]
        count = sum(len(s.live_documents()) for s in sources)
        cache = VectorCache([CachedSegment(*s.vectors(self.encoder.dim)) for s in sources])
        return self.write(_live_items(sources), count, lambda: DictionaryPart.join(parts), cache, "merging")


def _live_items(sources: list[SegmentReader]) -> Iterator[Item]:
    """The live documents of the segments with their stored profiles, in order."""
    for source in sources:
        rows = source.live_documents()
        for lo in range(0, len(rows), _READ_BLOCK):
            block = rows[lo : lo + _READ_BLOCK]
            candidates = source.candidate_of(block)
            profiles = source.profiles([int(c) for c in candidates if c >= 0])
            for doc, candidate in zip(source.documents(block), candidates.tolist()):
                yield doc, profiles.get(candidate)


def live_numbers(sources: list[SegmentReader]) -> np.ndarray:
    """(candidates, chunks, BM25 length) of each segment's live part."""
    return np.asarray([s.live_counts() for s in sources], np.int64).reshape(-1, 3)
