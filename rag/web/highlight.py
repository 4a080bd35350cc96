"""Where an evidence line sits on its page: the text lines of the page that hold it.

Evidence lines are lines of the indexed text (search/evidence.py), clipped with "…" when long.
The indexed text was made from the very lines PyMuPDF reads off the page (ingest/extract.py),
normalised, so a line of evidence, its clip marks taken off, is found inside one page line once
that line is normalised the same way. Pure functions: the page's lines come in as (text, box).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rag.ingest.extract import normalize_text

CLIP_MARK = "…"


@dataclass(frozen=True)
class Highlight:
    """A line to show on a CV page and why: the query concepts or the requirements it holds."""

    text: str
    page: int
    labels: tuple[str, ...]
    chunk_id: int = -1  # the chunk the line was read from, which tells whose file it is in


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Segment:
    """A line of a CV shown as text, and the highlights it holds (none: a plain line)."""

    text: str
    marks: tuple[Highlight, ...] = ()


def core(text: str) -> str:
    """The words of an evidence line, without its clip marks, spaced as normalised text is."""
    return " ".join(normalize_text(text.strip().strip(CLIP_MARK)).split())


def find_lines(lines: Sequence[tuple[str, Rect]], wanted: str) -> list[Rect]:
    """The boxes of the page lines that are the evidence line (every one, if it repeats); failing
    those, of the lines that hold it (a line clipped for display, or cut where a chunk starts)."""
    needle = core(wanted)
    if not needle:
        return []
    spaced = [(" ".join(normalize_text(text).split()), box) for text, box in lines]
    return [box for text, box in spaced if text == needle] or [box for text, box in spaced if needle in text]


def mark_lines(text: str, highlights: Iterable[Highlight]) -> list[Segment]:
    """A page of indexed text as its lines, each with the highlights it is (or, failing any such
    line, holds), for a Word CV or a file that is no longer where it was indexed."""
    lines = text.split("\n")
    marks: list[list[Highlight]] = [[] for _ in lines]
    for h in highlights:
        needle = core(h.text)
        found = [i for i, line in enumerate(lines) if line == needle] or [
            i for i, line in enumerate(lines) if needle and needle in line
        ]
        for i in found:
            marks[i].append(h)
    return [Segment(line, tuple(held)) for line, held in zip(lines, marks)]


def merge(highlights: Iterable[Highlight]) -> list[Highlight]:
    """One highlight per line and page, its labels gathered from every list or requirement that
    named it, in first-seen order."""
    merged: dict[tuple[str, int], tuple[list[str], int]] = {}
    for h in highlights:
        labels, _ = merged.setdefault((h.text, h.page), ([], h.chunk_id))
        labels += [label for label in h.labels if label not in labels]
    return [Highlight(text, page, tuple(labels), chunk) for (text, page), (labels, chunk) in merged.items()]
