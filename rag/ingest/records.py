"""Records that travel between the build steps, the store and search."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


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
class Chunk:
    """One line of chunks.jsonl; chunk_id is its row in the FAISS index and the BM25 corpus."""

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
        from rag.ingest.chunking import page_at

        return page_at(offset, self.page_starts)


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) under the CV folder left out of the store, with the reason shown to the
    user and kept in the manifest; `kind` groups many alike into one line of the build output."""

    source: str
    reason: str
    kind: str = "other"  # not a CV type, unreadable, corrupt, encrypted, empty, no text, duplicate


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

    @classmethod
    def from_dict(cls, raw: dict) -> Document:
        return cls(**(raw | {"head": [HeadLine(**h) for h in raw.get("head", ())]}))
