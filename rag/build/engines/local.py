"""Where the two heavy stages of a build run: extracting files and embedding chunk texts.

A build hands its engine the files that need extracting and the chunk texts that need embedding,
and gets documents and vectors back in the same order. Everything else (chunking, BM25, FAISS,
the manifest, the commit) runs in the calling process whatever the engine, so the store a build
writes does not depend on where these two stages ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Protocol

import numpy as np

from rag.ingest.discover import CvFile
from rag.ingest.document import Document


class Engine(Protocol):
    def extract(self, files: list[CvFile], extractor: str) -> Iterator[Document]:
        """One Document per file, in the order given."""

    def embed(self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int,
              advance: Callable[[int], None]) -> np.ndarray:
        """Passage vectors (float32, one row per text, in order); advance(n) after every n texts."""


def extract_document(f: CvFile, extractor: str) -> Document:
    """What extraction makes of one file: its pages and head lines, or the reason it has none.

    `extractor` (rag.extract.extractor_id) says whether pages without usable text go to OCR.
    """
    from rag.ingest.extract import ExtractionFailed, extract_image, extract_pdf, ocr_enabled
    from rag.ingest.word import extract_docx

    doc = Document(f.source, f.cv_id, f.size, f.mtime_ns, extractor)
    ocr = ocr_enabled(extractor)
    try:
        if f.kind == "docx":
            extracted = extract_docx(f.path)
        elif f.kind == "image":
            extracted = extract_image(f.path, ocr)
        else:
            extracted = extract_pdf(f.path, ocr)
    except ExtractionFailed as exc:
        doc.skipped, doc.skip_kind = str(exc), exc.kind
    else:
        doc.pages, doc.warnings, doc.head = extracted.pages, extracted.warnings, extracted.head
        doc.ocr_pages, doc.hidden_pages, doc.file_date = extracted.ocr_pages, extracted.hidden_pages, extracted.file_date
    return doc


class LocalEngine:
    """This machine: worker processes for extraction, ONNX Runtime on every core for embedding."""

    def extract(self, files: list[CvFile], extractor: str) -> Iterator[Document]:
        from rag.index.encoder import available_cores

        # Worker processes only when there is enough work to repay starting them.
        workers = min(available_cores(), len(files) // 8)
        if workers < 2:
            yield from (extract_document(f, extractor) for f in files)
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            yield from pool.map(partial(extract_document, extractor=extractor), files, chunksize=4)

    def embed(self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int,
              advance: Callable[[int], None]) -> np.ndarray:
        from rag.index.encoder import load_encoder

        return load_encoder(encoder_dir, variant).embed_passages(texts, batch_size, advance)
