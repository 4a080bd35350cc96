"""A segment: some CVs with everything a store keeps about them (extracted text, candidates,
profiles, chunks, keyword and dense indexes), written once, sealed, and never changed.

Sealing records every file's size and SHA-256 in segment.json, and the generation's manifest
records segment.json's own checksum: one chain of checksums from the manifest to every byte. A
CV changed or removed later is marked deleted in the generation (Deletions), not cut out of its
segment; merging segments (pipeline/merging.py) writes a new one without what was deleted.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import orjson

from rag.errors import DamagedFile
from rag.files import sha256_file
from rag.index.keyword import DeletedTerms
from rag.store.folder import fsync_tree
from rag.store.layout import HASHED_ON_OPEN, SEGMENT, segment_files
from rag.store.manifest import SegmentEntry, checksum_problem, file_record, size_problem


@dataclass
class SegmentRecord:
    """segment.json."""

    documents: int  # files, indexed or not
    candidates: int
    chunks: int
    total_length: int  # BM25 terms of all chunks
    dense: dict  # {"kind": "flat"} or the IVF index's parameters (ann.py)
    artifacts: dict[str, dict] = field(default_factory=dict)  # name -> {"sha256", "bytes"}

    @property
    def approximate(self) -> bool:
        return self.dense.get("kind") != "flat"

    @property
    def files(self) -> tuple[str, ...]:
        return segment_files(self.approximate)


def seal(folder: Path, record: SegmentRecord) -> str:
    """Record every file's size and checksum in segment.json, flush it all to disk; the checksum
    of segment.json, which the generation's manifest keeps."""
    record.artifacts = {name: file_record(folder / name) for name in record.files}
    (folder / SEGMENT).write_bytes(orjson.dumps(asdict(record), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    fsync_tree(folder)
    return sha256_file(folder / SEGMENT)


def read_record(folder: Path, entry: SegmentEntry) -> SegmentRecord:
    """segment.json, once its bytes match the checksum the manifest holds for it."""
    path = folder / SEGMENT
    if not path.is_file():
        raise DamagedFile(f"segment {entry.name} is missing")
    if sha256_file(path) != entry.sha256:
        raise DamagedFile(f"segments/{entry.name}/{SEGMENT} does not match its checksum in the manifest")
    try:
        record = SegmentRecord(**orjson.loads(path.read_bytes()))
    except (ValueError, TypeError):
        raise DamagedFile(f"segments/{entry.name}/{SEGMENT} cannot be read") from None
    if (record.documents, record.candidates, record.chunks) != (entry.documents, entry.candidates, entry.chunks):
        raise DamagedFile(f"segment {entry.name} does not hold what the manifest says")
    return record


def check_files(folder: Path, record: SegmentRecord, hashed: tuple[str, ...] = HASHED_ON_OPEN) -> None:
    """Every file of the segment there with its recorded size, and the hashed ones byte for byte."""
    label = f"segments/{folder.name}/"
    problem = size_problem(folder, record.artifacts, record.files)
    for name in hashed:
        problem = problem or checksum_problem(folder, record.artifacts, name, label + name, SEGMENT)
    if problem:
        raise DamagedFile(problem if problem.startswith(label) else label + problem)


@dataclass
class SegmentDeletions:
    """The documents of one segment marked deleted, and what their chunks held (for BM25's statistics)."""

    documents: np.ndarray  # bool per document of the segment
    terms: DeletedTerms


def save_deletions(path: Path, deletions: dict[str, SegmentDeletions]) -> None:
    arrays = {}
    for name, d in deletions.items():
        arrays |= {
            f"{name}.documents": d.documents,
            f"{name}.terms": d.terms.terms,
            f"{name}.counts": d.terms.counts,
            f"{name}.length": np.asarray(d.terms.length, np.int64),
        }
    with path.open("wb") as f:
        np.savez(f, **arrays)


def load_deletions(path: Path, documents: dict[str, int]) -> dict[str, SegmentDeletions]:
    """The deletions of a generation whose segments hold these numbers of documents."""
    try:
        with np.load(path, allow_pickle=False) as data:
            names = {key.rsplit(".", 1)[0] for key in data.files}
            out = {
                name: SegmentDeletions(
                    data[f"{name}.documents"],
                    DeletedTerms(data[f"{name}.terms"], data[f"{name}.counts"], int(data[f"{name}.length"])),
                )
                for name in names
            }
    except (OSError, ValueError, KeyError) as exc:
        raise DamagedFile(f"{path.name} cannot be read ({type(exc).__name__})") from None
    for name, d in out.items():
        if documents.get(name) != len(d.documents) or len(d.terms.terms) != len(d.terms.counts):
            raise DamagedFile(f"{path.name} does not describe segment {name}")
    return out
