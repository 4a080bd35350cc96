"""What a store generation holds, and the manifest that vouches for it: the file names, the
settings and libraries it was built with, and every file's size and checksum."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import orjson

from rag.errors import Fix, UserError
from rag.files import json_bytes, sha256_file
from rag.index import dense as dense_index
from rag.index import keyword as keyword_index

STORE_FORMAT = 4  # 3: profiles.jsonl and profiles.index.npz; 4: people in candidates.index.npz

MANIFEST = "manifest.json"
CHUNKS = "chunks.jsonl"
CHUNK_OFFSETS = "chunks.offsets.npy"  # byte offset of every line of chunks.jsonl, and the file size
CANDIDATES = "candidates.jsonl"  # one line per indexed CV (rows.Candidate)
CANDIDATE_INDEX = "candidates.index.npz"  # line offsets, first chunk and seniority of every candidate
DOCUMENTS = "documents.jsonl"  # extracted text per PDF: the extraction cache
PROFILES = "profiles.jsonl"  # one profile per candidate, in candidate order (profile_store.py)
PROFILE_INDEX = "profiles.index.npz"  # their line offsets and the columns filters read
CORE_FILES = (MANIFEST, CHUNKS, CANDIDATES, PROFILES, keyword_index.PICKLE, dense_index.INDEX)
ARTIFACTS = (CHUNKS, CHUNK_OFFSETS, CANDIDATES, CANDIDATE_INDEX, DOCUMENTS, PROFILES, PROFILE_INDEX,
             *keyword_index.FILES, *dense_index.FILES)
# Checked byte for byte before every search; the rest by size and by their row counts (the
# profile index byte for byte too, when a search first reads it).
HASHED_ON_OPEN = (CHUNK_OFFSETS, CANDIDATE_INDEX, keyword_index.INDEX, dense_index.KEYS)
MARKER = ".cv-rag-store"
READERS = ".readers"  # in every generation: each search holds a shared lock on it
EVAL_REPORT = "eval.json"  # what `rag eval` writes into the store folder by default
# What a build leaves in generations/: a committed generation, one being written, one being removed.
GENERATION_NAME = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}|\.tmp-[0-9a-f]{12}|\.trash-.+")


@dataclass
class Manifest:
    fingerprint: str
    pdf_count: int
    candidate_count: int
    chunk_count: int
    embedding_model: str
    dim: int
    chunk_chars: int
    overlap_chars: int
    query_prefix: str
    passage_prefix: str
    tokenizer: dict
    extractor: dict
    encoder: dict
    bm25: dict
    embedding_model_requested: str
    embedding_model_origin: str
    settings: dict
    libraries: dict
    created_at: str
    skipped: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    ocr_pages: list[dict] = field(default_factory=list)  # {"source", "pages"} of every file OCR read
    artifacts: dict[str, dict] = field(default_factory=dict)  # name -> {"sha256", "bytes"}
    profiles: dict = field(default_factory=dict)  # as_of, rules and vocabulary, fields read (profiling.py)
    store_format: int = STORE_FORMAT
    hidden_pages: list[dict] = field(default_factory=list)  # {"source", "pages"} of every file with hidden text
    cv_dir: str | None = None  # the CV folder it was built from, absolute (None: built before it was recorded)

    def to_json(self) -> bytes:
        return json_bytes(asdict(self), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        raw = orjson.loads(data)
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})


def size_problem(generation: Path, manifest: Manifest, names: Iterable[str]) -> str | None:
    """The first of the artifacts that is missing or not the size the manifest records (cheap: no hashing)."""
    for name in names:
        path, expected = generation / name, manifest.artifacts.get(name)
        if expected is None or not path.is_file():
            return f"{name} is missing"
        if path.stat().st_size != expected["bytes"]:
            return f"{name} has {path.stat().st_size} bytes, the manifest says {expected['bytes']}"
    return None


def verify_checksum(root: Path, generation: Path, manifest: Manifest, name: str) -> None:
    """The artifact's bytes against its checksum in the manifest; a mismatch is a damaged store."""
    if sha256_file(generation / name) != manifest.artifacts[name]["sha256"]:
        raise damaged(root, f"{name} does not match its checksum in {MANIFEST}")


def damaged(root: Path, detail: str) -> UserError:
    return UserError(f"the store in {root} is damaged: {detail}", Fix("rebuild", {"store": str(root)}))

