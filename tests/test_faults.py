"""Faults in the middle of a build (issue #45): the disk fills up, the store folder turns read-only,
the build is killed (SIGKILL) at random moments. Each time the build ends in one clear line and a
non-zero exit (or is killed), leaves no temporary behind once the store can be written again, and
the store opens whole (every file against its checksum) to its previous or its new generation,
never a mix; a running `rag serve` goes on answering from the generation it has.
Builds use the hashing encoder; the disk and the read-only folder are real mounts (root only)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from builds import build_store
from conftest import CHILD_PATH, HASH_MODEL
from pdfs import CVS, write_pdf
from test_robustness import one_line, rag_cli, tmpfs
from web_site import fetch, serving

from rag.pipeline.builder import BuildSettings
from rag.store.folder import StoreDir
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def many_cvs(folder: Path, count: int = 40, first: int = 0) -> Path:
    """CVs first..count-1, a few hundred words each: a build of 20 writes about 650 kB."""
    people = list(CVS.items())
    for i in range(first, count):
        name, text = people[i % len(people)]
        write_pdf(folder / f"{name}{i}" / "cv.pdf", [f"{text}\nRef {i} " + " ".join(f"w{i}x{j}" for j in range(200))])
    return folder


def whole(store: Path) -> tuple[str, int]:
    """The live generation's name and its CV count, after every file is checked against its checksum."""
    with open_store(store) as opened:
        opened.verify()
        return opened.generation.name, len(opened.candidates.all())


def temporaries(store: Path) -> list[str]:
    """What builds leave when they die: .tmp-* and .trash-* folders, .current.* links."""
    found = [p.name for p in store.iterdir() if p.name.startswith(".current.")]
    for folder in ("generations", "segments"):
        if (store / folder).is_dir():
            found += [
                f"{folder}/{p.name}" for p in (store / folder).iterdir() if p.name.startswith((".tmp-", ".trash-"))
            ]
    return found


@contextlib.contextmanager
def grown(tmp_path: Path, size: str, count: int):
    """A store of 4 CVs on a tmpfs of size, whole (before: its generation and CV count), and its CV
    folder grown to count CVs for the next build."""
    cvs = many_cvs(tmp_path / "cvs", 4)
    with tmpfs(tmp_path / "disk", size) as disk:
        store = disk / "store"
        build_store(cvs, store, BuildSettings())
        before = whole(store)
        many_cvs(cvs, count, first=4)
        yield SimpleNamespace(cvs=cvs, disk=disk, store=store, before=before)


def fill(disk: Path, leave: int) -> Path:
    """A file that takes all of disk's free space but `leave` bytes."""
    stats = os.statvfs(disk)
    filler = disk / "filler"
    with filler.open("wb") as f:
        f.truncate(0)
        left = stats.f_bavail * stats.f_frsize - leave
        while left > 0:
            f.write(b"\0" * min(left, 1 << 20))
            left -= 1 << 20
    return filler


@pytest.mark.slow
def test_a_disk_that_fills_up_during_a_build_leaves_the_store_whole(tmp_path, hash_model):
    with grown(tmp_path, "1m", 20) as g:
        disk, store, big, before = g.disk, g.store, g.cvs, g.before
        with serving(store, big) as url:
            failed = 0
            for leave in (16_000, 200_000, 450_000):  # runs out at different steps of the build
                filler = fill(disk, leave)
                code, output = rag_cli("index", "--cv-dir", big, "--store", store, "--force", "--quiet")
                filler.unlink()
                assert temporaries(store) == [], leave
                if code == 0:  # it fitted after all: then the new generation is whole
                    assert whole(store)[1] == 20
                    continue
                failed += 1
                line = one_line(output)
                assert code == 1 and "No space left on device" in line, line
                assert whole(store) == before, leave
                answer = fetch(f"{url}/?q=Jenkins")  # the server goes on with the generation it has
                assert answer.status == 200 and "alice0" in answer.text
            assert failed == 3


# Where the store folder turns read-only: as a sealed segment is named, as the finished generation is
# named, and as `current` moves to it.
TURNS = ["StoreDir.adopt_segment", "StoreDir.commit", "_replace_symlink"]


@pytest.mark.parametrize("where", TURNS)
def test_a_store_folder_that_turns_read_only_during_a_build_leaves_it_whole(tmp_path, hash_model, where, monkeypatch):
    import rag.store.folder as folder

    with grown(tmp_path, "8m", 8) as g:
        store, big, before = g.store, g.cvs, g.before
        owner, _, name = where.rpartition(".")
        holder = getattr(folder, owner) if owner else folder
        original = getattr(holder, name)

        def turning(*args, **kwargs):  # the folder is mounted read-only over itself, then the step runs
            if not turned:
                subprocess.run(["mount", "--bind", "-o", "ro", str(store), str(store)], check=True)
                turned.append(store)
            return original(*args, **kwargs)

        turned: list[Path] = []

        monkeypatch.setattr(holder, name, turning)
        try:
            code, output = rag_cli("index", "--cv-dir", big, "--store", store, "--force", "--quiet")
            assert whole(store) == before  # readable as it was, read-only as it is
        finally:
            for _ in turned:
                subprocess.run(["umount", str(store)], check=True)
        assert code == 1 and "Read-only file system" in one_line(output)
        assert whole(store) == before
        monkeypatch.setattr(holder, name, original)
        # What the build could not remove while the folder was read-only, the next one removes first.
        build_store(big, store, BuildSettings(), force=True)
        assert temporaries(store) == [] and whole(store)[1] == 8


BUILDER = textwrap.dedent("""
    import pathlib, sys
    from rag.pipeline.builder import BuildSettings, build_store
    print("ready", flush=True)
    sys.stdin.readline()
    build_store(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), BuildSettings(model="{model}"), force=True)
""").format(model=HASH_MODEL)


def spawned_build(cv_dir: Path, store: Path) -> subprocess.Popen:
    """A build in its own process: it imports, says "ready", and starts on a line from stdin."""
    env = os.environ | {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH}
    return subprocess.Popen(
        [sys.executable, "-c", BUILDER, str(cv_dir), str(store)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def go(child: subprocess.Popen) -> None:
    assert child.stdout.readline() == "ready\n", child.stderr.read()
    child.stdin.write("go\n")
    child.stdin.flush()


@pytest.mark.slow
def test_a_build_killed_at_20_random_moments_leaves_the_previous_or_the_new_generation(tmp_path, hash_model):
    cvs, parked = many_cvs(tmp_path / "cvs", 4), many_cvs(tmp_path / "parked", 12, first=4)
    store = tmp_path / "store"
    build_store(cvs, store, BuildSettings())

    def holding(count: int) -> None:  # the CV folder with 4 or 12 CVs, so each generation is told apart
        moves = (parked, cvs) if count == 12 else (cvs, parked)
        for i in range(4, 12):
            name = f"{list(CVS)[i % len(CVS)]}{i}"
            if (moves[0] / name).exists():
                (moves[0] / name).rename(moves[1] / name)

    holding(12)
    timed = spawned_build(cvs, store)
    go(timed)
    start = time.monotonic()
    assert timed.wait(120) == 0, timed.stderr.read()
    span = time.monotonic() - start  # how long a whole build takes: the kills fall inside it
    rng = random.Random(45)
    outcomes = []
    with serving(store, cvs) as url:
        waiting = spawned_build(cvs, store)
        for i in range(20):
            child = waiting
            holding(4 if i % 2 else 12)
            go(child)
            waiting = spawned_build(cvs, store) if i < 19 else None  # imports meanwhile
            time.sleep(rng.uniform(0, span))
            child.send_signal(signal.SIGKILL)
            outcomes.append(child.wait(30))
            assert outcomes[-1] in (-signal.SIGKILL, 0), child.stderr.read()[-500:]
            _, count = whole(store)  # the previous generation or the new one, every file as recorded
            assert count in (4, 12), i
            assert fetch(f"{url}/status").status == 200, i  # the server goes on answering
        assert outcomes.count(-signal.SIGKILL) >= 10  # most died in the middle
        # The next build removes what the killed ones left, and makes a whole store.
        holding(4)
        build_store(cvs, store, BuildSettings(), force=True)
        assert temporaries(store) == [] and whole(store)[1] == 4
    assert StoreDir(store).is_store()
