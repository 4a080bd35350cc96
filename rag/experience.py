"""Years of experience of indexed candidates, read as profiles read them (rag.profile): the dated
roles of the CV's experience section, overlaps counted once, "present" meaning the month given.

The store keeps no profile yet, so the text is rebuilt from the candidate's chunks, which are
overlapping slices that cover it; callers ask only for the candidates a decision needs.
"""

from __future__ import annotations

from collections.abc import Iterable

from .chunking import PAGE_SEPARATOR
from .records import Candidate, Chunk
from .store import OpenStore


def cv_pages(candidate: Candidate, chunks: Iterable[Chunk]) -> list[str]:
    """A candidate's text page by page, from their chunks (text the chunker skipped, whitespace
    only, comes back as spaces)."""
    text = ""
    for chunk in sorted(chunks, key=lambda c: c.char_start):
        text = text[: chunk.char_start].ljust(chunk.char_start) + chunk.text
    ends = [start - len(PAGE_SEPARATOR) for start in candidate.page_starts[1:]] + [len(text)]
    return [text[start:end] for start, end in zip(candidate.page_starts, ends)]


def years_of(store: OpenStore, rows: list[int], as_of: str) -> dict[int, int | None]:
    """Whole years of dated roles per candidate row (None: the CV dates no role)."""
    from .profile import experience_months  # profiles load place names: only a JD asking for years pays

    people = store.candidates.get(rows)
    chunks = store.chunks.get([c for row in rows for c in range(int(store.starts[row]), int(store.starts[row + 1]))])
    out: dict[int, int | None] = {}
    for row in rows:
        own = [chunks[c] for c in range(int(store.starts[row]), int(store.starts[row + 1]))]
        months = experience_months(cv_pages(people[row], own), as_of)
        out[row] = None if months is None else months // 12
    return out
