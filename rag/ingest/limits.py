"""How much one file, and one build, may cost: the limits on what a build reads.

A CV folder is input from outside (mail attachments, zips, job-board exports), so the limits are
there for the file that is no CV at all: a decompression bomb, a page tree with no end, a picture
of 60,000 pixels a side. Each default sits well above any real CV, and each has an option to raise
it (docs/input.md, "Limits"); a file over a limit is skipped, named, with the limit it met.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from rag.errors import UsageError
from rag.ingest.chunking import DEFAULT_CHUNK_CHARS

MB = 2**20
JD_BYTES = 5 * MB  # a job description file (rag match --jd), or what standard input holds of one


@dataclass(frozen=True)
class Limits:
    """A build's limits. Those per file are checked as the file is read; a worker that goes over
    the time or memory limit is stopped (rag/pipeline/engines/workers.py)."""

    file_bytes: int = 50 * MB  # one file on disk, and a Word file once unpacked
    pages: int = 100  # pages of one PDF, frames of one image
    ocr_pages: int = 10  # pages of one file read by OCR; more are left out, with a warning
    build_ocr_pages: int = 2000  # pages read by OCR in one build
    chunks: int = 2000  # chunks of one CV's text
    seconds: float = 300.0  # to extract one file, OCR included
    memory_bytes: int = 3 * 2**30  # address space a worker may take on top of its own while reading a file

    def validate(self) -> None:
        for name, value in asdict(self).items():
            if not (value >= 0 if "ocr" in name else value > 0):  # OCR limits may be 0: no OCR at all
                raise UsageError(f"the {name.replace('_', ' ')} limit must be positive, got {value}")

    def for_file(self, chunk_chars: int, ocr_pages: int | None = None) -> FileLimits:
        """What extraction checks for one file; ocr_pages is its share of the build's OCR."""
        return FileLimits(
            self.file_bytes, self.pages, self.ocr_pages if ocr_pages is None else ocr_pages, self.chunks * chunk_chars
        )


@dataclass(frozen=True)
class FileLimits:
    """What one extraction may read, checked by the extractors as they read."""

    file_bytes: int = Limits.file_bytes
    pages: int = Limits.pages
    ocr_pages: int = Limits.ocr_pages
    chars: int = Limits.chunks * DEFAULT_CHUNK_CHARS  # more text than the chunk limit's chunks could hold


def size_text(n: int) -> str:
    """Bytes for a message: "50 MB", "1.5 MB", "800 bytes"."""
    return f"{round(n / MB, 1):g} MB" if n >= MB // 10 else f"{n} bytes"
