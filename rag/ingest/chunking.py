"""Overlapping character windows that prefer to end and start between words.

A window that would cut a word moves its end back to the nearest whitespace inside its last ~10%,
and the next window starts at a word boundary inside the overlap when there is one. Both moves are
bounded so that consecutive chunks always overlap and every window makes progress.
"""

from __future__ import annotations

from bisect import bisect_right

from rag.errors import UserError

DEFAULT_CHUNK_CHARS = 500
DEFAULT_OVERLAP_CHARS = 50


def validate_chunking(chunk_chars: int, overlap_chars: int) -> None:
    if chunk_chars <= 0:
        raise UserError(f"chunk size must be positive, got --chunk-chars {chunk_chars}")
    if overlap_chars <= 0:
        raise UserError(f"overlap must be positive, got --overlap-chars {overlap_chars}")
    if overlap_chars >= chunk_chars:
        raise UserError(f"overlap ({overlap_chars}) must be smaller than the chunk size ({chunk_chars})")


def _cuts_word(text: str, i: int) -> bool:
    """True when position i lies inside a word (non-space on both sides)."""
    return 0 < i < len(text) and not text[i - 1].isspace() and not text[i].isspace()


def chunk_spans(
    text: str,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
    overlap_chars: int = DEFAULT_OVERLAP_CHARS,
) -> list[tuple[int, int]]:
    """Half-open [start, end) spans covering text; none longer than chunk_chars."""
    validate_chunking(chunk_chars, overlap_chars)
    n = len(text)
    spans: list[tuple[int, int]] = []
    snap = max(1, chunk_chars // 10)
    start = _skip_space(text, 0, n)
    while start < n:
        end = min(start + chunk_chars, n)
        if _cuts_word(text, end):
            # Never snap so far back that the next start would not move past this one.
            lowest = max(end - snap, start + overlap_chars + 1)
            space = _last_space(text, lowest, end)
            if space is not None:
                end = space
        spans.append((start, end))
        if end >= n:
            break
        start = _next_start(text, end - overlap_chars, end)
    return spans


def _next_start(text: str, start: int, end: int) -> int:
    """Move a start forward to a word start, staying strictly before end so chunks still overlap."""
    i = start
    if _cuts_word(text, i):
        while i < end and not text[i].isspace():
            i += 1
    i = _skip_space(text, i, end)
    return i if i < end else start


def _skip_space(text: str, i: int, limit: int) -> int:
    while i < limit and text[i].isspace():
        i += 1
    return i


def _last_space(text: str, lo: int, hi: int) -> int | None:
    for i in range(hi - 1, lo - 1, -1):
        if text[i].isspace():
            return i
    return None


PAGE_SEPARATOR = "\n\n"


def document_text(pages: list[str]) -> tuple[str, list[int]]:
    """One text for a document, and the offset where each page starts in it."""
    starts: list[int] = []
    offset = 0
    for page in pages:
        starts.append(offset)
        offset += len(page) + len(PAGE_SEPARATOR)
    return PAGE_SEPARATOR.join(pages), starts


def page_at(offset: int, page_starts: list[int]) -> int:
    """1-based page number holding the character at offset."""
    return bisect_right(page_starts, offset)
