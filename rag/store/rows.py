"""The rows of a store: chunks (one per vector and BM25 document) and candidates (one per indexed CV).

In a segment's files a chunk_id or a first_chunk counts from the segment's first chunk; a store
read through OpenStore numbers them store-wide, live rows only (live.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from rag.ingest.chunking import page_at
from rag.lexicon.seniority import LEVELS
from rag.store.manifest import CANDIDATE_INDEX, CANDIDATES
from rag.store.tables import write_jsonl


@dataclass(frozen=True)
class Chunk:
    """One line of chunks.jsonl; chunk_id is its row in the dense index and the BM25 corpus."""

    chunk_id: int
    cv_id: str
    chunk_index: int
    page: int
    char_start: int
    char_end: int
    source: str
    text: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Candidate:
    """One line of candidates.jsonl: an indexed CV, whose it is, and which chunks are theirs."""

    cv_id: str
    source: str  # path relative to the CV folder
    name: str
    name_source: str  # "cv": read from its first page; "file name": nothing there looked like a name
    headline: str | None  # the line under the name: title, often location
    seniority: str | None  # junior | mid | senior | lead, of the current title (rag.seniority)
    first_chunk: int
    chunk_count: int
    page_starts: list[int]  # where each page starts in the CV's text (chunk char offsets count from 0)

    def to_dict(self) -> dict:
        return asdict(self)

    def page_at(self, offset: int) -> int:
        """1-based page holding the character at offset of the CV's text."""
        return page_at(offset, self.page_starts)


def write_candidates(folder: Path, candidates: list[Candidate], documents: list[int]) -> None:
    """candidates.jsonl and the arrays search reads for every candidate at once; documents: the
    row in documents.jsonl each candidate was read from."""
    offsets = write_jsonl(folder / CANDIDATES, (c.to_dict() for c in candidates))
    starts = np.asarray([c.first_chunk for c in candidates] + [sum(c.chunk_count for c in candidates)], np.int64)
    seniority = np.asarray([LEVELS.index(c.seniority) if c.seniority else -1 for c in candidates], np.int8)
    with (folder / CANDIDATE_INDEX).open("wb") as f:
        np.savez(f, offsets=offsets, starts=starts, seniority=seniority, document=np.asarray(documents, np.int64))
