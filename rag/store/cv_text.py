"""A CV's text, page by page, as the store indexed it: stitched back from its chunks.

Chunks are overlapping windows over the CV's text (pages joined by chunking.PAGE_SEPARATOR) and
record where they start and end, so their union is the text from the first non-blank character
on. Reading them through the chunk offsets touches only this CV's lines, which a scan of
documents.jsonl (every CV's text, no index) would not.
"""

from __future__ import annotations

from dataclasses import dataclass

from rag.ingest.chunking import PAGE_SEPARATOR
from rag.store.open import OpenStore
from rag.store.rows import Candidate


@dataclass(frozen=True)
class CvText:
    candidate: Candidate
    pages: list[str]  # page 1 first


def read_cv(store: OpenStore, row: int) -> CvText:
    """The candidate on row `row` of candidates.jsonl and the text of each of its pages."""
    candidate = store.candidates.get([row])[row]
    ids = range(candidate.first_chunk, candidate.first_chunk + candidate.chunk_count)
    found = store.chunks.get(ids)
    chunks = [found[i] for i in ids]
    first = chunks[0].char_start  # the chunker skips the text's leading blanks
    parts, covered = [], first
    for chunk in chunks:
        parts.append(chunk.text[max(covered - chunk.char_start, 0) :])
        covered = max(covered, chunk.char_end)
    known = "".join(parts)
    ends = [start - len(PAGE_SEPARATOR) for start in candidate.page_starts[1:]] + [first + len(known)]
    pages = [known[max(a - first, 0) : max(b - first, 0)] for a, b in zip(candidate.page_starts, ends)]
    return CvText(candidate, pages)
