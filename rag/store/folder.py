"""The on-disk store: immutable generations, swapped in atomically, checked before use.

Layout of a store folder (OUT_DIR, default rag_store/):

    .cv-rag-store                      marks the folder as a store: only then may `rag clean` empty it
    current -> generations/<id>        the live generation (a relative symlink, replaced atomically)
    manifest.json, chunks.jsonl,       stable links through `current`, for people and scripts
    candidates.jsonl, profiles.jsonl,
    bm25.pkl, faiss.index
    generations/<id>/                  one complete build; .readers inside is locked by its searches
    encoders/<key>/                    ONNX exports of embedding models, shared by generations
    .lock                              held by the build that is writing

A build writes a new generation into generations/.tmp-*, and only when every file is complete
does it rename the folder and repoint `current`. A crash or Ctrl-C leaves the previous store as
it was. Old generations are pruned after a build, except the previous one and any that a reader
still holds (a shared lock on its .readers file), so a search never loses the files it is using.
The store folder itself is never renamed, so it can be a Docker bind mount; a build only writes
into a folder that is empty, new, or already a store.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
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

from rag.index import dense as dense_index

from rag.index import keyword as keyword_index
from rag.index.encoder import SPEC_FILE
from rag.errors import DamagedFile, UserError, fix
from rag.ingest.records import Candidate, Chunk
from rag.lexicon.seniority import LEVELS

STORE_FORMAT = 3  # 3: profiles.jsonl and profiles.index.npz
T = TypeVar("T")

MANIFEST = "manifest.json"
CHUNKS = "chunks.jsonl"
CHUNK_OFFSETS = "chunks.offsets.npy"  # byte offset of every line of chunks.jsonl, and the file size
CANDIDATES = "candidates.jsonl"  # one line per indexed CV (records.Candidate)
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


def _size_problem(generation: Path, manifest: Manifest, names: Iterable[str]) -> str | None:
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


class StoreDir:
    def __init__(self, root: Path):
        self.root = root
        self.current = root / "current"
        self.generations = root / "generations"
        self.encoders = root / "encoders"

    def is_store(self) -> bool:
        """Proof that the folder is a store: its marker, or the layout of a store made before markers."""
        if (self.root / MARKER).is_file():
            return True
        return self.current.is_symlink() and os.readlink(self.current).startswith("generations/")

    def claim(self) -> None:
        """Make the folder a store before a build writes anything, or refuse: a build never writes
        into a folder that holds anything but a store."""
        if self.root.exists() and not self.root.is_dir():
            raise UserError(f"{self.root} is a file, not a folder; choose a folder for the store")
        if self.root.is_dir() and not self.is_store():
            foreign = self._foreign()
            if foreign:
                shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
                raise UserError(f"{self.root} holds files that are not a store ({shown}); choose an empty or "
                                f"new folder for the store, nothing was written")
        self.root.mkdir(parents=True, exist_ok=True)
        if not (self.root / MARKER).is_file():
            _write_atomic(self.root / MARKER, b"cv-rag store: `rag clean` may empty this folder\n")

    def _foreign(self) -> list[str]:
        """What in a folder that is not (yet) a store did not come from a build. A store in the
        making (an encoder exported there, a first build that died) holds only its lock, generations
        named the way builds name them, and encoder exports; a build's pruning may remove those."""
        foreign = sorted(p.name for p in self.root.iterdir() if p.name not in {".gitkeep", ".lock", "generations",
                                                                              "encoders"})
        if self.generations.is_dir():
            foreign += [f"generations/{p.name}" for p in sorted(self.generations.iterdir())
                        if not (p.is_dir() and GENERATION_NAME.fullmatch(p.name))]
        if self.encoders.is_dir():
            foreign += [f"encoders/{p.name}" for p in sorted(self.encoders.iterdir())
                        if not (p.is_dir() and ((p / SPEC_FILE).is_file() or p.name.endswith(".tmp")))]
        return foreign

    def clean(self) -> list[str]:
        """Remove what a store consists of, and nothing else; the names of what is left over."""
        if not self.is_store():
            raise UserError(f"{self.root} is not a store (it has no {MARKER}); nothing was removed")
        with self.build_lock():
            generations = sorted(self.generations.iterdir()) if self.generations.is_dir() else []
            locks = [_exclusive(g) for g in generations]  # held until the generations are gone
            try:
                busy = [g.name for g, (free, _) in zip(generations, locks) if not free]
                if busy:
                    raise UserError(f"a search is using the store in {self.root} (generation {busy[0]}); "
                                    "stop it and run again; nothing was removed")
                for name in (*CORE_FILES, EVAL_REPORT):
                    link = self.root / name
                    if link.is_symlink() or (name == EVAL_REPORT and link.is_file()):
                        link.unlink()
                if self.current.is_symlink():
                    self.current.unlink()
                for folder in (self.generations, self.encoders):
                    shutil.rmtree(folder, ignore_errors=True)
            finally:
                for _, fd in locks:
                    if fd is not None:
                        os.close(fd)
        (self.root / ".lock").unlink(missing_ok=True)
        (self.root / MARKER).unlink(missing_ok=True)
        return sorted(p.name for p in self.root.iterdir() if p.name != ".gitkeep")

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
        return (_size_problem(generation, manifest, manifest.artifacts) is None
                and (self.encoders / manifest.encoder["key"]).is_dir())

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
        (tmp / READERS).touch()
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
        self._prune(keep={final.name, previous.name if previous else None})
        return final

    def _prune(self, keep: set[str | None]) -> None:
        """Drop generations but the live one, the previous one and any a reader holds; then the
        encoders no remaining generation uses."""
        encoders_in_use: set[str] = set()
        for generation in sorted(self.generations.iterdir()):
            if generation.name in keep or not _remove_unless_read(generation, self.generations):
                try:
                    encoders_in_use.add(Manifest.from_json((generation / MANIFEST).read_bytes()).encoder["key"])
                except (OSError, ValueError, TypeError, KeyError):
                    pass
        if self.encoders.is_dir():
            for encoder in self.encoders.iterdir():
                if encoder.name not in encoders_in_use:
                    shutil.rmtree(encoder, ignore_errors=True)


def _exclusive(generation: Path) -> tuple[bool, int | None]:
    """Lock a generation against its readers, if none holds it: (free, the locked descriptor to
    close once done with it). No lock file means a half-written build or trash: nobody reads it."""
    try:
        fd = os.open(generation / READERS, os.O_RDONLY)
    except OSError:
        return True, None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False, None
    return True, fd


def _remove_unless_read(generation: Path, parent: Path) -> bool:
    """Remove a generation unless a reader holds its lock. It is renamed away while the lock is
    held, so a reader that opens it a moment later finds it gone and moves to the live one."""
    free, fd = _exclusive(generation)
    if not free:
        return False
    try:
        trash = parent / f".trash-{generation.name.lstrip('.')}-{secrets.token_hex(3)}"
        generation.rename(trash)
    finally:
        if fd is not None:
            os.close(fd)
    shutil.rmtree(trash, ignore_errors=True)
    return True


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


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

    def __init__(self, path: Path, offsets: np.ndarray, record: Callable[..., T], store_root: Path):
        self.path = path
        self.offsets = offsets
        self.record = record
        self.store_root = store_root

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
            raise damaged(self.store_root, f"line {row + 1} of {self.path.name} is not a record "
                                           f"({type(exc).__name__})") from None


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

    def checked(self, read: Callable[[], T]) -> T:
        """Run a read of store files, reporting a file that fails its checks as a damaged store."""
        try:
            return read()
        except DamagedFile as exc:
            raise damaged(self.root, str(exc)) from None


def damaged(root: Path, detail: str) -> UserError:
    return UserError(f"the store in {root} is damaged: {detail}; run "
                     + fix(f"make rebuild OUT_DIR={root}", f"rag index --force --out-dir {root}"))


def _index_hint(root: Path) -> str:
    return "run " + fix(f"make index OUT_DIR={root}", f"rag index --out-dir {root}") + " first"


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
                raise UserError(f"no store at {root}: {_index_hint(root)}")
            raise UserError(f"no built store in {root}: {_index_hint(root)}")
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
                        f"{STORE_FORMAT}; run " + fix(f"make rebuild OUT_DIR={root}", f"rag index --force --out-dir {root}"))
    problem = _size_problem(generation, manifest, ARTIFACTS)
    if problem:
        raise damaged(root, problem)
    for name in HASHED_ON_OPEN:
        verify_checksum(root, generation, manifest, name)
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
    try:
        exported = orjson.loads((encoder_dir / SPEC_FILE).read_bytes()).get("model")
    except (OSError, ValueError):
        raise damaged(root, f"the encoder {manifest.encoder['key']} is missing or unreadable in {store.encoders}") from None
    if exported != manifest.embedding_model:
        raise damaged(root, f"the manifest names the model {manifest.embedding_model}, its encoder holds {exported}")
    return OpenStore(root, generation, manifest, JsonlTable(generation / CHUNKS, offsets, Chunk, root),
                     JsonlTable(generation / CANDIDATES, candidate_offsets, Candidate, root), starts, seniority,
                     encoder_dir, lock)


def write_candidates(folder: Path, candidates: list[Candidate]) -> None:
    """candidates.jsonl and the arrays search reads for every candidate at once."""
    offsets = write_jsonl(folder / CANDIDATES, (c.to_dict() for c in candidates))
    starts = np.asarray([c.first_chunk for c in candidates] + [sum(c.chunk_count for c in candidates)], np.int64)
    seniority = np.asarray([LEVELS.index(c.seniority) if c.seniority else -1 for c in candidates], np.int8)
    with (folder / CANDIDATE_INDEX).open("wb") as f:
        np.savez(f, offsets=offsets, starts=starts, seniority=seniority)
