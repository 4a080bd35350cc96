"""What a build makes of each extracted CV before anything is embedded or stored: its profile, who
it is, its chunks, their terms and the skills each states. Pure and per CV, so it runs in worker
processes, a group of CVs per task (one vocabulary per group keeps term-id lookups in the parent few).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

import numpy as np

from rag.index.mentions import chunk_mentions
from rag.index.tokens import TokenBatch, tokenise
from rag.ingest.chunking import chunk_spans, document_text, page_at
from rag.ingest.document import Document
from rag.pipeline.profiling import known_bits, profile_key
from rag.profile.names import identify
from rag.profile.quiet import quiet_ranges
from rag.profile.read import Profile, build_profile
from rag.store.profiles import ProfileRecord
from rag.store.rows import Candidate, Chunk
from rag.store.writer import SegmentRows

GROUP = 64  # CVs per task
_POOL_FROM = 2 * GROUP  # fewer CVs than this are prepared in the calling process


@dataclass
class Prepared:
    """One CV ready to be written (the store's rows), and whether its profile was read now."""

    rows: SegmentRows
    profiled: bool  # read now rather than taken from the cache


@dataclass
class PreparedGroup:
    items: list[Prepared]
    tokens: TokenBatch  # the terms of every chunk of the group, in order


@dataclass(frozen=True)
class ChunkSettings:
    as_of: str
    chunk_chars: int
    overlap_chars: int


def prepare(doc: Document, cached: ProfileRecord | None, settings: ChunkSettings) -> Prepared:
    """A CV's profile (cached when its key matches), identity, candidate row and chunks."""
    if doc.skipped:
        return Prepared(SegmentRows(doc), False)
    text, page_starts = document_text(doc.pages)
    spans = chunk_spans(text, settings.chunk_chars, settings.overlap_chars)
    if not spans:
        return Prepared(SegmentRows(doc), False)
    key = profile_key(doc, settings.as_of)
    profiled = cached is None or cached.key != key
    if profiled:
        profile = build_profile(doc.pages, settings.as_of, doc.head, doc.file_date)
        record = ProfileRecord(doc.cv_id, key, profile.to_dict())
    else:
        record, profile = cached, Profile.from_dict(cached.profile)
    who = identify(doc.head, doc.source)
    # the seniority is the profile's (its current title, else its years: read.py)
    candidate = Candidate(
        doc.cv_id,
        doc.source,
        who.name,
        who.name_source,
        who.headline,
        profile.seniority,
        0,
        len(spans),
        page_starts,
        [list(r) for r in quiet_ranges(doc.pages)],
    )
    chunks = [
        Chunk(i, doc.cv_id, i, page_at(start, page_starts), start, end, doc.source, text[start:end])
        for i, (start, end) in enumerate(spans)
    ]
    return Prepared(SegmentRows(doc, candidate, profile, record, known_bits(profile), chunks), profiled)


def prepare_group(items: list[tuple[Document, ProfileRecord | None]], settings: ChunkSettings) -> PreparedGroup:
    """The CVs prepared, with the terms of all their chunks, and the skills each chunk states
    (read once here, so that rag match looks them up: index/mentions.py)."""
    prepared = [prepare(doc, cached, settings) for doc, cached in items]
    tokens = tokenise([c.text for p in prepared for c in p.rows.chunks])
    bounds = np.concatenate([[0], np.cumsum(tokens.term_counts)]).tolist()
    at = 0
    for p in prepared:
        chunks = p.rows.chunks
        p.rows.mentions = [
            chunk_mentions(
                c.text,
                {tokens.vocab[t] for t in tokens.terms[bounds[at + i] : bounds[at + i + 1]].tolist()},
                c.chunk_index > 0,
                i + 1 < len(chunks),
            )
            for i, c in enumerate(chunks)
        ]
        at += len(chunks)
    return PreparedGroup(prepared, tokens)


def prepare_all(
    items: Iterable[tuple[Document, ProfileRecord | None]], count: int, settings: ChunkSettings, workers: int
) -> Iterator[PreparedGroup]:
    """Groups of prepared CVs, in input order; worker processes when there are enough CVs. At
    most two groups per worker are in flight, so the CVs are read no faster than they are used."""
    source = iter(items)
    groups = iter(lambda: list(islice(source, GROUP)), [])
    if workers < 2 or count < _POOL_FROM:
        yield from (prepare_group(group, settings) for group in groups)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        in_flight: deque = deque()
        for group in groups:
            in_flight.append(pool.apply_async(prepare_group, (group, settings)))
            if len(in_flight) >= 2 * workers:
                yield in_flight.popleft().get()
        while in_flight:
            yield in_flight.popleft().get()
