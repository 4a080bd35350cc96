"""The Ray engine: extraction and embedding as Ray Data stages on a cluster, results in input order.

Only the work a build hands its engine goes to the cluster (changed PDFs, unseen chunk texts);
chunking, BM25, FAISS and the commit stay in the calling process, so the store is the same as a
local build's. Work travels in windows of bounded size, so neither the cluster nor the caller
holds a whole corpus in flight; results carry their input position and are put back in order.
"""

from __future__ import annotations

import contextlib
import io
import pickle
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from rag.errors import Fix, UserError
from rag.index.encoder import GRAPHS, MODEL_FILES
from rag.ingest.discover import CvFile
from rag.ingest.document import Document
from rag.ingest.extract import ExtractionFailed, read_bytes
from rag.ingest.limits import Limits
from rag.pipeline.engines.isolation import OcrShares, skipped_document
from rag.pipeline.engines.ray.cluster import RayConnection, RaySettings, one_line
from rag.pipeline.engines.ray.stages import Coordinator, Embedder, Stage, code_digest, extract_files

# Input per Ray Data execution: each one costs a second or two of set-up (an embedding execution
# starts its workers and loads the encoder), so windows are large, but bounded.
FILE_WINDOW_BYTES = 256 * 2**20  # PDF bytes
TEXT_WINDOW_BYTES = 64 * 2**20  # chunk text (UTF-8); ~130,000 chunks of 500 characters
FILES_PER_CALL = 8
TEXTS_PER_CALL = 256
THREADS_PER_WORKER = 1  # each worker takes one CPU; more workers rather than more threads
_COLOURS = re.compile(r"\x1b\[[0-9;]*m")


class RayEngine:
    """Connects on first use, so a build with nothing to extract or embed never touches the cluster.

    Use as a context manager: leaving it shuts down a local instance it started.
    """

    def __init__(self, settings: RaySettings, embedder: type = Embedder):
        self.settings = settings
        self.embedder = embedder  # tests substitute a worker that dies
        self._connection: RayConnection | None = None
        self._coordinator = None
        self._ray_output = io.StringIO()
        self._redirect = contextlib.redirect_stdout(self._ray_output)

    def __enter__(self) -> RayEngine:
        # A process that runs Ray itself prints the job's worker failures and retries on stdout,
        # where a build's result (--json) goes; they are kept aside and summed up instead.
        self._redirect.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.close()
        finally:
            self._redirect.__exit__(*exc)

    @property
    def ray_messages(self) -> list[str]:
        """What Ray printed while the engine ran: worker deaths and the retries that followed."""
        text = _COLOURS.sub("", self._ray_output.getvalue())
        return [line.strip() for line in text.splitlines() if line.strip()]

    def close(self) -> None:
        if self._coordinator is not None:
            # Cleaning up after a failure must not hide it behind another (a lost connection).
            with contextlib.suppress(Exception):
                self._connection.ray.kill(self._coordinator)
            self._coordinator = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    @property
    def description(self) -> str:
        """Where the work ran, for the build summary; empty before anything was sent."""
        if self._connection is None:
            return ""
        c = self._connection
        return f"{c.where}, {c.workers} workers ({c.cpus} CPUs)"

    def extract(self, files: list[CvFile], extractor: str, limits: Limits, chunk_chars: int) -> Iterator[Document]:
        """Files travel in windows with their limits fixed before they leave: a window's OCR shares
        are reserved as if each file used all of its own (OcrShares.reserve), so they do not
        depend on which worker finished first."""
        if not files:
            return
        stage = Stage(
            extract_files,
            self._connect().workers,
            FILES_PER_CALL,
            {"extractor": extractor, "seconds": limits.seconds, "memory_bytes": limits.memory_bytes},
        )
        base, shares, start = limits.for_file(chunk_chars), OcrShares(limits.ocr_pages, limits.build_ocr_pages), 0
        for window in _windows(files, lambda f: f.size, FILE_WINDOW_BYTES):
            docs: list[Document | None] = [None] * len(window)
            rows = []
            for slot, f in enumerate(window):
                try:
                    data = read_bytes(f.path, base.file_bytes)
                except ExtractionFailed as exc:  # gone, grown past the limit or emptied since it was found
                    docs[slot] = skipped_document(f, extractor, exc.kind, str(exc))
                    continue
                job = (f, replace(base, ocr_pages=shares.reserve(start + slot)))
                rows.append({"slot": slot, "job": pickle.dumps(job, protocol=5), "data": data})
            for part in self._run(stage, rows) if rows else ():
                for slot, raw in zip(part["slot"], part["doc"]):
                    docs[int(slot)] = pickle.loads(raw)
            _check_complete(sum(d is not None for d in docs), len(window))
            for row in rows:
                shares.finish(start + row["slot"], len(docs[row["slot"]].ocr_pages))
            start += len(window)
            yield from docs

    def embed(
        self, texts: list[str], encoder_dir: Path, variant: str, batch_size: int, advance: Callable[[int], None]
    ) -> np.ndarray:
        from rag.index.encoder import EncoderSpec

        out = np.zeros((len(texts), EncoderSpec.load(encoder_dir).dim), dtype=np.float32)
        if not texts:
            return out
        files = self._connect().ray.put(_encoder_files(encoder_dir, variant))
        stage = Stage(
            self.embedder,
            self._connection.workers,
            TEXTS_PER_CALL,
            {"files": files, "variant": variant, "batch_size": batch_size, "threads": THREADS_PER_WORKER},
        )
        # Longest first, so a call's texts are alike in length and the slowest calls start early.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for window in _windows(order, lambda i: len(texts[i].encode()), TEXT_WINDOW_BYTES):
            done = np.zeros(len(texts), dtype=bool)
            for part in self._run(stage, [{"row": i, "text": texts[i]} for i in window]):
                out[part["row"]] = part["vector"]
                done[part["row"]] = True
                advance(len(part["row"]))
            _check_complete(int(done.sum()), len(window))
        return out

    def _connect(self) -> RayConnection:
        if self._connection is None:
            self._connection = RayConnection(self.settings)
            ray = self._connection.ray
            try:
                self._coordinator = ray.remote(num_cpus=0, max_concurrency=2)(Coordinator).remote()
                theirs = ray.get(self._coordinator.code_digest.remote())
            except ray.exceptions.RayError as exc:
                self.close()
                raise UserError(f"the Ray cluster cannot run the build: {one_line(exc)}") from None
            if theirs != code_digest():
                where = self._connection.where
                self.close()
                raise UserError(
                    f"the Ray cluster at {where} runs other rag code than this checkout "
                    f"({theirs} there, {code_digest()} here); restart it from an image built "
                    "from this checkout ({fix})",
                    Fix("ray-up"),
                )
        return self._connection

    def _run(self, stage: Stage, rows: list[dict]) -> Iterator[dict]:
        """The stage's output parts as the coordinator produces them; a failure is one UserError."""
        ray = self._connection.ray
        try:
            done = self._coordinator.run.remote(stage, rows)
            while (part := ray.get(self._coordinator.next_part.remote())) is not None:
                yield part
            ray.get(done)
        except ray.exceptions.RayError as exc:
            raise UserError(f"the Ray build failed: {_cause(exc)}; the existing store is unchanged") from None


def _check_complete(received: int, sent: int) -> None:
    if received != sent:
        raise UserError(
            f"the Ray build failed: results for {received} of {sent} inputs came back; the existing store is unchanged"
        )


def _cause(exc: BaseException) -> str:
    """The innermost error Ray wrapped (a task error inside a Ray Data error inside an actor error)."""
    while getattr(exc, "cause", None) is not None and exc.cause is not exc:
        exc = exc.cause
    return f"{type(exc).__name__}: {one_line(exc)}"


def _windows(items: list, size: Callable[[object], int], limit: int) -> Iterator[list]:
    """Consecutive runs of items whose sizes add up to at most limit (at least one item each)."""
    window: list = []
    total = 0
    for item in items:
        if window and total + size(item) > limit:
            yield window
            window, total = [], 0
        window.append(item)
        total += size(item)
    if window:
        yield window


def _encoder_files(folder: Path, variant: str) -> dict[str, bytes]:
    """The encoder folder's files a worker needs: everything but the other variants' weights."""
    others = {name for v, name in MODEL_FILES.items() if v != GRAPHS[variant]}  # bf16 runs fp32's graph
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and p.name not in others}
