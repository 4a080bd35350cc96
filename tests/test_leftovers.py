"""Nothing outlives its build (issue #34): extraction workers die with a build killed by SIGKILL,
and a build starts by removing the temporaries that killed builds left in the store, by their
exact names and types, never a file of anyone else's, never while a live build holds the lock."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import CHILD_PATH, HASH_MODEL
from pdfs import write_pdf

from rag.cli import main as rag
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import Searcher
from rag.store.open import open_store

ROOT = Path(__file__).resolve().parent.parent
CHILD_ENV = {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH}

# A build whose reader hangs on every file: each worker says its pid, then waits.
HANGING_BUILD = """
import os, sys, time
from pathlib import Path
import rag.ingest.extract as extract

def hangs(path, *args, **kwargs):
    (Path(sys.argv[3]) / str(os.getpid())).touch()
    time.sleep(600)

extract.extract_pdf = hangs
from rag.pipeline.builder import BuildSettings, build_store
build_store(Path(sys.argv[1]), Path(sys.argv[2]), BuildSettings(model=os.environ["EMBEDDING_MODEL"]))
"""

# A build killed (SIGKILL) at the moment it repoints `current`: its temporary link is made, not moved.
KILLED_IN_THE_SWAP = """
import os, signal, sys
from pathlib import Path
moved = os.replace

def replace(source, target, *args, **kwargs):
    if Path(source).name.startswith(".current."):
        os.kill(os.getpid(), signal.SIGKILL)
    return moved(source, target, *args, **kwargs)

os.replace = replace
from rag.pipeline.builder import BuildSettings, build_store
build_store(Path(sys.argv[1]), Path(sys.argv[2]), BuildSettings(model=os.environ["EMBEDDING_MODEL"]))
"""


def cvs(folder: Path, count: int) -> Path:
    for n in range(count):
        write_pdf(folder / f"cv_{n:02}.pdf", [f"Person {n:02}\nBackend engineer\nSkills: Python, SQL, Go"])
    return folder


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead and waiting to be reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
def test_extraction_workers_die_when_their_build_is_killed(tmp_path, hash_model):
    folder, said = cvs(tmp_path / "cvs", 16), tmp_path / "workers"  # 16 files: a worker per core
    said.mkdir()
    script = [sys.executable, "-c", HANGING_BUILD, str(folder), str(tmp_path / "store"), str(said)]
    build = subprocess.Popen(script, cwd=ROOT, env=os.environ | CHILD_ENV, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not any(said.iterdir()):
            assert build.poll() is None and time.monotonic() < deadline, "no worker started reading"
            time.sleep(0.05)
        time.sleep(0.3)  # every worker has its first file
        workers = [int(p.name) for p in said.iterdir()]
        assert workers and all(alive(pid) for pid in workers)
    finally:
        build.send_signal(signal.SIGKILL)
        build.wait()
    time.sleep(1)
    assert [pid for pid in workers if alive(pid)] == []


@pytest.mark.slow
def test_a_kill_during_the_swap_leaves_a_link_that_the_next_build_removes(tmp_path, hash_model):
    folder, store = cvs(tmp_path / "cvs", 3), tmp_path / "store"
    build_store(folder, store, BuildSettings())
    write_pdf(folder / "new.pdf", ["New Person\nData engineer\nSkills: Spark, Kafka"])
    script = [sys.executable, "-c", KILLED_IN_THE_SWAP, str(folder), str(store)]
    killed = subprocess.run(script, cwd=ROOT, env=os.environ | CHILD_ENV, capture_output=True)
    assert killed.returncode == -signal.SIGKILL
    left = [p.name for p in store.iterdir() if p.name.startswith(".current.")]
    assert len(left) == 1 and (store / left[0]).is_symlink()
    with open_store(store) as opened:  # the previous generation is still the live one, whole
        assert opened.manifest.candidate_count == 3
    result = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert not [p.name for p in store.iterdir() if p.name.startswith(".current.")]
    with open_store(store) as opened:
        assert opened.manifest.candidate_count == 4
        assert Searcher(opened).search("Spark", "bm25", 1).lists["bm25"][0].candidate.name == "New Person"


def plant_leftovers(store: Path) -> tuple[list[str], list[str]]:
    """What killed builds leave, and things of the same look that are not theirs."""
    leftovers = [
        "generations/.tmp-0123456789ab",
        "segments/.tmp-ba9876543210",
        "segments/.trash-000007-a1b2c3",
        ".current.89abcdef",
        ".manifest.json.01234567",
    ]
    for name in leftovers[:3]:
        (store / name).mkdir()
        (store / name / "part.npy").write_bytes(b"half written")
    for name in leftovers[3:]:
        (store / name).symlink_to("generations/gone")
    others = [".current.notes", ".tmp-0123456789ab", "generations/.tmp-short", ".current.deadbeef"]
    (store / others[0]).write_text("a user's file")
    (store / others[1]).mkdir()  # at the top of the store: no build puts a folder there
    (store / others[2]).mkdir()
    (store / others[3]).write_text("a file, not a link: a build never writes one by that name")
    return leftovers, others


def test_a_build_removes_the_temporaries_of_dead_builds_and_nothing_else(tmp_path, hash_model):
    folder, store = cvs(tmp_path / "cvs", 2), tmp_path / "store"
    build_store(folder, store, BuildSettings())
    leftovers, others = plant_leftovers(store)
    result = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(store)])
    assert result.exit_code == 0 and "is up to date" in result.output, result.output  # even with nothing to do
    assert [name for name in leftovers if os.path.lexists(store / name)] == []
    assert [name for name in others if not os.path.lexists(store / name)] == []
    with open_store(store) as opened:
        assert opened.manifest.candidate_count == 2


def test_the_temporaries_of_a_live_build_are_left_alone(tmp_path, hash_model):
    folder, store = cvs(tmp_path / "cvs", 2), tmp_path / "store"
    build_store(folder, store, BuildSettings())
    leftovers, _ = plant_leftovers(store)
    with (store / ".lock").open("a") as held:  # another build is writing
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(store)])
        assert result.exit_code == 0 and "is up to date" in result.output, result.output
        assert [name for name in leftovers if not os.path.lexists(store / name)] == []
        write_pdf(folder / "new.pdf", ["New Person\nData engineer\nSkills: Spark"])
        refused = CliRunner().invoke(rag, ["index", "--cv-dir", str(folder), "--store", str(store)])
        assert refused.exit_code == 1 and "another build is writing" in refused.output
        assert [name for name in leftovers if not os.path.lexists(store / name)] == []
