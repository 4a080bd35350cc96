"""One-time export of a sentence-transformers model to the ONNX encoder that builds and searches use.

This is the only place that imports torch. The export is checked before it is kept: on a set of
probe texts in several languages its vectors must match sentence-transformers' to within
MAX_COSINE_DISTANCE, otherwise the build stops rather than index with a wrong encoder.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import warnings
from importlib import metadata
from pathlib import Path

import numpy as np
import orjson

from rag.errors import UserError
from rag.files import sha256_file
from rag.index.encoder import MODEL_FILES, SPEC_FILE, Encoder, EncoderSpec, backend_for
from rag.index.model_choice import ModelSource

EXPORT_VERSION = "2"
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
    """Write model.onnx, tokenizer.json and encoder.json into dest (created atomically)."""
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        backend = backend_for(source.name)
        if backend:
            (tmp / SPEC_FILE).write_bytes(orjson.dumps(backend.spec(source.name), option=orjson.OPT_INDENT_2))
        else:
            _export_into(source, tmp)
        tmp.rename(dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return EncoderSpec.load(dest)


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
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Hidden(),
            tuple(sample[n] for n in inputs),
            str(folder / MODEL_FILES["fp32"]),
            input_names=inputs,
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*inputs, "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )
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
        "export_version": EXPORT_VERSION,
        "exported_with": {p: metadata.version(p) for p in ("torch", "transformers", "sentence-transformers")},
    }
    (folder / SPEC_FILE).write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))
    spec["check"] = _check(st, Encoder(folder, threads=1), spec)
    spec["sha256"] = {name: sha256_file(folder / name) for name in (MODEL_FILES["fp32"], "tokenizer.json")}
    (folder / SPEC_FILE).write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))


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


def encoder_problem(folder: Path) -> str | None:
    """Why an export folder cannot be trusted, or None: every file encoder.json lists must be
    there with the checksum recorded when it was made."""
    try:
        spec = orjson.loads((folder / SPEC_FILE).read_bytes())
    except (OSError, ValueError):
        return f"{SPEC_FILE} cannot be read"
    digests = spec.get("sha256", {})
    if spec.get("backend", "onnx") == "onnx" and MODEL_FILES["fp32"] not in digests:
        return f"{SPEC_FILE} records no checksum for {MODEL_FILES['fp32']}"
    for name, digest in digests.items():
        if not (folder / name).is_file():
            return f"{name} is missing"
        if sha256_file(folder / name) != digest:
            return f"{name} does not match its checksum in {SPEC_FILE}"
    return None


def quantize_int8(folder: Path) -> None:
    """Add model.int8.onnx beside the fp32 graph: int8 weights, activations quantised on the fly.

    Only weight matrices are quantised (not the attention products of two activations), per
    output channel, with 7-bit weights: without VNNI the AVX2 int8 kernels can saturate on full
    8-bit weights.
    """
    target = folder / MODEL_FILES["int8"]
    if target.exists():
        return
    import logging

    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = target.with_suffix(".tmp")
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # quantize_dynamic logs advice meant for image models
    try:
        quantize_dynamic(
            folder / MODEL_FILES["fp32"],
            tmp,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            op_types_to_quantize=["MatMul"],
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT, "MatMulConstBOnly": True},
        )
    finally:
        root.setLevel(level)
    tmp.rename(target)
    spec = orjson.loads((folder / SPEC_FILE).read_bytes())
    spec.setdefault("sha256", {})[MODEL_FILES["int8"]] = sha256_file(target)
    staged = folder / f".{SPEC_FILE}.tmp"
    staged.write_bytes(orjson.dumps(spec, option=orjson.OPT_INDENT_2))
    staged.replace(folder / SPEC_FILE)
