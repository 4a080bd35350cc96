"""What extraction makes of a file: its pages of text, its first-page lines, or why it was skipped."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HeadLine:
    """A text line of a CV's first page with its look, for finding the name (names.py).

    Positions are fractions of the page (0 = top/left), so they compare across page sizes.
    """

    text: str
    size: float  # the largest font size on the line, in points
    bold: bool
    top: float
    left: float
    right: float = 1.0


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) under the CV folder left out of the store, with the reason shown to the
    user and kept in the manifest; `kind` groups many alike into one line of the build output."""

    source: str
    reason: str
    kind: str = "other"  # not a CV type, unreadable, corrupt, encrypted, empty, no text, duplicate, too large,
    # timed out, out of memory, crashed, link outside, broken link


@dataclass
class Document:
    """One line of documents.jsonl: what extraction made of one file, reusable while it is unchanged."""

    source: str
    cv_id: str
    size: int
    mtime_ns: int
    extractor: str
    pages: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: str | None = None
    head: list[HeadLine] = field(default_factory=list)  # first-page lines, for the name
    skip_kind: str | None = None  # Skipped.kind, when skipped
    ocr_pages: list[int] = field(default_factory=list)  # 1-based pages whose text came from OCR
    ocr_left_out: list[int] = field(default_factory=list)  # pages that needed OCR beyond an OCR limit
    hidden_pages: list[int] = field(default_factory=list)  # 1-based pages whose hidden text was left out
    file_date: str | None = None  # "YYYY-MM" the file says it was last modified: a clue to the CV's present

    @classmethod
    def from_dict(cls, raw: dict) -> Document:
        return cls(**(raw | {"head": [HeadLine(**h) for h in raw.get("head", ())]}))
