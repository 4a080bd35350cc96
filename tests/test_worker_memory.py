"""A worker's memory cap gives every file the same room, whatever the worker held before it
(issue #45): a worker that grew on earlier files is retired, so a decompression bomb read after
them is still refused as too large, in bounded time, not timed out or killed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_files import compressed_text

import rag.pipeline.engines.isolation as isolation
from rag.ingest.discover import CvFile
from rag.ingest.extract import extractor_id
from rag.ingest.limits import MB, FileLimits
from rag.pipeline.engines.isolation import Given, extract_isolated

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

KEPT: list[bytearray] = []


def cv_file(path: Path, data: bytes) -> CvFile:
    path.write_bytes(data)
    stat = path.stat()
    return CvFile(path.stem, path.name, path, stat.st_size, stat.st_mtime_ns)


def test_a_bomb_read_by_a_worker_that_grew_on_earlier_files_is_still_too_large(tmp_path, monkeypatch):
    real = isolation.extract_document

    def growing(f, extractor, limits):  # the earlier files leave the worker 100 MB larger, for good
        if f.cv_id.startswith("grow"):
            KEPT.extend(bytearray(MB) for _ in range(50))
        return real(f, extractor, limits)

    monkeypatch.setattr(isolation, "extract_document", growing)
    bomb = compressed_text()
    files = [cv_file(tmp_path / f"grow{i}.pdf", bomb[:100]) for i in range(2)] + [cv_file(tmp_path / "bomb.pdf", bomb)]
    limits = FileLimits(file_bytes=2 * MB, chars=40 * 500)
    docs = list(extract_isolated(files, extractor_id(True), Given([limits] * 3), 1, 120.0, 128 * MB))
    assert [d.skip_kind for d in docs[:2]] == ["corrupt", "corrupt"]  # a torn PDF, read quickly
    assert docs[2].skip_kind == "too large", docs[2].skipped
    assert docs[2].skipped.startswith("too large: more than 20,000 characters of text")
