"""What runs inside the Ray cluster: the two Ray Data stages and the coordinator that drives them.

Ray Data cannot execute a Dataset through Ray Client (`ray://` addresses fail inside its
executor), so the calling process never runs one itself: it hands each window of work to a
coordinator actor on the cluster, which runs the pipeline there and passes the results back in
parts. The workers may share no file system with the caller, so PDFs travel as bytes and the
ONNX encoder as the files of its folder. Each file is read as a local build reads it: by a worker
process under the file's limits (rag/pipeline/engines/isolation.py), skipped with its reason when it
fails, never failing the stage.
"""

from __future__ import annotations

import hashlib
import pickle
import queue
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

# Ray retries a unit of work whose worker process died (killed, out of memory, node lost); a
# Python exception is a bug or bad input and is not retried. Ray Data's own defaults retry
# forever, which turns a worker that dies on every attempt into a build that never ends.
TASK_RETRIES = 2
ACTOR_RESTARTS = 2
PARTS_IN_FLIGHT = 8  # result parts the coordinator holds before Ray Data waits for the caller


@dataclass(frozen=True)
class Stage:
    """One Ray Data map_batches stage: a function (run as tasks) or a class (one actor per worker)."""

    udf: Any
    workers: int
    rows_per_call: int
    kwargs: dict = field(default_factory=dict)  # the function's keyword arguments, or the class's

    @property
    def stateful(self) -> bool:
        return isinstance(self.udf, type)


def extract_files(batch: dict[str, np.ndarray], extractor: str, seconds: float, memory_bytes: int) -> dict[str, list]:
    """Extract a batch of files sent as bytes with their limits: each is written to a temporary
    file of the same suffix and read by a worker process under the limits, one file at a time."""
    from rag.pipeline.engines.isolation import Given, extract_isolated

    jobs = [pickle.loads(raw) for raw in batch["job"]]  # (CvFile, FileLimits)
    with tempfile.TemporaryDirectory(prefix="rag-extract-") as tmp:
        files = []
        for number, ((f, _), data) in enumerate(zip(jobs, batch["data"])):
            path = Path(tmp) / f"input-{number}{Path(f.source).suffix}"
            path.write_bytes(data)
            files.append(replace(f, path=path))
        docs = list(extract_isolated(files, extractor, Given([limits for _, limits in jobs]), 1, seconds, memory_bytes))
    return {"slot": batch["slot"], "doc": [pickle.dumps(doc, protocol=5) for doc in docs]}


class Embedder:
    """One encoder per worker, loaded once from the files the caller sent; ONNX Runtime on one core."""

    def __init__(self, files, variant: str, batch_size: int, threads: int):
        import ray

        from rag.index.encoder import load_encoder

        contents: dict[str, bytes] = ray.get(files)
        # The encoder opens its sessions when first used and maps the weights file from the folder:
        # the copy lives as long as this worker (removed when the actor ends).
        self._folder = tempfile.TemporaryDirectory(prefix="rag-encoder-")
        for name, data in contents.items():
            (Path(self._folder.name) / name).write_bytes(data)
        self.encoder = load_encoder(Path(self._folder.name), variant, threads=threads)
        self.batch_size = batch_size

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        texts = [str(t) for t in batch["text"]]
        vectors = self.encoder.embed_passages(texts, self.batch_size, by_tokens=True)
        return {"row": batch["row"], "vector": vectors}


def code_digest() -> str:
    """A digest of this package's source, to tell whether the cluster runs the same code as the caller."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class Coordinator:
    """Runs one stage at a time as a Ray Data pipeline on the cluster and queues its output in parts.

    Started as a threaded actor: `run` executes the pipeline while the caller collects parts with
    `next_part` (None once the run has ended; the run's own result then says whether it failed).
    """

    def __init__(self) -> None:
        self._parts: queue.Queue = queue.Queue(maxsize=PARTS_IN_FLIGHT)

    def code_digest(self) -> str:
        return code_digest()

    def run(self, stage: Stage, rows: list[dict]) -> None:
        import ray.data

        try:
            context = ray.data.DataContext.get_current()
            context.enable_progress_bars = False
            blocks = max(1, -(-len(rows) // stage.rows_per_call))
            ds = ray.data.from_items(rows, override_num_blocks=blocks)
            if stage.stateful:
                ds = ds.map_batches(
                    stage.udf,
                    batch_size=stage.rows_per_call,
                    num_cpus=1,
                    compute=ray.data.ActorPoolStrategy(size=stage.workers),
                    fn_constructor_kwargs=stage.kwargs,
                    max_restarts=ACTOR_RESTARTS,
                    max_task_retries=TASK_RETRIES,
                )
            else:
                ds = ds.map_batches(
                    stage.udf,
                    batch_size=stage.rows_per_call,
                    num_cpus=1,
                    compute=ray.data.TaskPoolStrategy(size=stage.workers),
                    fn_kwargs=stage.kwargs,
                    max_retries=TASK_RETRIES,
                )
            for part in ds.iter_batches(batch_size=None, batch_format="numpy"):
                self._parts.put(part)
        finally:
            self._parts.put(None)

    def next_part(self) -> dict | None:
        return self._parts.get()
