"""The rows of a store: chunks (one per vector and BM25 document) and candidates (one per indexed CV).

In a segment's files a chunk_id or a first_chunk counts from the segment's first chunk; a store
read through OpenStore numbers them store-wide, live rows only (live.py)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from rag.ingest.chunking import page_at
from rag.lexicon.seniority import LEVELS
from rag.profile.people import Contact
from rag.store.layout import CANDIDATE_INDEX, CANDIDATES
from rag.store.tables import pack_strings, unpack_strings, write_jsonl


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
    seniority: str | None  # a level of rag.lexicon.seniority: the title's, else the years' (the profile's)
    first_chunk: int
    chunk_count: int
    page_starts: list[int]  # where each page starts in the CV's text (chunk char offsets count from 0)
    quiet: list[list[int]] = field(default_factory=list)  # [start, end) ranges never quoted as evidence

    def is_quiet(self, start: int, end: int) -> bool:
        """Whether the CV's text from start to end touches a line never quoted (profile/quiet.py)."""
        i = bisect_right(self.quiet, [start, float("inf")]) - 1
        return any(a < end and start < b for a, b in self.quiet[max(i, 0) : i + 2])

    def to_dict(self) -> dict:
        return asdict(self)

    def page_at(self, offset: int) -> int:
        """1-based page holding the character at offset of the CV's text."""
        return page_at(offset, self.page_starts)


def write_candidates(folder: Path, candidates: list[Candidate], documents: list[int], contacts: list[Contact]) -> None:
    """candidates.jsonl and the arrays search reads for every candidate at once; documents: the
    row in documents.jsonl each candidate was read from; contacts: what tells whose CV it is, from
    which a build finds the CVs of one person store-wide (profile/people.py)."""
    offsets = write_jsonl(folder / CANDIDATES, (c.to_dict() for c in candidates))
    starts = np.asarray([c.first_chunk for c in candidates] + [sum(c.chunk_count for c in candidates)], np.int64)
    seniority = np.asarray([LEVELS.index(c.seniority) if c.seniority else -1 for c in candidates], np.int8)
    packed = {
        f"{what}.{k}": v
        for what in ("email", "phone", "name")
        for k, v in pack_strings([getattr(c, what) or "" for c in contacts]).items()
    }
    with (folder / CANDIDATE_INDEX).open("wb") as f:
        np.savez(
            f, offsets=offsets, starts=starts, seniority=seniority, document=np.asarray(documents, np.int64), **packed
        )


def read_contacts(table: dict[str, np.ndarray]) -> list[Contact]:
    """The contacts write_candidates kept, from the arrays of a candidates.index.npz."""
    email, phone, name = (
        unpack_strings(table[f"{what}.blob"], table[f"{what}.offsets"]) for what in ("email", "phone", "name")
    )
    return [Contact(e or None, p or None, n or None) for e, p, n in zip(email, phone, name)]
