"""The on-disk store: immutable generations, swapped in atomically, checked before use.

Layout of a store folder (STORE, default rag_store/):

    .cv-rag-store                      marks the folder as a store: only then may `rag clean` empty it
    current -> generations/<id>        the live generation (a relative symlink, replaced atomically)
    manifest.json                      a stable link through `current`, for people and scripts
    generations/<id>/                  one build: its manifest (listing its segments) and deletions;
                                       .readers inside is locked by its searches
    segments/<nnnnnn>/                 CVs with their chunks and indexes, written once, shared by generations
    encoders/<key>/                    ONNX exports of embedding models, shared by generations
    .lock                              held by the build that is writing

A build writes its new segments into segments/.tmp-* and renames each into place when it is
complete and sealed; it then writes the new generation into generations/.tmp-*, and only when
that is complete does it rename it and repoint `current`. A crash or Ctrl-C at any point leaves
the previous generation live and whole (a segment no generation lists is never read, and the
next build removes it). Old generations are pruned after a build, except the previous one and
any that a reader still holds (a shared lock on its .readers file); a segment is removed only
when no remaining generation lists it, so a search never loses the files it is using. The store
folder itself is never renamed, so it can be a Docker bind mount; a build only writes into a
folder that is empty, new, or already a store.

Only a build holding .lock (which records its pid) makes temporaries: the .tmp-* and .trash-*
folders in generations/ and segments/, and the `.current.<hex>` link of a swap. So a build that
finds the lock free may remove every one of them, whatever killed their maker; each build does so
as it starts (claim), matching each by the exact name and type a build gives it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rag.errors import UserError
from rag.files import write_atomic
from rag.index.encoder import SPEC_FILE
from rag.store.manifest import (
    EVAL_REPORT,
    GENERATION_NAME,
    LINKS,
    MANIFEST,
    MARKER,
    OLD_LINKS,
    READERS,
    SEGMENT_NAME,
    Manifest,
    file_record,
)

# The names a build gives its temporaries (secrets.token_hex: 6 bytes a folder, 4 a link).
_TEMPORARY_FOLDER = re.compile(r"\.tmp-[0-9a-f]{12}|\.trash-.+-[0-9a-f]{6}")
_SWAPPED = "|".join(re.escape(name) for name in ("current", *LINKS))
_TEMPORARY_LINK = re.compile(rf"\.(?:{_SWAPPED})\.[0-9a-f]{{8}}")


class StoreDir:
    def __init__(self, root: Path):
        self.root = root
        self.current = root / "current"
        self.generations = root / "generations"
        self.segments = root / "segments"
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
                raise UserError(
                    f"{self.root} holds files that are not a store ({shown}); choose an empty or "
                    f"new folder for the store, nothing was written"
                )
        self.root.mkdir(parents=True, exist_ok=True)
        if not (self.root / MARKER).is_file():
            write_atomic(self.root / MARKER, b"cv-rag store: `rag clean` may empty this folder\n")
        self._remove_leftovers()

    def _remove_leftovers(self) -> None:
        """Remove the temporaries of builds that died. Only a build holding .lock makes them, so with
        the lock taken here none is live; nothing is done when there are none (the lock is not even
        tried), when a build holds it, or when the store cannot be written (a read-only mount)."""
        if not self._leftovers():
            return
        try:
            f = (self.root / ".lock").open("a")
        except OSError:
            return
        with f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return
            try:
                for path in self._leftovers():
                    if path.is_symlink():
                        path.unlink(missing_ok=True)
                    else:
                        shutil.rmtree(path, ignore_errors=True)
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def _leftovers(self) -> list[Path]:
        """The temporaries in the store, by the exact name and type a build gives each."""
        found = [p for p in self.root.iterdir() if _TEMPORARY_LINK.fullmatch(p.name) and p.is_symlink()]
        for folder in (self.generations, self.segments):
            if folder.is_dir():
                found += [
                    p
                    for p in folder.iterdir()
                    if _TEMPORARY_FOLDER.fullmatch(p.name) and p.is_dir() and not p.is_symlink()
                ]
        return found

    def _foreign(self) -> list[str]:
        """What in a folder that is not (yet) a store did not come from a build. A store in the
        making (an encoder exported there, a first build that died) holds only its lock, generations
        named the way builds name them, and encoder exports; a build's pruning may remove those."""
        foreign = sorted(
            p.name
            for p in self.root.iterdir()
            if p.name not in {".gitkeep", ".lock", "generations", "segments", "encoders"}
        )
        for folder, pattern in ((self.generations, GENERATION_NAME), (self.segments, SEGMENT_NAME)):
            if folder.is_dir():
                foreign += [
                    f"{folder.name}/{p.name}"
                    for p in sorted(folder.iterdir())
                    if not (p.is_dir() and pattern.fullmatch(p.name))
                ]
        if self.encoders.is_dir():
            foreign += [
                f"encoders/{p.name}"
                for p in sorted(self.encoders.iterdir())
                if not (p.is_dir() and ((p / SPEC_FILE).is_file() or p.name.endswith(".tmp")))
            ]
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
                    raise UserError(
                        f"a search is using the store in {self.root} (generation {busy[0]}); "
                        "stop it and run again; nothing was removed"
                    )
                for name in (*LINKS, *OLD_LINKS, EVAL_REPORT):
                    link = self.root / name
                    if link.is_symlink() or (name == EVAL_REPORT and link.is_file()):
                        link.unlink()
                if self.current.is_symlink():
                    self.current.unlink()
                for folder in (self.generations, self.segments, self.encoders):
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
        with _private(self.generations) as tmp:
            yield tmp

    @contextmanager
    def new_segment(self) -> Iterator[Path]:
        """A private folder for a segment being written; removed unless adopt_segment() took it."""
        with _private(self.segments) as tmp:
            yield tmp

    def adopt_segment(self, tmp: Path, number: int) -> str:
        """Give a sealed segment its name; no generation lists it until one is committed."""
        name = f"{number:06d}"
        if (self.segments / name).exists():  # left by a build that died before committing its generation
            _remove(self.segments / name, self.segments)
        tmp.rename(self.segments / name)
        return name

    def commit(self, tmp: Path, manifest: Manifest, artifacts: tuple[str, ...]) -> Path:
        """Seal the generation (its files' hashes, manifest last), make it live, and drop old
        generations and the segments none of the remaining ones lists."""
        manifest.artifacts = {name: file_record(tmp / name) for name in artifacts}
        (tmp / READERS).touch()
        (tmp / MANIFEST).write_bytes(manifest.to_json())
        fsync_tree(tmp)
        previous = self.live_generation()
        final = self.generations / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{secrets.token_hex(3)}"
        tmp.rename(final)
        _replace_symlink(self.current, os.path.relpath(final, self.root))
        for name in LINKS:
            link = self.root / name
            if not link.is_symlink():
                _replace_symlink(link, f"current/{name}")
        for name in OLD_LINKS:  # a store of format 3 linked these; they now point nowhere
            if (self.root / name).is_symlink():
                (self.root / name).unlink()
        self._prune(keep={final.name, previous.name if previous else None})
        return final

    def _prune(self, keep: set[str | None]) -> None:
        """Drop generations but the live one, the previous one and any a reader holds; then the
        segments and encoders no remaining generation uses."""
        segments_in_use: set[str] = set()
        encoders_in_use: set[str] = set()
        for generation in sorted(self.generations.iterdir()):
            if generation.name in keep or not _remove_unless_read(generation, self.generations):
                try:
                    manifest = Manifest.from_json((generation / MANIFEST).read_bytes())
                except (OSError, ValueError, TypeError):
                    continue
                encoders_in_use.add(manifest.encoder.get("key"))
                segments_in_use.update(s.get("name") for s in manifest.segments)
        for folder, in_use in ((self.segments, segments_in_use), (self.encoders, encoders_in_use)):
            if folder.is_dir():
                for entry in folder.iterdir():
                    if entry.name not in in_use:
                        _remove(entry, folder)


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


# numpy's np.save to a file reports a short write with no errno ("8132 requested and 4080 written"):
# on a store's disk that is a full disk (or quota), and is reported as one.
_SHORT_WRITE = re.compile(r"\d+ requested and \d+ written")


@contextmanager
def _private(parent: Path) -> Iterator[Path]:
    parent.mkdir(parents=True, exist_ok=True)
    tmp = parent / f".tmp-{secrets.token_hex(6)}"
    tmp.mkdir()
    try:
        yield tmp
    except OSError as exc:
        if exc.errno is None and _SHORT_WRITE.fullmatch(str(exc)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)) from exc
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _remove(path: Path, parent: Path) -> None:
    """Rename away, then delete: a half-deleted folder never keeps a name a build or reader uses."""
    trash = parent / f".trash-{path.name.lstrip('.')}-{secrets.token_hex(3)}"
    try:
        path.rename(trash)
    except OSError:
        return
    shutil.rmtree(trash, ignore_errors=True)


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


def _replace_symlink(link: Path, target: str) -> None:
    tmp = link.with_name(f".{link.name}.{secrets.token_hex(4)}")
    os.symlink(target, tmp)
    os.replace(tmp, link)


def fsync_tree(folder: Path) -> None:
    for path in folder.iterdir():
        with path.open("rb") as f:
            os.fsync(f.fileno())
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
