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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import orjson

from .errors import UserError
from .records import Chunk

STORE_FORMAT = 1

MANIFEST = "manifest.json"
CHUNKS = "chunks.jsonl"
BM25_PICKLE = "bm25.pkl"
FAISS_INDEX = "faiss.index"
CHUNK_OFFSETS = "chunks.offsets.npy"  # byte offset of every line of chunks.jsonl, and the file size
BM25_INDEX = "bm25.index.npz"  # inverted index derived from bm25.pkl (bm25.py)
EMBEDDING_KEYS = "embedding_keys.npy"  # content hash per FAISS row: the embedding cache's keys
DOCUMENTS = "documents.jsonl"  # extracted text per PDF: the extraction cache
CORE_FILES = (MANIFEST, CHUNKS, BM25_PICKLE, FAISS_INDEX)
ARTIFACTS = (CHUNKS, CHUNK_OFFSETS, BM25_PICKLE, BM25_INDEX, FAISS_INDEX, EMBEDDING_KEYS, DOCUMENTS)
# Checked byte for byte before every search; the rest by size and by their row counts.
HASHED_ON_OPEN = (BM25_PICKLE, BM25_INDEX, CHUNK_OFFSETS, EMBEDDING_KEYS)
REBUILD_HINT = "run `make rebuild` (python -m rag.build_index --force)"


@dataclass
class Manifest:
    fingerprint: str
    pdf_count: int
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


def write_chunks(path: Path, chunks: list[Chunk]) -> list[int]:
    """Write chunks.jsonl; return every line's byte offset followed by the file size."""
    offsets = [0]
    with path.open("wb") as f:
        for chunk in chunks:
            line = orjson.dumps(chunk.to_dict()) + b"\n"
            f.write(line)
            offsets.append(offsets[-1] + len(line))
    return offsets


class ChunkReader:
    """Random access to chunks.jsonl by chunk_id, without parsing the whole file."""

    def __init__(self, path: Path, offsets):
        self.path = path
        self.offsets = offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def get(self, chunk_ids: list[int]) -> dict[int, Chunk]:
        found: dict[int, Chunk] = {}
        with self.path.open("rb") as f:
            for cid in sorted(set(chunk_ids)):
                f.seek(int(self.offsets[cid]))
                found[cid] = Chunk(**orjson.loads(f.read(int(self.offsets[cid + 1] - self.offsets[cid]))))
        return found

    def all(self) -> list[Chunk]:
        with self.path.open("rb") as f:
            return [Chunk(**orjson.loads(line)) for line in f]


@dataclass
class OpenStore:
    """A verified generation: the manifest, chunk access, and paths to the indexes."""

    root: Path
    generation: Path
    manifest: Manifest
    chunks: ChunkReader
    encoder_dir: Path

    def path(self, name: str) -> Path:
        return self.generation / name

    def load_faiss(self):
        import faiss

        index = faiss.read_index(str(self.path(FAISS_INDEX)))
        if index.ntotal != self.manifest.chunk_count or index.d != self.manifest.dim:
            raise _damaged(self.root, f"{FAISS_INDEX} holds {index.ntotal} vectors of dim {index.d}, "
                           f"the manifest says {self.manifest.chunk_count} of dim {self.manifest.dim}")
        return index

    def load_bm25_index(self):
        from .bm25 import InvertedIndex

        index = InvertedIndex.load(self.path(BM25_INDEX))
        if index.n_docs != self.manifest.chunk_count:
            raise _damaged(self.root, f"{BM25_INDEX} covers {index.n_docs} chunks, not {self.manifest.chunk_count}")
        return index

    def load_okapi(self):
        """The reference BM25Okapi; its pickle was checked against the manifest before this runs."""
        import pickle

        with self.path(BM25_PICKLE).open("rb") as f:
            okapi = pickle.load(f)
        if okapi.corpus_size != self.manifest.chunk_count:
            raise _damaged(self.root, f"{BM25_PICKLE} covers {okapi.corpus_size} chunks, not {self.manifest.chunk_count}")
        return okapi


def _damaged(root: Path, detail: str) -> UserError:
    return UserError(f"the store in {root} is damaged: {detail}; {REBUILD_HINT}")


def open_store(root: Path) -> OpenStore:
    """Check a store before anything in it is used: files, checksums, sizes and row counts."""
    import numpy as np

    store = StoreDir(root)
    generation = store.live_generation()
    if generation is None:
        if not root.exists():
            raise UserError(f"no store at {root}: run `make index` (python -m rag.build_index) first")
        raise UserError(f"no built store in {root}: run `make index` (python -m rag.build_index) first")
    try:
        manifest = Manifest.from_json((generation / MANIFEST).read_bytes())
    except (OSError, ValueError, TypeError) as exc:
        raise _damaged(root, f"{MANIFEST} cannot be read ({type(exc).__name__})") from None
    if manifest.store_format != STORE_FORMAT:
        raise UserError(f"the store in {root} has format {manifest.store_format}, this version reads "
                        f"{STORE_FORMAT}; {REBUILD_HINT}")
    for name in ARTIFACTS:
        path = generation / name
        expected = manifest.artifacts.get(name)
        if expected is None or not path.is_file():
            raise _damaged(root, f"{name} is missing")
        if path.stat().st_size != expected["bytes"]:
            raise _damaged(root, f"{name} has {path.stat().st_size} bytes, the manifest says {expected['bytes']}")
    for name in HASHED_ON_OPEN:
        if sha256_file(generation / name) != manifest.artifacts[name]["sha256"]:
            raise _damaged(root, f"{name} does not match its checksum in {MANIFEST}")
    offsets = np.load(generation / CHUNK_OFFSETS, allow_pickle=False)
    keys = np.load(generation / EMBEDDING_KEYS, allow_pickle=False)
    counts = {
        "chunk lines": len(offsets) - 1,
        "embedding keys": len(keys),
        "BM25 corpus": manifest.bm25.get("corpus_size"),
    }
    for what, count in counts.items():
        if count != manifest.chunk_count:
            raise _damaged(root, f"{what}: {count}, but the manifest counts {manifest.chunk_count} chunks")
    if int(offsets[-1]) != (generation / CHUNKS).stat().st_size:
        raise _damaged(root, f"{CHUNKS} does not end where its offsets say")
    encoder_dir = store.encoders / manifest.encoder["key"]
    if not encoder_dir.is_dir():
        raise _damaged(root, f"the encoder {manifest.encoder['key']} is missing from {store.encoders}")
    return OpenStore(root, generation, manifest, ChunkReader(generation / CHUNKS, offsets), encoder_dir)
