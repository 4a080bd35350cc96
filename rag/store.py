"""The on-disk store: immutable generations, swapped in atomically, checked before use.

Layout of a store folder (OUT_DIR, default rag_store/):

    current -> generations/<id>        the live generation (a relative symlink, replaced atomically)
    manifest.json, chunks.jsonl,       stable links through `current`, for people and scripts
    bm25.pkl, faiss.index
    generations/<id>/                  one complete build; the previous one is kept for readers
    encoders/<key>/                    ONNX exports of embedding models, shared by generations
    .lock                              held by the build that is writing

A build writes a new generation into generations/.tmp-*, and only when every file is complete
does it rename the folder and repoint `current`. A crash or Ctrl-C leaves the previous store as
it was. The store folder itself is never renamed, so it can be a Docker bind mount.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import secrets
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Generic, TypeVar

import numpy as np
import orjson

from . import dense_index, keyword_index
from .errors import DamagedFile, UserError
from .records import Candidate, Chunk
from .seniority import LEVELS

STORE_FORMAT = 2
T = TypeVar("T")

MANIFEST = "manifest.json"
CHUNKS = "chunks.jsonl"
CHUNK_OFFSETS = "chunks.offsets.npy"  # byte offset of every line of chunks.jsonl, and the file size
CANDIDATES = "candidates.jsonl"  # one line per indexed CV (records.Candidate)
CANDIDATE_INDEX = "candidates.index.npz"  # line offsets, first chunk and seniority of every candidate
DOCUMENTS = "documents.jsonl"  # extracted text per PDF: the extraction cache
CORE_FILES = (MANIFEST, CHUNKS, CANDIDATES, keyword_index.PICKLE, dense_index.INDEX)
ARTIFACTS = (CHUNKS, CHUNK_OFFSETS, CANDIDATES, CANDIDATE_INDEX, DOCUMENTS, *keyword_index.FILES, *dense_index.FILES)
# Checked byte for byte before every search; the rest by size and by their row counts.
HASHED_ON_OPEN = (CHUNK_OFFSETS, CANDIDATE_INDEX, keyword_index.INDEX, dense_index.KEYS)
REBUILD_HINT = "run `make rebuild` (python -m rag.build_index --force)"


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
    artifacts: dict[str, dict] = field(default_factory=dict)  # name -> {"sha256", "bytes"}
    store_format: int = STORE_FORMAT

    def to_json(self) -> bytes:
        return orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        raw = orjson.loads(data)
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class StoreDir:
    def __init__(self, root: Path):
        self.root = root
        self.current = root / "current"
        self.generations = root / "generations"
        self.encoders = root / "encoders"

    def live_generation(self) -> Path | None:
        """The generation `current` points to, resolved once so a concurrent swap cannot mix two."""
        try:
            target = os.readlink(self.current)
        except OSError:
            return None
        generation = (self.root / target).resolve()
        return generation if generation.is_dir() else None

    def live_manifest(self) -> Manifest | None:
        generation = self.live_generation()
        if generation is None:
            return None
        try:
            return Manifest.from_json((generation / MANIFEST).read_bytes())
        except (OSError, ValueError, TypeError):
            return None

    def looks_intact(self, manifest: Manifest) -> bool:
        """Cheap check (sizes only) used to decide that an unchanged store needs no rebuild."""
        generation = self.live_generation()
        if generation is None:
            return False
        for name, info in manifest.artifacts.items():
            path = generation / name
            if not path.is_file() or path.stat().st_size != info["bytes"]:
                return False
        return (self.encoders / manifest.encoder["key"]).is_dir()

    def trusted_generation(self, manifest: Manifest | None, names: tuple[str, ...]) -> Path | None:
        """The live generation if the named files still match the manifest's checksums, else None:
        a build reuses work only from files it can trust."""
        generation = self.live_generation()
        if generation is None or manifest is None:
            return None
        for name in names:
            path = generation / name
            expected = manifest.artifacts.get(name)
            if expected is None or not path.is_file() or sha256_file(path) != expected["sha256"]:
                return None
        return generation

    @contextmanager
    def build_lock(self) -> Iterator[None]:
        """One build per store at a time; a second one is refused with the holder's pid."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / ".lock"
        with path.open("a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                f.seek(0)
                holder = f.read().strip() or "unknown"
                raise UserError(
                    f"another build is writing {self.root} (pid {holder}); wait for it to finish and run again"
                ) from None
            f.seek(0)
            f.truncate()
            f.write(str(os.getpid()))
            f.flush()
            try:
                yield
            finally:
                f.truncate(0)
                fcntl.flock(f, fcntl.LOCK_UN)

    @contextmanager
    def new_generation(self) -> Iterator[Path]:
        """A private folder for the files of a build; removed unless commit() adopted it."""
        self.generations.mkdir(parents=True, exist_ok=True)
        tmp = self.generations / f".tmp-{secrets.token_hex(6)}"
        tmp.mkdir()
        try:
            yield tmp
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def commit(self, tmp: Path, manifest: Manifest) -> Path:
        """Seal the generation (hashes, manifest last), make it live, and drop old generations."""
        manifest.artifacts = {
            name: {"sha256": sha256_file(tmp / name), "bytes": (tmp / name).stat().st_size} for name in ARTIFACTS
        }
        (tmp / MANIFEST).write_bytes(manifest.to_json())
        _fsync_tree(tmp)
        previous = self.live_generation()
        final = self.generations / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{secrets.token_hex(3)}"
        tmp.rename(final)
        _replace_symlink(self.current, os.path.relpath(final, self.root))
        for name in CORE_FILES:
            link = self.root / name
            if not link.is_symlink():
                _replace_symlink(link, f"current/{name}")
        self._prune(keep={final, previous})
        return final

    def _prune(self, keep: set[Path | None]) -> None:
        in_use: set[str] = set()
        for generation in sorted(self.generations.iterdir()):
            if generation in keep:
                try:
                    in_use.add(Manifest.from_json((generation / MANIFEST).read_bytes()).encoder["key"])
                except (OSError, ValueError, TypeError, KeyError):
                    pass
            else:
                shutil.rmtree(generation, ignore_errors=True)
        if self.encoders.is_dir():
            for encoder in self.encoders.iterdir():
                if encoder.name not in in_use:
                    shutil.rmtree(encoder, ignore_errors=True)


def _replace_symlink(link: Path, target: str) -> None:
    tmp = link.with_name(f".{link.name}.{secrets.token_hex(4)}")
    os.symlink(target, tmp)
    os.replace(tmp, link)


def _fsync_tree(folder: Path) -> None:
    for path in folder.iterdir():
        with path.open("rb") as f:
            os.fsync(f.fileno())
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_jsonl(path: Path, records: Iterable[dict]) -> np.ndarray:
    """Write one JSON document per line; return every line's byte offset, then the file size."""
    offsets = [0]
    with path.open("wb") as f:
        for record in records:
            line = orjson.dumps(record) + b"\n"
            f.write(line)
            offsets.append(offsets[-1] + len(line))
    return np.asarray(offsets, dtype=np.int64)


class JsonlTable(Generic[T]):
    """Random access to the lines of a JSON-lines file by line number, through the byte offsets
    written beside it, without parsing the whole file."""

    def __init__(self, path: Path, offsets: np.ndarray, record: Callable[..., T]):
        self.path = path
        self.offsets = offsets
        self.record = record

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def get(self, rows: Iterable[int]) -> dict[int, T]:
        found: dict[int, T] = {}
        with self.path.open("rb") as f:
            for row in sorted(set(rows)):
                f.seek(int(self.offsets[row]))
                found[row] = self._parse(f.read(int(self.offsets[row + 1] - self.offsets[row])), row)
        return found

    def all(self) -> list[T]:
        with self.path.open("rb") as f:
            return [self._parse(line, row) for row, line in enumerate(f)]

    def _parse(self, line: bytes, row: int) -> T:
        try:
            return self.record(**orjson.loads(line))
        except (ValueError, TypeError) as exc:  # orjson.JSONDecodeError is a ValueError
            raise DamagedFile(f"line {row + 1} of {self.path.name} is not a record ({type(exc).__name__})") from None


@dataclass
class OpenStore:
    """A verified generation: the manifest, its tables, and its indexes, loaded when first used."""

    root: Path
    generation: Path
    manifest: Manifest
    chunks: JsonlTable[Chunk]
    candidates: JsonlTable[Candidate]
    starts: np.ndarray  # first chunk of each candidate, then the chunk count
    seniority: np.ndarray  # per candidate: index into seniority.LEVELS, -1 when unknown
    encoder_dir: Path

    def path(self, name: str) -> Path:
        return self.generation / name

    def keyword_index(self):
        from .keyword_index import KeywordIndex

        return self.checked(lambda: KeywordIndex.load(self.generation, self.manifest.chunk_count))

    def dense_index(self):
        from .dense_index import DenseIndex

        return self.checked(lambda: DenseIndex.load(self.generation, self.manifest.chunk_count, self.manifest.dim))

    def okapi(self):
        """The reference BM25Okapi, unpickled only once its bytes match the manifest's checksum."""
        from .keyword_index import PICKLE, KeywordIndex

        if sha256_file(self.path(PICKLE)) != self.manifest.artifacts[PICKLE]["sha256"]:
            raise damaged(self.root, f"{PICKLE} does not match its checksum in {MANIFEST}")
        return self.checked(lambda: KeywordIndex.load_okapi(self.generation, self.manifest.chunk_count))

    def checked(self, read: Callable[[], T]) -> T:
        """Run a read of store files, reporting a file that fails its checks as a damaged store."""
        try:
            return read()
        except DamagedFile as exc:
            raise damaged(self.root, str(exc)) from None


def damaged(root: Path, detail: str) -> UserError:
    return UserError(f"the store in {root} is damaged: {detail}; {REBUILD_HINT}")


def open_store(root: Path) -> OpenStore:
    """Check a store before anything in it is used: files, checksums, sizes and row counts."""
    store = StoreDir(root)
    generation = store.live_generation()
    if generation is None:
        if not root.exists():
            raise UserError(f"no store at {root}: run `make index` (python -m rag.build_index) first")
        raise UserError(f"no built store in {root}: run `make index` (python -m rag.build_index) first")
    try:
        manifest = Manifest.from_json((generation / MANIFEST).read_bytes())
    except (OSError, ValueError, TypeError) as exc:
        raise damaged(root, f"{MANIFEST} cannot be read ({type(exc).__name__})") from None
    if manifest.store_format != STORE_FORMAT:
        raise UserError(f"the store in {root} has format {manifest.store_format}, this version reads "
                        f"{STORE_FORMAT}; {REBUILD_HINT}")
    for name in ARTIFACTS:
        path = generation / name
        expected = manifest.artifacts.get(name)
        if expected is None or not path.is_file():
            raise damaged(root, f"{name} is missing")
        if path.stat().st_size != expected["bytes"]:
            raise damaged(root, f"{name} has {path.stat().st_size} bytes, the manifest says {expected['bytes']}")
    for name in HASHED_ON_OPEN:
        if sha256_file(generation / name) != manifest.artifacts[name]["sha256"]:
            raise damaged(root, f"{name} does not match its checksum in {MANIFEST}")
    offsets = np.load(generation / CHUNK_OFFSETS, allow_pickle=False)
    with np.load(generation / CANDIDATE_INDEX, allow_pickle=False) as table:
        candidate_offsets, starts, seniority = table["offsets"], table["starts"], table["seniority"]
    counts = {
        "chunk lines": len(offsets) - 1,
        "chunks owned by candidates": int(starts[-1]) if len(starts) else 0,
        "BM25 corpus": manifest.bm25.get("corpus_size"),
    }
    for what, count in counts.items():
        if count != manifest.chunk_count:
            raise damaged(root, f"{what}: {count}, but the manifest counts {manifest.chunk_count} chunks")
    if not (len(candidate_offsets) == len(starts) == len(seniority) + 1 == manifest.candidate_count + 1):
        raise damaged(root, f"{CANDIDATE_INDEX} does not describe {manifest.candidate_count} candidates")
    for name, table_offsets in ((CHUNKS, offsets), (CANDIDATES, candidate_offsets)):
        if int(table_offsets[-1]) != (generation / name).stat().st_size:
            raise damaged(root, f"{name} does not end where its offsets say")
    encoder_dir = store.encoders / manifest.encoder["key"]
    if not encoder_dir.is_dir():
        raise damaged(root, f"the encoder {manifest.encoder['key']} is missing from {store.encoders}")
    return OpenStore(root, generation, manifest, JsonlTable(generation / CHUNKS, offsets, Chunk),
                     JsonlTable(generation / CANDIDATES, candidate_offsets, Candidate), starts, seniority, encoder_dir)


def write_candidates(folder: Path, candidates: list[Candidate]) -> None:
    """candidates.jsonl and the arrays search reads for every candidate at once."""
    offsets = write_jsonl(folder / CANDIDATES, (c.to_dict() for c in candidates))
    starts = np.asarray([c.first_chunk for c in candidates] + [sum(c.chunk_count for c in candidates)], np.int64)
    seniority = np.asarray([LEVELS.index(c.seniority) if c.seniority else -1 for c in candidates], np.int8)
    with (folder / CANDIDATE_INDEX).open("wb") as f:
        np.savez(f, offsets=offsets, starts=starts, seniority=seniority)
