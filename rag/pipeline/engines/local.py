"""Where the two heavy stages of a build run: extracting files and embedding chunk texts.

A build hands its engine the files that need extracting and the chunk texts that need embedding,
and gets documents and vectors back in the same order. Everything else (chunking, BM25, FAISS,
the manifest, the commit) runs in the calling process whatever the engine, so the store a build
writes does not depend on where these two stages ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import numpy as np

from rag.ingest.discover import CvFile
from rag.ingest.document import Document
from rag.ingest.limits import Limits
from rag.pipeline.engines.isolation import FilePlan, OcrShares, extract_isolated


class Engine(Protocol):
    def extract(self, files: list[CvFile], extractor: str, limits: Limits, chunk_chars: int) -> Iterator[Document]:
        """One Document per file, in the order given, each read under the limits (its text up to
        what limits.chunks chunks of chunk_chars hold)."""

    def embed(
        self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int, advance: Callable[[int], None]
    ) -> np.ndarray:
        """Passage vectors (float32, one row per text, in order); advance(n) after every n texts."""


class LocalEngine:
    """This machine: worker processes for extraction, ONNX Runtime on every core for embedding."""

    def extract(self, files: list[CvFile], extractor: str, limits: Limits, chunk_chars: int) -> Iterator[Document]:
        from rag.index.encoder import available_cores

        # Each file is read in a worker process that may die (isolation.py); more workers only
        # when there is enough work to repay starting them.
        cores = available_cores()
        workers = max(1, min(cores, len(files) // 8))
        plan = FilePlan(limits.for_file(chunk_chars), OcrShares(limits.ocr_pages, limits.build_ocr_pages))
        yield from extract_isolated(files, extractor, plan, workers, limits.seconds, limits.memory_bytes, cores)

    def embed(
        self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int, advance: Callable[[int], None]
    ) -> np.ndarray:
        from rag.index.encoder import load_encoder

        return load_encoder(encoder_dir, variant).embed_passages(texts, batch_size, advance)
