"""Opening a store for search: the live generation, locked against pruning, its segments checked
and laid end to end, live rows only, so that a search sees one store numbered from 0.

Opening reads and checks what is small (HASHED_ON_OPEN, layout.py: segment.json, offsets,
candidate tables, the keyword index's per-term and per-chunk arrays, deletions) and only the
sizes of what is large (chunk text, postings, positions, the FAISS indexes, mentions), which are
memory-mapped and checked as they are read. `rag ls --verify` hashes every byte.
"""

from __future__ import annotations

import dataclasses
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
from rag.index.live import LiveRows, live_layout
from rag.store.folder import StoreDir
from rag.store.layout import SEGMENT
from rag.store.manifest import (
    MANIFEST,
    PEOPLE,
    READERS,
    STORE_FORMAT,
    Manifest,
    SegmentEntry,
    checksum_problem,
    damaged,
    size_problem,
)
from rag.store.reader import SegmentReader
from rag.store.rows import Candidate, Chunk
from rag.store.segment import SegmentDeletions, SegmentRecord, check_files, load_deletions
from rag.store.tables import SegmentedTable

T = TypeVar("T")


@dataclass
class OpenSegment:
    reader: SegmentReader  # its files, and its deletions
    candidates: LiveRows  # where its live candidates stand in the store
    chunks: LiveRows  # and its live chunks

    @property
    def entry(self) -> SegmentEntry:
        return self.reader.entry

    @property
    def folder(self) -> Path:
        return self.reader.folder

    @property
    def record(self) -> SegmentRecord:
        return self.reader.record

    @property
    def deletions(self) -> SegmentDeletions | None:
        return self.reader.deletions


@dataclass
class OpenStore:
    """A verified generation: the manifest, its tables, and its indexes, loaded when first used."""

    root: Path
    generation: Path
    manifest: Manifest
    segments: list[OpenSegment]
    chunks: SegmentedTable[Chunk]
    candidates: SegmentedTable[Candidate]
    starts: np.ndarray  # first chunk of each live candidate, then the chunk count
    seniority: np.ndarray  # per candidate: index into seniority.LEVELS, -1 when unknown
    people: np.ndarray  # per candidate: the first candidate of its person (several CVs, one person)
    encoder_dir: Path
    lock: int | None = None  # the shared lock on the generation, held while the store is open
    _profiles: object = field(default=None, repr=False)

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
        from rag.index.dictionary import TermDictionary
        from rag.index.keyword import KeywordIndex

        def load():
            dictionary = TermDictionary([s.reader.dictionary() for s in self.segments])
            return KeywordIndex.load(
                [s.reader.keyword_files() for s in self.segments],
                [s.chunks for s in self.segments],
                [s.deletions.terms if s.deletions else None for s in self.segments],
                dictionary,
                self.manifest.term_count,
            )

        return self.checked(load)

    def dense_index(self):
        from rag.index.dense import DenseIndex

        return self.checked(
            lambda: DenseIndex.load(
                [s.reader.dense_files() for s in self.segments],
                [s.chunks for s in self.segments],
                self.manifest.dim,
                [s.record.approximate for s in self.segments],
            )
        )

    def mention_index(self):
        """Where the live chunks state skills (index/mentions.py), for rag match."""
        from rag.index.mentions import MentionIndex

        return self.checked(
            lambda: MentionIndex.load(
                [s.reader.mention_files() for s in self.segments], [s.chunks for s in self.segments]
            )
        )

    def okapi(self):
        """The reference BM25 (bm25.Bm25Reference) from every segment's bm25.pkl, each unpickled
        only once its bytes match their checksum."""
        from rag.index.bm25 import Bm25Reference

        return Bm25Reference([(self.checked(s.reader.term_counts), s.chunks.kept) for s in self.segments])

    def profiles(self):
        """The live candidates' profiles (profiles.StoredProfiles), read when first needed: by the
        first search (every row shows where its person lives and their years; filters read the
        columns)."""
        if self._profiles is None:
            from rag.store.profiles import joined_profiles

            parts = [self.checked(lambda s=s: s.reader.stored_profiles(self.root)) for s in self.segments]
            self._profiles = joined_profiles(parts, [s.candidates for s in self.segments])
        return self._profiles

    def files(self) -> list[tuple[str, int]]:
        """Every file of the generation and of its segments, relative to the store, with its size."""
        own = [
            (f"generations/{self.generation.name}/{name}", (self.generation / name).stat().st_size)
            for name in (MANIFEST, *self.manifest.artifacts)
        ]
        return own + [
            (f"segments/{s.entry.name}/{name}", (s.folder / name).stat().st_size)
            for s in self.segments
            for name in (SEGMENT, *s.record.files)
        ]

    def verify(self) -> int:
        """Hash every file of the generation, its segments and its encoder against the recorded
        checksums (raising on the first miss); how many files were checked."""
        from rag.index.export import encoder_problem

        for name in self.manifest.artifacts:
            problem = checksum_problem(self.generation, self.manifest.artifacts, name)
            if problem:
                raise damaged(self.root, problem)
        for s in self.segments:
            self.checked(lambda s=s: check_files(s.folder, s.record, s.record.files))
        problem = encoder_problem(self.encoder_dir)
        if problem:
            raise damaged(self.root, f"the encoder {self.encoder_dir.name}: {problem}")
        spec = orjson.loads((self.encoder_dir / SPEC_FILE).read_bytes())
        return len(self.files()) + 1 + len(spec.get("sha256", {}))

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


def read_manifest(root: Path, generation: Path) -> Manifest:
    """A generation's manifest, if this version reads its format."""
    try:
        manifest = Manifest.from_json((generation / MANIFEST).read_bytes())
    except (OSError, ValueError, TypeError) as exc:
        raise damaged(root, f"{MANIFEST} cannot be read ({type(exc).__name__})") from None
    if manifest.store_format != STORE_FORMAT:
        raise UserError(
            f"the store in {root} has format {manifest.store_format}, this version reads {STORE_FORMAT}",
            Fix("rebuild", {"store": str(root)}),
        )
    return manifest


def _open_generation(store: StoreDir, generation: Path, lock: int | None) -> OpenStore:
    root = store.root
    manifest = read_manifest(root, generation)
    problem = size_problem(generation, manifest.artifacts, manifest.artifacts)
    for name in manifest.artifacts:
        problem = problem or checksum_problem(generation, manifest.artifacts, name)
    if problem:
        raise damaged(root, problem)
    try:
        segments, tables = open_segments(store, generation, manifest)
    except DamagedFile as exc:
        raise damaged(root, str(exc)) from None
    chunk_tables, candidate_tables, counts, seniority = tables
    live_counts = np.concatenate(counts) if counts else np.zeros(0, np.int64)
    starts = np.concatenate([[0], np.cumsum(live_counts)]).astype(np.int64)
    found = {
        "candidates": len(live_counts),
        "chunks owned by candidates": int(starts[-1]),
        "live chunks": sum(s.chunks.count for s in segments),
    }
    expected = {
        "candidates": manifest.candidate_count,
        "chunks owned by candidates": manifest.chunk_count,
        "live chunks": manifest.bm25.get("corpus_size"),
    }
    for what, count in found.items():
        if count != expected[what]:
            raise damaged(root, f"{what}: {count}, but the manifest counts {expected[what]}")
    encoder_dir = store.encoders / manifest.encoder["key"]
    try:
        exported = orjson.loads((encoder_dir / SPEC_FILE).read_bytes()).get("model")
    except (OSError, ValueError):
        raise damaged(
            root, f"the encoder {manifest.encoder['key']} is missing or unreadable in {store.encoders}"
        ) from None
    if exported != manifest.embedding_model:
        raise damaged(root, f"the manifest names the model {manifest.embedding_model}, its encoder holds {exported}")
    chunks = SegmentedTable(
        chunk_tables, [s.chunks for s in segments], lambda c, row: dataclasses.replace(c, chunk_id=row)
    )
    candidates = SegmentedTable(
        candidate_tables,
        [s.candidates for s in segments],
        lambda c, row: dataclasses.replace(c, first_chunk=int(starts[row])),
    )
    people = np.load(generation / PEOPLE, allow_pickle=False)
    if people.shape != (manifest.candidate_count,) or (
        len(people) and not ((people >= 0) & (people <= np.arange(len(people)))).all()
    ):
        raise damaged(root, f"{PEOPLE} does not describe {manifest.candidate_count} candidates")
    return OpenStore(
        root,
        generation,
        manifest,
        segments,
        chunks,
        candidates,
        starts,
        np.concatenate(seniority) if seniority else np.zeros(0, np.int8),
        people,
        encoder_dir,
        lock,
    )


def open_segments(store: StoreDir, generation: Path, manifest: Manifest):
    """Each segment checked (HASHED_ON_OPEN, sizes, counts) with its deletions applied; and, per
    segment, its chunk and candidate tables, its live candidates' chunk counts and seniority."""
    from rag.store.manifest import DELETIONS

    entries = manifest.segment_entries()
    deletions = {}
    if DELETIONS in manifest.artifacts:
        deletions = load_deletions(generation / DELETIONS, {e.name: e.documents for e in entries})
    opened, tables = [], ([], [], [], [])
    for entry in entries:
        gone = deletions.get(entry.name)
        reader = SegmentReader.open(store.segments / entry.name, entry, gone)
        starts = reader.candidate_starts()
        kept = None if gone is None else ~gone.documents[reader.candidate_documents()]
        per_candidate = np.diff(starts)
        opened.append((reader, kept, None if kept is None else np.repeat(kept, per_candidate)))
        levels = reader.seniority()
        for table, part in zip(
            tables,
            (
                reader.chunk_table(store.root),
                reader.candidate_table(store.root),
                per_candidate if kept is None else per_candidate[kept],
                levels if kept is None else levels[kept],
            ),
        ):
            table.append(part)
    candidate_live = live_layout([r.record.candidates for r, _, _ in opened], [k for _, k, _ in opened])
    chunk_live = live_layout([r.record.chunks for r, _, _ in opened], [k for _, _, k in opened])
    segments = [OpenSegment(r, c, k) for (r, _, _), c, k in zip(opened, candidate_live, chunk_live)]
    return segments, tables
