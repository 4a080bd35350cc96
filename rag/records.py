"""Records that travel between the build steps, the store and search."""

from __future__ import annotations

from dataclasses import asdict, dataclass


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
class Skipped:
    """A PDF left out of the store, with the reason shown to the user and kept in the manifest."""

    source: str
    reason: str
