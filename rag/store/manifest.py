"""What a store generation holds, and the manifest that vouches for it: the settings and libraries
it was built with, the segments it is made of, and the size and checksum of every file.

A generation is small: its manifest, and the deletions marked in its segments. The chunks and
their indexes live in segments (segments/<name>/), which are written once, sealed with the
checksum of every file (segment.json), and shared by every generation that lists them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import orjson

from rag.errors import Fix, UserError
from rag.files import json_bytes, sha256_file

# 3: profiles.jsonl and profiles.index.npz; 4 (two of them, never released together): people in
# candidates.index.npz, or segments; 5: segments, marked deletions, an IVF index in large segments,
# and people (which CVs are one person's) store-wide in the generation, from contacts kept per segment;
# 6: a FAISS IndexFlatIP (faiss.index) in every segment instead of vectors.f32, and each chunk's
# skill mentions (mentions.*) found at build time.
STORE_FORMAT = 6

MANIFEST = "manifest.json"
PEOPLE = "people.npy"  # in every generation: per live candidate, the first candidate of its person (people.py)
DELETIONS = "deletions.npz"  # per segment with deletions: which documents, and what their chunks held
MARKER = ".cv-rag-store"
READERS = ".readers"  # in every generation: each search holds a shared lock on it
EVAL_REPORT = "eval.json"  # what `rag eval` writes into the store folder by default
# What a build leaves in generations/ and segments/: a committed one, one being written, one being removed.
GENERATION_NAME = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{6}|\.tmp-[0-9a-f]{12}|\.trash-.+")
SEGMENT_NAME = re.compile(r"\d{6}|\.tmp-[0-9a-f]{12}|\.trash-.+")
LINKS = (MANIFEST,)  # at the top of the store, through `current`
OLD_LINKS = ("chunks.jsonl", "candidates.jsonl", "profiles.jsonl", "bm25.pkl", "faiss.index")  # formats 3 and 4


@dataclass
class SegmentEntry:
    """One segment of a generation: its name, the checksum of its segment.json, its counts."""

    name: str
    sha256: str
    documents: int
    candidates: int
    chunks: int
    approximate: bool  # it has an IVF index

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Manifest:
    fingerprint: str
    pdf_count: int
    candidate_count: int  # live: what a search sees
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
    artifacts: dict[str, dict] = field(default_factory=dict)  # the generation's own files: name -> {"sha256", "bytes"}
    profiles: dict = field(default_factory=dict)  # as_of, rules and vocabulary, fields read (profiling.py)
    segments: list[dict] = field(default_factory=list)  # SegmentEntry, in store order
    term_count: int = 0  # term ids given so far (dictionary.py)
    next_segment: int = 1  # the number the next segment gets
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

    def segment_entries(self) -> list[SegmentEntry]:
        return [SegmentEntry(**s) for s in self.segments]


def file_record(path: Path) -> dict:
    return {"sha256": sha256_file(path), "bytes": path.stat().st_size}


def size_problem(folder: Path, artifacts: dict[str, dict], names: Iterable[str]) -> str | None:
    """The first of the files that is missing or not the size recorded (cheap: no hashing)."""
    for name in names:
        path, expected = folder / name, artifacts.get(name)
        if expected is None or not path.is_file():
            return f"{name} is missing"
        if path.stat().st_size != expected["bytes"]:
            return f"{name} has {path.stat().st_size} bytes, the manifest says {expected['bytes']}"
    return None


def checksum_problem(
    folder: Path, artifacts: dict[str, dict], name: str, label: str = "", where: str = MANIFEST
) -> str | None:
    """Whether a file's bytes differ from the checksum recorded in `where` (label: how to name it)."""
    if sha256_file(folder / name) != artifacts[name]["sha256"]:
        return f"{label or name} does not match its checksum in {where}"
    return None


def damaged(root: Path, detail: str) -> UserError:
    return UserError(f"the store in {root} is damaged: {detail}", Fix("rebuild", {"store": str(root)}))
