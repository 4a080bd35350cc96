"""One-time export of a sentence-transformers model to the ONNX encoder that builds and searches use.

This is the only place that imports torch. The export is checked before it is kept: on a set of
probe texts in several languages its vectors must match sentence-transformers' to within
MAX_COSINE_DISTANCE, otherwise the build stops rather than index with a wrong encoder.

An export is made once per machine: in a per-user cache (the folder rag/cli names) keyed by model,
revision and export version, each file checked against its checksum before use, and copied (hard
links where the file system allows) into each store that uses it, with just the variant it uses.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Protocol

import numpy as np
import orjson

from rag.errors import UserError
from rag.files import sha256_file, write_atomic
from rag.index.encoder import (
    GRAPHS,
    MODEL_FILES,
    SPEC_FILE,
    WEIGHTS_SUFFIX,
    Encoder,
    EncoderSpec,
    backend_for,
    variant_files,
)
from rag.index.model_choice import ModelSource

# In the export's key and in a build's settings: changes only when the vectors an export gives do.
EXPORT_VERSION = "2"
# How the files are laid out: 3 = the graph saved optimised, its weights in a file beside it. Vectors
# are bitwise those of layout 2 (the same optimised graph, run by the same kernels), so a store's
# export of an older layout is replaced by a current one at its next build, with nothing re-embedded.
LAYOUT = 3
MAX_COSINE_DISTANCE = 1e-4
_SUPPORTED_POOLING = {"mean", "cls", "max", "mean_sqrt_len_tokens", "lasttoken"}
_PROBES = [
    "Who has experience with Jenkins?",
    "Senior DevOps engineer: built CI/CD pipelines with Jenkins and GitLab CI for 40 services.",
    "¿Quién tiene experiencia con Kubernetes y Terraform?",
    "Wer hat Erfahrung mit Datenanalyse in Python, Pandas und SQL?",
    "Compétences : gestion de projet, Scrum, relation client — Lyon, France.",
    "Łukasz Ørsted — Δημήτρης Παπαδόπουλος",
    "x",
    " ".join(["Migrated the payment platform to Kubernetes and mentored junior engineers."] * 60),
]


def encoder_key(source: ModelSource) -> str:
    """Names the export folder: the same model weights and export code give the same key."""
    ident = f"{source.name}\0{source.revision}\0{EXPORT_VERSION}"
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", source.name.strip("/"))[-40:].strip("-.") or "model"
    return f"{slug}-{hashlib.sha256(ident.encode()).hexdigest()[:12]}"


def default_prefixes(name: str, prompts: dict[str, str]) -> tuple[str, str]:
    """Query and passage prefixes: the model's own prompts, or E5's "query: " / "passage: "."""
    query = prompts.get("query", "")
    passage = prompts.get("passage") or prompts.get("document", "")
    if query or passage:
        return query, passage
    if re.search(r"(^|[/_-])e5([_-]|$)", name.lower()):
        return "query: ", "passage: "
    return "", ""


def export_encoder(source: ModelSource, dest: Path) -> EncoderSpec:
    """Write tokenizer.json, encoder.json and the fp32 graph with its weights into dest, made in a
    folder beside it and renamed into place when complete (another process that got there first
    wins: both made the same export)."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        backend = backend_for(source.name)
        if backend:
            (tmp / SPEC_FILE).write_bytes(orjson.dumps(backend.spec(source.name), option=orjson.OPT_INDENT_2))
        else:
            from rag.index.e5_import import materialized

            with materialized(source, dest.parent) as model:  # imported weights: a model folder made from them
                _export_into(model, tmp)
        _rename_into_place(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return EncoderSpec.load(dest)


def _rename_into_place(tmp: Path, dest: Path) -> None:
    try:
        tmp.rename(dest)
    except OSError:
        if not dest.is_dir():
            raise


def reference_model(source: ModelSource):
    """The model as sentence-transformers loads it: what the ONNX encoder must reproduce."""
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.set_verbosity_error()
    transformers_logging.disable_progress_bar()  # our own progress output is enough
    try:
        return SentenceTransformer(str(source.folder), device="cpu")
    except Exception as exc:
        raise UserError(f"cannot load embedding model {source.name!r} from {source.folder}: {exc}") from None


def _export_into(source: ModelSource, folder: Path) -> None:
    import torch

    st = reference_model(source)
    modules = list(st)
    kinds = [type(m).__name__ for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or kinds[2:] not in ([], ["Normalize"]):
        raise UserError(f"model {source.name!r} has modules {kinds}; only Transformer, Pooling and Normalize export")
    pooling = modules[1].get_config_dict()
    if pooling["pooling_mode"] not in _SUPPORTED_POOLING or not pooling.get("include_prompt", True):
        raise UserError(f"model {source.name!r} uses pooling {pooling}, which the ONNX encoder does not support")
    tokenizer = st.tokenizer
    inputs = [n for n in tokenizer.model_input_names if n in {"input_ids", "attention_mask", "token_type_ids"}]
    query_prefix, passage_prefix = default_prefixes(source.name, dict(st.prompts or {}))
    (folder / "tokenizer.json").write_text(tokenizer.backend_tokenizer.to_str(), encoding="utf-8")

    transformer = modules[0].auto_model.eval()
    # Plain matmul-softmax attention exports to a graph ONNX Runtime runs ~7% faster than SDPA's.
    transformer.set_attn_implementation("eager")

    class Hidden(torch.nn.Module):
        """Keyword call, so the graph's inputs are exactly the tokenizer's."""

        def __init__(self) -> None:
            super().__init__()
            self.inner = transformer

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(inputs, tensors))).last_hidden_state

    sample = tokenizer(["probe text", "a longer probe text for shapes"], padding=True, return_tensors="pt")
    with tempfile.TemporaryDirectory(prefix="rag-export-") as work, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = Path(work) / "traced.onnx"
        torch.onnx.export(
            Hidden(),
            tuple(sample[n] for n in inputs),
            str(raw),
            input_names=inputs,
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*inputs, "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )
        save_optimized(raw, folder, MODEL_FILES["fp32"])
    spec = {
        "model": source.name,
        "revision": source.revision,
        "pooling": pooling["pooling_mode"],
        "normalize": "Normalize" in kinds,
        "max_seq_length": int(st.max_seq_length),
        "dim": int(st.get_embedding_dimension()),
        "inputs": inputs,
        "pad_id": int(tokenizer.pad_token_id or 0),
        "query_prefix": query_prefix,
        "passage_prefix": passage_prefix,
        "optimized": True,
        "export_version": EXPORT_VERSION,
        "layout": LAYOUT,
        "exported_with": {p: metadata.version(p) for p in ("torch", "transformers", "sentence-transformers")},
    }
    (folder / SPEC_FILE).write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))
    spec["check"] = _check(st, Encoder(folder, threads=1), spec)
    spec["sha256"] = {name: sha256_file(folder / name) for name in ("tokenizer.json", *variant_files("fp32"))}
    (folder / SPEC_FILE).write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))


def save_optimized(model: Path, folder: Path, name: str) -> None:
    """The graph in `model` as ONNX Runtime optimises it for CPUs (fused attention products, layer
    norms and GELU), saved as folder/name with its weights in name + WEIGHTS_SUFFIX. The fusions
    kept are the ones any x86 or ARM CPU runs (not the layout changes made for this CPU alone)."""
    import onnxruntime as ort

    with tempfile.TemporaryDirectory(prefix="rag-optimize-") as work:  # ONNX Runtime writes only to UTF-8 paths
        target = Path(work) / name
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(target)
        options.log_severity_level = 3
        options.add_session_config_entry(
            "session.optimized_model_external_initializers_file_name", name + WEIGHTS_SUFFIX
        )
        options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
        ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        for made in (target.with_name(name + WEIGHTS_SUFFIX), target):  # the graph last: it names the weights
            shutil.move(made, folder / made.name)


def _check(st, encoder: Encoder, spec: dict) -> dict:
    texts = [spec["passage_prefix"] + t for t in _PROBES] + [spec["query_prefix"] + t for t in _PROBES]
    reference = st.encode(texts, convert_to_numpy=True, normalize_embeddings=False)
    ours = encoder.embed(texts)
    cosine = (reference * ours).sum(1) / (np.linalg.norm(reference, axis=1) * np.linalg.norm(ours, axis=1))
    worst = float(1.0 - cosine.min())
    if worst > MAX_COSINE_DISTANCE:
        raise UserError(
            f"the ONNX export of {spec['model']!r} disagrees with sentence-transformers "
            f"(cosine distance {worst:.2e} > {MAX_COSINE_DISTANCE:g}); this model cannot be used"
        )
    return {"probes": len(texts), "max_cosine_distance": worst}


def encoder_problem(folder: Path, variant: str | None = None) -> str | None:
    """Why an export folder cannot be trusted, or None: every file encoder.json lists must be
    there with the checksum recorded when it was made, and it must hold the variant asked for
    (without one: some variant)."""
    try:
        spec = orjson.loads((folder / SPEC_FILE).read_bytes())
    except (OSError, ValueError):
        return f"{SPEC_FILE} cannot be read"
    digests = spec.get("sha256", {})
    if spec.get("backend", "onnx") == "onnx":
        wanted = [GRAPHS[variant]] if variant else list(MODEL_FILES)
        if not any(MODEL_FILES[v] in digests for v in wanted):
            return f"{SPEC_FILE} records no checksum for {' or '.join(MODEL_FILES[v] for v in wanted)}"
    for name, digest in digests.items():
        if not (folder / name).is_file():
            return f"{name} is missing"
        if sha256_file(folder / name) != digest:
            return f"{name} does not match its checksum in {SPEC_FILE}"
    return None


def quantize_int8(folder: Path) -> None:
    """Add the int8 graph beside the fp32 one: int8 weights, activations quantised on the fly.

    Only weight matrices are quantised (not the attention products of two activations), per
    output channel, with 7-bit weights: without VNNI the AVX2 int8 kernels can saturate on full
    8-bit weights.
    """
    spec = orjson.loads((folder / SPEC_FILE).read_bytes())
    if MODEL_FILES["int8"] in spec.get("sha256", {}):
        return
    import logging

    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # quantize_dynamic logs advice meant for image models
    with tempfile.TemporaryDirectory(prefix="rag-quantize-") as work:
        # The onnx library refuses weights in a file with several hard links (stores share the
        # cache's): it reads a copy of its own.
        for name in variant_files("fp32"):
            shutil.copyfile(folder / name, Path(work) / name)
        raw = Path(work) / "quantized.onnx"
        try:
            quantize_dynamic(
                Path(work) / MODEL_FILES["fp32"],
                raw,
                weight_type=QuantType.QInt8,
                per_channel=True,
                reduce_range=True,
                op_types_to_quantize=["MatMul"],
                extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT, "MatMulConstBOnly": True},
            )
        finally:
            root.setLevel(level)
        staged = Path(tempfile.mkdtemp(prefix=".int8.", dir=folder))
        try:
            save_optimized(raw, staged, MODEL_FILES["int8"])
            for name in reversed(variant_files("int8")):  # the graph last: it names the weights
                spec["sha256"][name] = sha256_file(staged / name)
                (staged / name).rename(folder / name)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    write_atomic(folder / SPEC_FILE, orjson.dumps(spec, option=orjson.OPT_INDENT_2))


class Reporter(Protocol):
    def warn(self, message: str) -> None: ...
    def info(self, message: str) -> None: ...


def ensure_export(source: ModelSource, variant: str, encoders: Path, cache: Path | None, reporter: Reporter) -> Path:
    """encoders/<key>: the store's copy of the model's export with the variant it uses. It comes from
    the cache when there is one (exported there first if need be), else is exported in place."""
    from rag.text import display

    folder = encoders / encoder_key(source)
    if variant == "int8" and backend_for(source.name):
        raise UserError(f"{source.name} has no int8 variant; use --encoder fp32")
    problem = _problem(folder, variant) if folder.is_dir() else "missing"
    if problem is None:
        return folder
    if problem not in ("missing", "older layout", "variant missing"):
        reporter.warn(f"the encoder in {display(str(folder))} is damaged ({problem}); making it again")
    encoders.mkdir(parents=True, exist_ok=True)
    if cache is not None:
        try:
            with _locked(cache):
                cached = _made(source, variant, cache / folder.name, reporter)
                _install(cached, folder, _variants_held(folder) | {variant})
            return folder
        except OSError as exc:
            reporter.warn(
                f"the export cache {display(str(cache))} cannot be used ({exc.strerror or exc}); exporting into the store"
            )
    if problem != "variant missing":
        staged = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=encoders))
        try:
            made = _made(source, variant, staged / folder.name, reporter)
            _install(made, folder, {variant})
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    elif variant == "int8":
        quantize_int8(folder)
    return folder


def default_arithmetic(source: ModelSource, cache: Path | None, reporter: Reporter) -> str:
    """What `rag index` embeds with unless told (rag/index/arithmetic.py): fp32 on a CPU without
    bf16 in hardware, for a model that is not an ONNX export, or without a cache to keep the
    timings in; else the arithmetic timed fastest on this machine, the model exported first if
    need be (the build would export it next)."""
    from rag.index.arithmetic import candidates, choose
    from rag.index.cpu_features import read_cpu_features

    features = read_cpu_features()
    if cache is None or backend_for(source.name) or candidates(features) == ["fp32"]:
        return "fp32"
    try:
        with _locked(cache):
            folder = _made(source, "fp32", cache / encoder_key(source), reporter)
            return choose(folder, features).chosen
    except OSError:
        return "fp32"  # the build says why the cache cannot be used


def export_files(folder: Path, variant: str) -> dict[str, str]:
    """The checksums of the files a store's search loads: what a manifest records of its export."""
    digests = orjson.loads((folder / SPEC_FILE).read_bytes()).get("sha256", {})
    return {name: digests[name] for name in ("tokenizer.json", *variant_files(variant)) if name in digests}


def _problem(folder: Path, variant: str) -> str | None:
    problem = encoder_problem(folder, variant)
    if problem and problem.startswith(f"{SPEC_FILE} records no checksum") and encoder_problem(folder) is None:
        return "variant missing"
    spec = orjson.loads((folder / SPEC_FILE).read_bytes()) if problem is None else {}
    if problem is None and spec.get("backend", "onnx") == "onnx" and spec.get("layout", 2) < LAYOUT:
        return "older layout"
    return problem


def _made(source: ModelSource, variant: str, folder: Path, reporter: Reporter) -> Path:
    """folder holding a checked export with the variant, exported (or quantised) now if need be."""
    from rag.text import display

    problem = encoder_problem(folder) if folder.is_dir() else "missing"
    if problem not in (None, "missing"):
        reporter.warn(f"the cached export {display(str(folder))} is damaged ({problem}); exporting it again")
        shutil.rmtree(folder)
    if not folder.is_dir():
        if not backend_for(source.name):
            reporter.info(f"exporting {source.name} to ONNX (once per machine; later builds and searches reuse it)")
        folder.parent.mkdir(parents=True, exist_ok=True)
        export_encoder(source, folder)
    if variant == "int8":
        quantize_int8(folder)
    return folder


def _variants_held(folder: Path) -> set[str]:
    """The variants a store's current export folder holds intact (kept when another is added)."""
    if not folder.is_dir() or _problem(folder, "fp32") not in (None, "variant missing"):
        return set()
    return {v for v in MODEL_FILES if encoder_problem(folder, v) is None}


def _install(made: Path, folder: Path, variants: set[str]) -> None:
    """Make folder a copy of the export in made, with only the given variants, and swap it in."""
    spec = orjson.loads((made / SPEC_FILE).read_bytes())
    digests = spec.get("sha256", {})
    files = dict.fromkeys(["tokenizer.json", *(f for v in sorted(variants) for f in variant_files(v))])  # bf16 = fp32's
    names = [n for n in files if n in digests]
    staged = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        for name in names:
            _link_or_copy(made / name, staged / name)
        if digests:
            spec["sha256"] = {n: digests[n] for n in names}
        (staged / SPEC_FILE).write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))
        old = folder.with_name(f".{folder.name}.old") if folder.exists() else None
        if old:
            shutil.rmtree(old, ignore_errors=True)
            folder.rename(old)
        staged.rename(folder)
        if old:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staged, ignore_errors=True)


def _link_or_copy(src: Path, dst: Path) -> None:
    """A hard link: the cache and the store share the bytes (files are never written in place)."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


@contextmanager
def _locked(cache: Path) -> Iterator[None]:
    """One build at a time exports or copies from the cache (others wait, then find it made)."""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
