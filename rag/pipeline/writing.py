"""Writing a build's segments: the new one (CVs added or changed) and merged ones, the same way.

A segment is written from (document, cached profile) pairs in order: the CVs are prepared in
worker processes (prepare.py), streamed into a SegmentWriter, sealed and given their name. A
merge is the same with the live CVs of the segments merged as input and their vectors as the
only cache, so it never embeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.index.dictionary import DictionaryPart, TermIds
from rag.ingest.document import Document
from rag.pipeline.engines.local import Engine
from rag.pipeline.prepare import ChunkSettings, prepare_all
from rag.pipeline.segment_writer import EncoderUse, SegmentWriter
from rag.pipeline.segments import SegmentSource
from rag.pipeline.vectors import VectorCache, Vectors
from rag.store.folder import StoreDir
from rag.store.manifest import SegmentEntry
from rag.store.profiles import ProfileRecord
from rag.store.segment import seal

Item = tuple[Document, ProfileRecord | None]
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
    profiled: int = 0  # profiles read (not taken from a cache)
    embedded: int = 0  # distinct texts embedded
    embedded_chunks: int = 0  # chunks whose vector was embedded rather than reused

    def write(
        self, items: Iterable[Item], count: int, dictionary: Callable[[], DictionaryPart], cache: VectorCache, what: str
    ) -> SegmentSource:
        """A new segment holding these CVs, in order; dictionary() gives the term ids it keeps,
        once all its terms are known."""
        with self.progress(count, what) as advance, self.store.new_segment() as tmp:
            vectors = Vectors(
                cache, self.engine, self.encoder_dir, self.encoder.variant, self.batch_size, lambda n: None
            )
            writer = SegmentWriter(tmp, self.encoder, self.term_ids, vectors)
            for group in prepare_all(items, count, self.chunking, self.workers):
                writer.add(group)
                advance(len(group.items))
            record = writer.finish(dictionary)
            digest = seal(tmp, record)
            name = self.store.adopt_segment(tmp, self.next_number)
        self.next_number += 1
        self.profiled += writer.profiled
        self.embedded += vectors.embedded
        self.embedded_chunks += record.chunks - vectors.reused
        entry = SegmentEntry(name, digest, record.documents, record.candidates, record.chunks, record.approximate)
        return SegmentSource(entry, self.store.segments / name, record)

    def merge(self, sources: list[SegmentSource]) -> SegmentSource:
        """One segment with the live CVs of these, in order."""
        parts = [DictionaryPart.load(s.dictionary_path()) for s in sources]
        count = sum(len(s.live_documents()) for s in sources)
        cache = VectorCache([s.cache(self.encoder.dim) for s in sources])
        return self.write(_live_items(sources), count, lambda: DictionaryPart.join(parts), cache, "merging")


def _live_items(sources: list[SegmentSource]) -> Iterator[Item]:
    """The live documents of the segments with their stored profiles, in order."""
    for source in sources:
        rows = source.live_documents()
        for lo in range(0, len(rows), _READ_BLOCK):
            block = rows[lo : lo + _READ_BLOCK]
            candidates = source.candidate_of(block)
            profiles = source.profiles([int(c) for c in candidates if c >= 0])
            for doc, candidate in zip(source.documents(block), candidates.tolist()):
                yield doc, profiles.get(candidate)


def live_numbers(sources: list[SegmentSource]) -> np.ndarray:
    """(candidates, chunks, BM25 length) of each segment's live part."""
    return np.asarray([s.live_counts() for s in sources], np.int64).reshape(-1, 3)
