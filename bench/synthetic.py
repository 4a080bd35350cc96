"""Stores of any size, built by the real build path from real-looking CVs, for measurements at scale.

Only the two stages a build hands its engine are replaced (SyntheticEngine): extraction returns
CVs made of the extracted pages of a real (generated) store, PAGES_FROM generated CVs per
synthetic CV, so that each has about 43 chunks as real CVs do (the generated ones have 3.2);
every 25th word is followed by a word naming the CV ("ref000123"), so each chunk's text is its
own, as in a real corpus, and the vocabulary grows with the corpus as names and e-mail addresses
make it grow. Embedding returns one of the real store's vectors (chosen by a hash of the text)
plus Gaussian noise (two rows of a fixed table, also chosen by the hash), renormalised: real
vectors, perturbed, as the earlier synthetic stores had, the same for the same text in any
build, at a cost of microseconds. Everything else (profiles, chunks, keyword and dense indexes, the
segments and their merges) is the real build's.

CV files are placeholders (cv_000123.pdf); the engine reads the number in the name.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from rag.ingest.discover import CvFile
from rag.ingest.document import Document
from rag.ingest.limits import Limits
from rag.store.open import open_store

PAGES_FROM = 15  # generated CVs per synthetic CV: 43 chunks of 500 characters, as real CVs have
NOISE = 0.05  # per component, as the earlier synthetic stores had
NOISE_ROWS = 1 << 16
MARK_EVERY = 25  # words


def cv_name(number: int) -> str:
    return f"cv_{number:06d}.pdf"


def write_cv_files(folder: Path, first: int, count: int) -> None:
    """Placeholder files for synthetic CVs first .. first+count-1 (their content is never read)."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(first, first + count):
        (folder / cv_name(number)).write_bytes(b"%%PDF-1.4 synthetic %d\n" % number)


class SyntheticEngine:
    """The build's engine seam (rag/pipeline/engines/local.py), fed from a real store; counts the
    seconds spent in it, which a build of real CVs would spend extracting and embedding."""

    def __init__(self, base_store: Path):
        with open_store(base_store) as base:
            self.documents = [d for s in base.segments for d in s.reader.documents(np.arange(s.record.documents))]
            self.documents = [d for d in self.documents if d.pages and not d.skipped]
            self.vectors = base.dense_index().vectors()
        table = np.random.default_rng(0).normal(0, NOISE / np.sqrt(2), (NOISE_ROWS, self.vectors.shape[1]))
        self.noise = table.astype(np.float32)
        self.seconds = 0.0

    def extract(
        self, files: list[CvFile], extractor: str, limits: Limits | None = None, chunk_chars: int = 0
    ) -> Iterator[Document]:
        """As Engine.extract; the limits do not apply (the pages were read under them already)."""
        for f in files:
            started = time.perf_counter()
            doc = self.document(f, extractor)
            self.seconds += time.perf_counter() - started
            yield doc

    def document(self, f: CvFile, extractor: str) -> Document:
        number = int(f.cv_id.rsplit("_", 1)[1])
        parts = [self.documents[(number * PAGES_FROM + i) % len(self.documents)] for i in range(PAGES_FROM)]
        mark = f" ref{number:06d}"
        pages = [
            " ".join(w + mark if (i + 1) % MARK_EVERY == 0 else w for i, w in enumerate(page.split(" ")))
            for part in parts
            for page in part.pages
        ]
        return Document(f.source, f.cv_id, f.size, f.mtime_ns, extractor, pages, head=parts[0].head)

    def embed(
        self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int, advance: Callable[[int], None]
    ) -> np.ndarray:
        started = time.perf_counter()
        hashes = np.asarray([zlib.crc32(t.encode()) for t in texts], np.int64).reshape(-1)
        vectors = (
            self.vectors[hashes % len(self.vectors)]
            + self.noise[hashes % NOISE_ROWS]
            + self.noise[(hashes >> 16) % NOISE_ROWS]
        )
        vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
        advance(len(texts))
        self.seconds += time.perf_counter() - started
        return vectors
