"""Sentence embeddings through ONNX Runtime and the tokenizers library: no torch at search time.

The ONNX graph is the model's transformer exported once per model (export.py); tokenisation,
pooling and normalisation follow what the sentence-transformers model declares, so the vectors
match sentence-transformers' own (checked at export, and by the tests).

An export saves the graph as ONNX Runtime optimised it, with its weights in a file of their own
beside it: a session maps the weights instead of parsing them and optimises nothing, so loading
takes milliseconds. Queries go through a session that also skips prepacking the weights (packing
every weight matrix costs more than one short query's arithmetic); passages through one that
prepacks them, which is faster over many batches.

The arithmetic (docs/performance.md, "Arithmetic"): fp32 and int8 run through ONNX Runtime; bf16
runs the same fp32 graph through OpenVINO, which computes in bf16 on CPUs that have it in hardware
(AMX, AVX-512 BF16). A bf16 store's queries are embedded in fp32 (a query is one short run, and
its vector then depends on nothing but the text): they pass the quality gate against its passages.
"""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

SPEC_FILE = "encoder.json"
MODEL_FILES = {"fp32": "model.onnx", "int8": "model.int8.onnx"}
WEIGHTS_SUFFIX = ".data"  # the weights of MODEL_FILES[v] are in MODEL_FILES[v] + WEIGHTS_SUFFIX
# The arithmetic a store's passages are embedded with -> the graph its queries run (MODEL_FILES'
# key). "cuda" is bf16 on a CUDA GPU through PyTorch (rag index --device cuda).
GRAPHS = {"fp32": "fp32", "bf16": "fp32", "int8": "int8", "cuda": "fp32"}
ARITHMETICS = tuple(GRAPHS)


def variant_files(variant: str) -> tuple[str, str]:
    """An arithmetic's graph and the weights file beside it (an export older than the split holds
    the graph alone, weights inside)."""
    graph = MODEL_FILES[GRAPHS[variant]]
    return graph, graph + WEIGHTS_SUFFIX


@dataclass(frozen=True)
class EncoderSpec:
    model: str
    revision: str
    pooling: str  # mean | cls | max | mean_sqrt_len_tokens | lasttoken
    normalize: bool
    max_seq_length: int
    dim: int
    inputs: list[str]
    pad_id: int
    query_prefix: str
    passage_prefix: str
    optimized: bool = False  # the graphs were saved as ONNX Runtime optimised them: load them as they are

    @classmethod
    def load(cls, folder: Path) -> EncoderSpec:
        data = orjson.loads((folder / SPEC_FILE).read_bytes())
        fields = cls.__dataclass_fields__
        return cls(**{k: data[k] for k in fields if k in data or fields[k].default is dataclasses.MISSING})


@dataclass(frozen=True)
class EncoderBackend:
    """An encoder that is not an ONNX export of a sentence-transformers model, registered by the
    code that wants one (the tests register a fast fake), so that no model name means anything
    special to the pipeline itself."""

    name: str  # encoder.json's "backend"
    serves: Callable[[str], bool]  # the model names it answers to
    spec: Callable[[str], dict]  # encoder.json for such a model (no other file is exported)
    make: Callable[[EncoderSpec], object]  # the encoder an export folder of this backend describes


BACKENDS: list[EncoderBackend] = []


def register_backend(backend: EncoderBackend) -> None:
    if all(b.name != backend.name for b in BACKENDS):
        BACKENDS.append(backend)


def backend_for(model: str) -> EncoderBackend | None:
    """The registered backend serving this model name, if any."""
    return next((b for b in BACKENDS if b.serves(model)), None)


def load_encoder(folder: Path, variant: str = "fp32", threads: int | None = None):
    """The encoder an export folder describes: ONNX Runtime, or a registered backend."""
    from rag.errors import DamagedFile, short_reason

    try:
        backend = orjson.loads((folder / SPEC_FILE).read_bytes()).get("backend", "onnx")
        if backend != "onnx":
            registered = next((b for b in BACKENDS if b.name == backend), None)
            if registered is None:
                raise ValueError(f"its backend {backend!r} is not registered in this process")
            return registered.make(EncoderSpec.load(folder))
        return Encoder(folder, variant, threads)
    except DamagedFile:
        raise
    except Exception as exc:  # ONNX Runtime and tokenizers raise their own types for damaged files
        raise DamagedFile(f"the encoder {folder.name} cannot be loaded ({short_reason(exc)})") from None


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _utf8(text: str) -> bool:
    """False for a path holding undecodable bytes (kept by Python as lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Encoder:
    def __init__(self, folder: Path, variant: str = "fp32", threads: int | None = None):
        from tokenizers import Tokenizer

        self.spec = EncoderSpec.load(folder)
        self.folder = folder
        self.variant = variant
        self.threads = threads or available_cores()
        # Tokenizers and ONNX Runtime take a path only as UTF-8 text, and a store folder's name may
        # be any bytes (a Latin-1 name from an old zip): then they are handed the file's bytes.
        self.tokenizer = Tokenizer.from_buffer((folder / "tokenizer.json").read_bytes())
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.spec.max_seq_length)
        self._sessions: dict[bool, object] = {}
        self._session(prepacked=False)  # a damaged or missing graph fails here, where the caller expects it

    def _session(self, prepacked: bool):
        """The ONNX Runtime session, with the weights prepacked (many batches) or not (a few queries);
        for bf16 passages, OpenVINO's (queries stay on the fp32 session)."""
        if prepacked not in self._sessions:
            model = self.folder / variant_files(self.variant)[0]
            if prepacked and self.variant == "bf16":
                self._sessions[prepacked] = _open_openvino(model, self.threads)
            elif prepacked and self.variant == "cuda":
                self._sessions[prepacked] = _TorchCudaSession(self.spec)
            else:
                self._sessions[prepacked] = _open_session(model, self, prepacked)
        return self._sessions[prepacked]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, through the session that does not prepack: always the same session, so a
        query's vector is the same in a one-off search and in a server that has embedded passages."""
        return self.embed([self.spec.query_prefix + t for t in texts], prepacked=False)

    def embed_passages(
        self,
        texts: Sequence[str],
        batch_size: int = 16,
        on_batch: Callable[[int], None] | None = None,
        by_tokens: bool = False,
    ) -> np.ndarray:
        return self.embed([self.spec.passage_prefix + t for t in texts], batch_size, on_batch, by_tokens)

    def embed(
        self,
        texts: Sequence[str],
        batch_size: int = 16,
        on_batch: Callable[[int], None] | None = None,
        by_tokens: bool = False,
        prepacked: bool = True,
    ) -> np.ndarray:
        """Vectors in input order; batches hold texts of similar token length to keep padding low.

        A batch holds batch_size texts, or with by_tokens as many as fit in batch_size texts of the
        model's longest input (padded tokens), so that short texts go through in fewer, larger runs.
        A text's vector does not depend on the batch it is in, nor on which thread ran it.
        """
        out = np.zeros((len(texts), self.spec.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self.tokenizer.encode_batch(list(texts))
        lengths = [len(e.ids) for e in encodings]
        max_tokens = batch_size * self.spec.max_seq_length if by_tokens else None
        session = self._session(prepacked)
        batches = length_batches(lengths, batch_size, max_tokens)
        with self._batch_vectors(session, prepacked, ([encodings[i] for i in rows] for rows in batches)) as vectors:
            for rows, batch_vectors in zip(batches, vectors):
                out[rows] = batch_vectors
                if on_batch:
                    on_batch(len(rows))
        return out

    @contextmanager
    def _batch_vectors(self, session, prepacked: bool, batches: Iterable[list]) -> Iterator[Iterator[np.ndarray]]:
        """Each batch's vectors, in order: OpenVINO's requests side by side, all started from this
        thread; ONNX Runtime's batches side by side, each on a thread of its own; a GPU's one at a time."""
        if isinstance(session, _OpenVinoSession):
            done = session.in_order(map(self._feeds, batches))
            try:
                yield (self._vectors(hidden, feeds["attention_mask"]) for feeds, hidden in done)
            finally:
                done.close()  # waits for the requests still running, then frees the session
            return
        batches = list(batches)
        side_by_side = prepacked and self.variant != "cuda"
        with _runner(min(self.threads, len(batches)) if side_by_side else 1) as mapped:
            yield mapped(lambda batch: self._run(batch, session), batches)

    def _run(self, encodings: list, session) -> np.ndarray:
        feeds = self._feeds(encodings)
        hidden = session.run(None, {name: feeds[name] for name in self.spec.inputs})[0]
        return self._vectors(hidden, feeds["attention_mask"])

    def _feeds(self, encodings: list) -> dict[str, np.ndarray]:
        """The model's inputs for a batch, padded to its longest text."""
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self.spec.pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = 1
            types[row, :n] = e.type_ids
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}

    def _vectors(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        vectors = pool(hidden, mask, self.spec.pooling)
        if self.spec.normalize:
            vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return vectors


@contextmanager
def _runner(threads: int) -> Iterator[Callable]:
    """map(), or with several threads a map over that many batches at a time, in order. Whole
    batches side by side on one core each waste less than every batch split over all the cores:
    there is no barrier to wait at inside each layer (measured in docs/performance.md)."""
    if threads <= 1:
        yield map
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads, thread_name_prefix="rag-embed") as pool:
        yield pool.map


def _open_session(model: Path, encoder: Encoder, prepacked: bool):
    import onnxruntime as ort

    from rag.errors import DamagedFile, short_reason

    options = ort.SessionOptions()
    # Passages: each run on the thread that calls it, threads running batches side by side. A query
    # is one short run that nothing else shares: it is split over every core (4.5 ms warm against 7.3 ms
    # on one core of two; docs/performance.md), the idle threads sleeping, not spinning, between runs.
    options.intra_op_num_threads = 1 if prepacked else encoder.threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    if encoder.spec.optimized:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    if not prepacked:
        options.add_session_config_entry("session.disable_prepacking", "1")
    try:
        with _utf8_path(model) as path:
            return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime raises its own types for damaged files
        raise DamagedFile(f"the encoder {model.parent.name} cannot be loaded ({short_reason(exc)})") from None


@contextmanager
def _utf8_path(model: Path) -> Iterator[str]:
    """The graph's path as UTF-8 text. ONNX Runtime and OpenVINO find the weights beside the graph
    by its path, which must be UTF-8: a link with a UTF-8 name to the folder stands in for it while
    they read them."""
    if _utf8(str(model)):
        yield str(model)
        return
    import tempfile

    with tempfile.TemporaryDirectory(prefix="rag-encoder-") as tmp:
        link = Path(tmp) / "encoder"
        link.symlink_to(model.parent.absolute(), target_is_directory=True)
        yield str(link / model.name)


class _OpenVinoSession:
    """The fp32 graph compiled by OpenVINO to compute in bf16: one stream of one thread per core,
    one inference request per stream, the batches handed to the requests in turn and all started
    and awaited by the one thread that embeds, so that the streams compute side by side.

    Why one thread: a request per Python thread, two threads inferring at once, deadlocked OpenVINO
    2026.4.1 for good (`rag index` of 30 CVs on an AMX Xeon, both threads in set_shape). Here no two
    Python threads are ever inside OpenVINO at once (one caller at a time), the inputs are copied
    into each request's own tensors, and no callback runs Python on OpenVINO's threads, so
    OpenVINO's threads never wait on Python's lock."""

    def __init__(self, compiled, requests: int) -> None:
        import threading

        self.compiled = compiled
        self.inputs = {i.get_any_name() for i in compiled.inputs}
        self._requests = [compiled.create_infer_request() for _ in range(max(1, requests))]
        self._lock = threading.Lock()  # one caller at a time (a server may embed from two threads)

    def run(self, _outputs, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        with closing(self.in_order([feeds])) as done:
            return [hidden for _, hidden in done]

    def in_order(self, batches: Iterable[dict[str, np.ndarray]]) -> Iterator[tuple[dict, np.ndarray]]:
        """(feeds, token vectors) of each batch in order, up to one batch per request running at once."""
        running: deque = deque()
        with self._lock:
            try:
                for n, feeds in enumerate(batches):
                    if len(running) == len(self._requests):  # the oldest is the request batch n goes to
                        yield self._finished(*running.popleft())
                    request = self._requests[n % len(self._requests)]
                    request.start_async({k: v for k, v in feeds.items() if k in self.inputs}, share_inputs=False)
                    running.append((feeds, request))
                while running:
                    yield self._finished(*running.popleft())
            finally:
                for _, request in running:  # the caller stopped early: nothing may run on after the lock
                    request.wait()

    def _finished(self, feeds: dict, request) -> tuple[dict, np.ndarray]:
        request.wait()
        return feeds, np.array(request.get_output_tensor(0).data, dtype=np.float32)  # a copy: the request is reused


def cuda_visible() -> bool:
    """Whether PyTorch sees a CUDA device; torch is imported only where an NVIDIA driver is loaded."""
    if not Path("/proc/driver/nvidia/gpus").is_dir() and not Path("/dev/nvidia0").exists():
        return False
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


class _TorchCudaSession:
    """The model's transformer on the first CUDA device in bf16, run like an ONNX Runtime session
    (token ids in, token vectors out): pooling and normalising stay the encoder's."""

    def __init__(self, spec: EncoderSpec) -> None:
        import torch
        from transformers import AutoModel

        from rag.index.model_choice import resolve_model

        self.torch = torch
        source = resolve_model(spec.model, True, lambda _: None)
        self.model = AutoModel.from_pretrained(str(source.folder), dtype=torch.bfloat16).to("cuda").eval()

    def run(self, _outputs, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        torch = self.torch
        with torch.inference_mode():
            inputs = {name: torch.from_numpy(array).to("cuda") for name, array in feeds.items()}
            hidden = self.model(**inputs).last_hidden_state
            return [hidden.float().cpu().numpy()]


def _open_openvino(model: Path, threads: int) -> _OpenVinoSession:
    from rag.errors import DamagedFile, UserError, short_reason

    try:
        import openvino
    except ImportError:
        raise UserError("the bf16 encoder needs OpenVINO (pip install openvino); use --encoder fp32") from None
    config = {
        "INFERENCE_PRECISION_HINT": "bf16",
        "NUM_STREAMS": str(threads),  # one batch per core at a time, as ONNX Runtime's fp32 runs them
        "INFERENCE_NUM_THREADS": threads,
        "ENABLE_CPU_PINNING": False,  # the machine is shared with other work
    }
    try:
        core = openvino.Core()
        with _utf8_path(model) as path:
            return _OpenVinoSession(core.compile_model(core.read_model(path), "CPU", config), threads)
    except Exception as exc:  # OpenVINO raises its own types for damaged files
        raise DamagedFile(f"the encoder {model.parent.name} cannot be loaded ({short_reason(exc)})") from None


def length_batches(lengths: Sequence[int], batch_size: int, max_tokens: int | None = None) -> list[list[int]]:
    """Indices by increasing length, cut into batches of batch_size, or of at most max_tokens
    padded tokens (rows x longest row) when max_tokens is given."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    if max_tokens is None:
        return [order[lo : lo + batch_size] for lo in range(0, len(order), batch_size)]
    batches: list[list[int]] = []
    for i in order:
        # Sorted by length, so the text joining a batch is its longest.
        if batches and (len(batches[-1]) + 1) * lengths[i] <= max_tokens:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def pool(hidden: np.ndarray, mask: np.ndarray, mode: str) -> np.ndarray:
    """Token vectors to one vector per text, as sentence-transformers' Pooling module does."""
    weights = mask[..., None].astype(hidden.dtype)
    if mode == "cls":
        return hidden[:, 0].copy()
    if mode == "lasttoken":
        return hidden[np.arange(len(hidden)), mask.sum(axis=1) - 1].copy()
    if mode == "max":
        return np.where(weights > 0, hidden, -1e9).max(axis=1)
    summed = (hidden * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), 1e-9)
    if mode == "mean":
        return summed / counts
    if mode == "mean_sqrt_len_tokens":
        return summed / np.sqrt(counts)
    raise ValueError(f"unsupported pooling mode {mode!r}")
