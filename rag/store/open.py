"""Opening a store for search: the live generation, locked against pruning and checked before
anything in it is used (files, checksums, sizes, row counts)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np
import orjson

from rag.errors import DamagedFile, Fix, UserError
from rag.index.encoder import SPEC_FILE
from rag.store.folder import StoreDir
from rag.store.manifest import (
    ARTIFACTS,
    CANDIDATE_INDEX,
    CANDIDATES,
    CHUNK_OFFSETS,
    CHUNKS,
    HASHED_ON_OPEN,
    MANIFEST,
    PROFILE_INDEX,
    READERS,
    STORE_FORMAT,
    Manifest,
    damaged,
    size_problem,
    verify_checksum,
)
from rag.store.rows import Candidate, Chunk
from rag.store.tables import JsonlTable

T = TypeVar("T")


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
    people: np.ndarray  # per candidate: the first candidate of its person (several CVs, one person)
    encoder_dir: Path
    lock: int | None = None  # the shared lock on the generation, held while the store is open
    _profiles: object = field(default=None, repr=False)

    def path(self, name: str) -> Path:
        return self.generation / name

    def close(self) -> None:
        """Release the generation (a later build may prune it); the store is not used afterwards."""
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def __enter__(self) -> OpenStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def keyword_index(self):
        from rag.index.keyword import KeywordIndex

        return self.checked(lambda: KeywordIndex.load(self.generation, self.manifest.chunk_count))

    def dense_index(self):
        from rag.index.dense import DenseIndex

        return self.checked(lambda: DenseIndex.load(self.generation, self.manifest.chunk_count, self.manifest.dim))

    def okapi(self):
        """The reference BM25Okapi, unpickled only once its bytes match the manifest's checksum."""
        from rag.index.keyword import PICKLE, KeywordIndex

        verify_checksum(self.root, self.generation, self.manifest, PICKLE)
        return self.checked(lambda: KeywordIndex.load_okapi(self.generation, self.manifest.chunk_count))

    def profiles(self):
        """The candidates' profiles (profile_store.StoredProfiles), read when first needed: by
        filters, and by a query with a capitalised word that may name a place or a language
        (profile_view.profile_fields); other searches never open them."""
        if self._profiles is None:
            from rag.store.profiles import load_profiles

            verify_checksum(self.root, self.generation, self.manifest, PROFILE_INDEX)
            self._profiles = self.checked(lambda: load_profiles(self.generation, self.manifest.candidate_count,
                                                                self.root))
        return self._profiles

    def verify(self) -> int:
        """Hash every artifact and encoder file against the recorded checksums (raising on the first
        miss); how many files were checked."""
        from rag.index.export import encoder_problem

        for name in ARTIFACTS:
            verify_checksum(self.root, self.generation, self.manifest, name)
        problem = encoder_problem(self.encoder_dir)
        if problem:
            raise damaged(self.root, f"the encoder {self.encoder_dir.name}: {problem}")
        spec = orjson.loads((self.encoder_dir / SPEC_FILE).read_bytes())
        return len(ARTIFACTS) + 1 + len(spec.get("sha256", {}))

    def checked(self, read: Callable[[], T]) -> T:
        """Run a read of store files, reporting a file that fails its checks as a damaged store."""
        try:
            return read()
        except DamagedFile as exc:
            raise damaged(self.root, str(exc)) from None


def open_store(root: Path) -> OpenStore:
    """Check a store before anything in it is used: files, checksums, sizes and row counts. The
    store returned holds a shared lock on its generation, so no build prunes it while it is open."""
    store = StoreDir(root)
    generation, lock = _read_lock(store)
    try:
        return _open_generation(store, generation, lock)
    except BaseException:
        if lock is not None:
            os.close(lock)
        raise


def _read_lock(store: StoreDir) -> tuple[Path, int | None]:
    """The live generation with a shared lock on it; if a build prunes it before the lock is
    taken, the new live one."""
    root = store.root
    for _ in range(20):
        generation = store.live_generation()
        if generation is None:
            if not root.exists():
                raise UserError(f"no store at {root}: run {{fix}} first", Fix("index", {"store": str(root)}))
            raise UserError(f"no built store in {root}: run {{fix}} first", Fix("index", {"store": str(root)}))
        try:
            lock = os.open(generation / READERS, os.O_RDONLY)
        except FileNotFoundError:
            if generation.is_dir():
                return generation, None  # a store of an older format: opening it fails on its format
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_SH)
        except OSError:  # a filesystem without locks (some network mounts): read without one
            os.close(lock)
            return generation, None
        if (generation / READERS).exists():
            return generation, lock
        os.close(lock)  # pruned while we waited: move on to the live generation
    raise UserError(f"the store in {root} changed 20 times while opening it; try again")


def _open_generation(store: StoreDir, generation: Path, lock: int | None) -> OpenStore:
    root = store.root
    try:
        manifest = Manifest.from_json((generation / MANIFEST).read_bytes())
    except (OSError, ValueError, TypeError) as exc:
        raise damaged(root, f"{MANIFEST} cannot be read ({type(exc).__name__})") from None
    if manifest.store_format != STORE_FORMAT:
        raise UserError(f"the store in {root} has format {manifest.store_format}, this version reads "
                        f"{STORE_FORMAT}", Fix("rebuild", {"store": str(root)}))
    problem = size_problem(generation, manifest, ARTIFACTS)
    if problem:
        raise damaged(root, problem)
    for name in HASHED_ON_OPEN:
        verify_checksum(root, generation, manifest, name)
    offsets = np.load(generation / CHUNK_OFFSETS, allow_pickle=False)
    with np.load(generation / CANDIDATE_INDEX, allow_pickle=False) as table:
        candidate_offsets, starts, seniority, people = (table["offsets"], table["starts"], table["seniority"],
                                                        table["people"])
    counts = {
        "chunk lines": len(offsets) - 1,
        "chunks owned by candidates": int(starts[-1]) if len(starts) else 0,
        "BM25 corpus": manifest.bm25.get("corpus_size"),
    }
    for what, count in counts.items():
        if count != manifest.chunk_count:
            raise damaged(root, f"{what}: {count}, but the manifest counts {manifest.chunk_count} chunks")
    if not (len(candidate_offsets) == len(starts) == len(seniority) + 1 == len(people) + 1
            == manifest.candidate_count + 1):
        raise damaged(root, f"{CANDIDATE_INDEX} does not describe {manifest.candidate_count} candidates")
    for name, table_offsets in ((CHUNKS, offsets), (CANDIDATES, candidate_offsets)):
        if int(table_offsets[-1]) != (generation / name).stat().st_size:
            raise damaged(root, f"{name} does not end where its offsets say")
    encoder_dir = store.encoders / manifest.encoder["key"]
    try:
        exported = orjson.loads((encoder_dir / SPEC_FILE).read_bytes()).get("model")
    except (OSError, ValueError):
        raise damaged(root, f"the encoder {manifest.encoder['key']} is missing or unreadable in {store.encoders}") from None
    if exported != manifest.embedding_model:
        raise damaged(root, f"the manifest names the model {manifest.embedding_model}, its encoder holds {exported}")
    return OpenStore(root, generation, manifest, JsonlTable(generation / CHUNKS, offsets, Chunk, root),
                     JsonlTable(generation / CANDIDATES, candidate_offsets, Candidate, root), starts, seniority, people,
                     encoder_dir, lock)
