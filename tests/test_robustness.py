"""What a clumsy or unlucky user does to a store: kill a build at every step of the swap, search
while it is rebuilt, damage files, make the folder read-only or the disk full, swap variables.
Every case ends in one clear line and the right exit status, and never loses a file that is not
the store's. Builds use the hashing encoder, so each takes milliseconds."""

from __future__ import annotations

import contextlib
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import orjson
import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import CHILD_PATH, HASH_MODEL

from rag.cli import main as rag
from rag.errors import UserError
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import Searcher
from rag.store.folder import StoreDir
from rag.store.manifest import MARKER
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def built(cv_dir, tmp_path, hash_model):
    store = tmp_path / "store"
    build_store(cv_dir, store, BuildSettings())
    return cv_dir, store


def rag_cli(*args, env=None, color=False):
    result = CliRunner().invoke(rag, [str(a) for a in args], env=env, color=color, catch_exceptions=False)
    return result.exit_code, result.output


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in output, output
    return lines[0]


def searchable(store: Path) -> str:
    with open_store(store) as opened:
        return Searcher(opened).search("Jenkins", "bm25", topk=1).lists["bm25"][0].candidate.cv_id


# ---- kill -9 at every step of the swap ---------------------------------------------------------

# (function to interrupt, which call of it): before the finished generation is renamed into place,
# before `current` moves to it, after that but before pruning, and in the middle of pruning.
KILL_POINTS = [("Path.rename", 1), ("_replace_symlink", 1), ("StoreDir._prune", 1), ("_remove_unless_read", 1)]


@pytest.mark.slow
@pytest.mark.parametrize("target,call", KILL_POINTS)
def test_kill_9_at_any_step_of_the_swap_leaves_a_working_store(built, target, call):
    cv_dir, store = built
    before = searchable(store)
    build_store(cv_dir, store, BuildSettings(), force=True)  # a previous generation exists to prune
    script = textwrap.dedent(f"""
        import os, signal, pathlib
        import rag.store.folder as store_module
        from rag.pipeline.builder import BuildSettings, build_store
        owner, _, attribute = "{target}".rpartition(".")
        holder = pathlib.Path if owner == "Path" else getattr(store_module, owner) if owner else store_module
        original = getattr(holder, attribute)
        calls = []
        def dying(*args, **kwargs):
            if holder is not pathlib.Path or "generations" in str(args[0]):
                calls.append(1)
                if len(calls) == {call}:
                    os.kill(os.getpid(), signal.SIGKILL)
            return original(*args, **kwargs)
        setattr(holder, attribute, dying)
        build_store(pathlib.Path("{cv_dir}"), pathlib.Path("{store}"), BuildSettings(model="{HASH_MODEL}"), force=True)
    """)
    env = os.environ | {"EMBEDDING_MODEL": HASH_MODEL, "PYTHONPATH": CHILD_PATH}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True)
    assert done.returncode == -9, done.stderr.decode()[-500:]
    assert searchable(store) == before  # the old generation or the new one: either is whole
    build_store(cv_dir, store, BuildSettings(), force=True)  # the next build recovers and tidies up
    leftovers = [p.name for p in (store / "generations").iterdir() if p.name.startswith(".")]
    assert leftovers == [] and searchable(store) == before


# ---- readers across rebuilds -------------------------------------------------------------------


def test_a_reader_survives_any_number_of_rebuilds(built):
    cv_dir, store = built
    reader = open_store(store)
    searcher = Searcher(reader)
    for _ in range(4):
        build_store(cv_dir, store, BuildSettings(), force=True)
        assert searcher.search("Jenkins", "hybrid", topk=2).lists["fused"][0].candidate.cv_id == "alice"
    assert reader.generation.is_dir()  # pruning skipped it while it was held
    reader.close()
    build_store(cv_dir, store, BuildSettings(), force=True)
    assert not reader.generation.exists()  # released: the next build prunes it
    assert len(list((store / "generations").iterdir())) == 2  # the live one and the previous one


def test_the_previous_generation_is_kept_with_a_relative_store_path(cv_dir, tmp_path, hash_model, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(3):
        build_store(cv_dir, Path("rag_store"), BuildSettings(), force=True)
    assert len(list(Path("rag_store/generations").iterdir())) == 2


# ---- damaged files -----------------------------------------------------------------------------


def flip(path: Path, offset: int) -> None:
    """Change one byte in place: same size, so only a content check can tell."""
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x55
    path.write_bytes(bytes(data))


def store_file(store: Path, name: str) -> Path:
    """A file of the live generation, or of its first segment."""
    generation = StoreDir(store).live_generation()
    if (generation / name).exists():
        return generation / name
    return store / "segments" / orjson.loads((generation / "manifest.json").read_bytes())["segments"][0]["name"] / name


@pytest.mark.parametrize(
    "name,offset",
    [
        ("faiss.index", 3),
        ("faiss.index", -40),
        ("mentions.skills.npz", -5),
        ("chunks.jsonl", 1),
        ("candidates.jsonl", 1),
        ("manifest.json", 0),
        ("segment.json", 2),
        ("keyword.indptr.npy", -3),
    ],
)
def test_same_size_damage_is_a_damaged_store_line(built, name, offset):
    _, store = built
    path = store_file(store, name)
    if name == "faiss.index" and offset < 0:  # bit rot in a vector: a component of 1e28, as once seen
        data = bytearray(path.read_bytes())
        data[offset : offset + 4] = struct.pack("<f", 1e28)
        path.write_bytes(bytes(data))
    else:
        flip(path, offset)
    code, output = rag_cli("search", "Who has experience with Jenkins?", "--store", store)
    line = one_line(output)
    assert code == 1 and f"the store in {store} is damaged" in line and f"--store {store}" in line


def test_verify_hashes_what_a_search_does_not_read(built):
    _, store = built
    flip(store_file(store, "documents.jsonl"), 5)
    flip(store_file(store, "keyword.positions.npy"), -1)
    assert rag_cli("ls", "--store", store)[0] == 0  # a listing does not read them, nor does a search
    assert rag_cli("search", "Jenkins", "--store", store)[0] == 0
    code, output = rag_cli("ls", "--store", store, "--verify")
    assert code == 1 and "segments/000001/documents.jsonl does not match its checksum" in one_line(output)


def test_a_manifest_naming_another_model_is_caught(built):
    _, store = built
    manifest = StoreDir(store).live_generation() / "manifest.json"
    manifest.write_text(
        manifest.read_text().replace(f'"embedding_model": "{HASH_MODEL}"', '"embedding_model": "intfloat/e5-large-v2"')
    )
    code, output = rag_cli("search", "Jenkins", "--store", store)
    assert code == 1 and "intfloat/e5-large-v2" in one_line(output)


def test_an_invalid_manifest_is_one_line_for_ls(built):
    _, store = built
    (StoreDir(store).live_generation() / "manifest.json").write_text("{ not json")
    code, output = rag_cli("ls", "--store", store)
    assert code == 1 and "manifest.json cannot be read" in one_line(output)


def test_a_damaged_onnx_encoder_is_reported_then_exported_again(cv_dir, store_dir, monkeypatch):
    monkeypatch.setenv("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")
    build_store(cv_dir, store_dir, BuildSettings())
    encoder = next((store_dir / "encoders").iterdir())
    good = {p.name: p.read_bytes() for p in encoder.iterdir()}
    model = encoder / "model.onnx"
    model.unlink()  # the fixture hard-links the session's export: never write through it
    model.write_bytes(good["model.onnx"][: len(good["model.onnx"]) // 2])
    code, output = rag_cli("search", "Jenkins", "--store", store_dir)
    assert code == 1 and "damaged" in one_line(output) and "encoder" in output

    import rag.index.export

    exported = []

    def export_again(source, dest):  # stands in for the real export, which takes seconds
        exported.append(dest.name)
        dest.mkdir()
        for name, data in good.items():
            (dest / name).write_bytes(data)

    monkeypatch.setattr(rag.index.export, "export_encoder", export_again)
    build_store(cv_dir, store_dir, BuildSettings(), force=True)
    assert exported == [encoder.name] and model.read_bytes() == good["model.onnx"]
    assert searchable(store_dir) == "alice"


# ---- folders that cannot be written ------------------------------------------------------------


@contextlib.contextmanager
def tmpfs(where: Path, size: str):
    """A small tmpfs at `where` (root only); skips the test with the reason otherwise."""
    where.mkdir(parents=True)
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_is_one_line_and_the_old_store_stays(cv_dir, tmp_path, hash_model):
    with tmpfs(tmp_path / "small", "600k") as disk:
        store = disk / "store"
        build_store(cv_dir, store, BuildSettings())
        before = searchable(store)
        filler = disk / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as f:
            while True:
                f.write(b"\0" * 65536)
        code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", store, "--force", "--quiet")
        line = one_line(output)
        assert code == 1 and "No space left on device" in line and "the existing store is unchanged" in line
        filler.unlink()
        assert searchable(store) == before


def test_a_read_only_store_still_searches_and_refuses_builds(cv_dir, tmp_path, hash_model):
    with tmpfs(tmp_path / "ro", "4m") as disk:
        store = disk / "store"
        build_store(cv_dir, store, BuildSettings())
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        assert searchable(store) == "alice"
        code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", store, "--force")
        assert code == 1 and "Read-only file system" in one_line(output)


def test_a_file_where_the_store_folder_should_be(cv_dir, tmp_path, hash_model):
    (tmp_path / "store").write_text("not a folder")
    code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", tmp_path / "store")
    assert code == 1 and "is a file, not a folder" in one_line(output)
    code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", tmp_path / "store" / "inside")
    assert code == 1 and "Not a directory" in one_line(output)


# ---- swapped variables: never touch what is not ours -------------------------------------------


def test_clean_refuses_a_folder_that_is_not_a_store(tmp_path):
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "thesis.txt").write_text("four years of work")
    code, output = rag_cli("clean", "--store", folder)
    assert code == 1 and "not a store" in one_line(output)
    assert (folder / "thesis.txt").read_text() == "four years of work"
    code, output = rag_cli("clean", "--store", tmp_path / "missing")
    assert code == 0 and "nothing to remove" in output


def test_clean_removes_the_store_and_only_the_store(built):
    _, store = built
    (store / "notes.txt").write_text("mine")
    code, output = rag_cli("clean", "--store", store)
    assert code == 0 and "kept what is not part of a store: notes.txt" in output
    assert sorted(p.name for p in store.iterdir()) == ["notes.txt"]


def test_clean_refuses_while_a_search_holds_the_store(built):
    _, store = built
    with open_store(store):
        code, output = rag_cli("clean", "--store", store)
        assert code == 1 and "a search is using the store" in one_line(output)
    assert rag_cli("clean", "--store", store)[0] == 0


def test_a_build_into_a_folder_of_other_files_is_refused(cv_dir, tmp_path, hash_model):
    (tmp_path / "cvs-copy").mkdir()
    (tmp_path / "cvs-copy" / "my cv.pdf").write_bytes(b"%PDF-1.4 mine")
    code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", tmp_path / "cvs-copy")
    assert code == 1 and "holds files that are not a store (my cv.pdf)" in one_line(output)
    assert [p.name for p in (tmp_path / "cvs-copy").iterdir()] == ["my cv.pdf"]


@pytest.mark.parametrize(
    ("mine", "named"),
    [
        ("generations/notes.txt", "generations/notes.txt"),
        ("generations/2024/plan.txt", "generations/2024"),
        ("encoders/mine/a.txt", "encoders/mine"),
        ("current", "current"),
    ],
)
def test_a_build_refuses_folders_named_like_a_stores_that_it_did_not_make(cv_dir, tmp_path, hash_model, mine, named):
    """Pruning empties generations/ and encoders/ of a store: a user's folders of those names are
    not a store in the making, and a build leaves them alone."""
    out = tmp_path / "out"
    (out / mine).parent.mkdir(parents=True, exist_ok=True)
    (out / mine).write_text("mine")
    code, output = rag_cli("index", "--cv-dir", cv_dir, "--store", out)
    assert code == 1 and f"holds files that are not a store ({named})" in one_line(output)
    assert (out / mine).read_text() == "mine" and not (out / ".cv-rag-store").exists()


# ---- command-line conventions ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["search", "Jenkins", "--topk", "0"],
        ["search", "Jenkins", "--mode", "nope"],
        ["search", "   "],
        ["search", "\udcff\udcfe"],
        ["index", "--bogus"],
        ["nosuchcommand"],
        ["search", "Jenkins", "--weights", "bm25"],
    ],
)
def test_usage_errors_exit_2_with_one_line(built, args):
    _, store = built
    code, output = rag_cli(*args, "--store", store) if args[0] == "search" else rag_cli(*args)
    assert code == 2
    one_line(output)


def test_errors_through_make_name_the_variable(built):
    _, store = built
    code, output = rag_cli("search", "Jenkins", "--mode", "nope", "--store", store, env={"RAG_VIA_MAKE": "1"})
    assert code == 2 and "MODE= (--mode)" in one_line(output)


def test_no_color_is_honoured(built):
    _, store = built
    colored = rag_cli("search", "Jenkins", "--store", store, color=True)[1]
    plain = rag_cli("search", "Jenkins", "--store", store, color=True, env={"NO_COLOR": "1"})[1]
    assert "\x1b[" in colored and "\x1b[" not in plain


def test_the_store_marker_is_written_once_and_proves_a_store(built):
    _, store = built
    assert (store / MARKER).is_file() and StoreDir(store).is_store()
    with pytest.raises(UserError, match="not a store"):
        StoreDir(store.parent).clean()
