"""Shared fixtures: offline model settings, PDFs made on the spot, and one ONNX export per session."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import tempfile
import time
from importlib import metadata
from pathlib import Path

import pytest
from fakes.hash_encoder import register as register_fake_encoder
from hypothesis import settings
from pdfs import CVS, write_pdf

import rag.index.export
from rag.cli.console import user_cache_root
from rag.index.export import encoder_key, encoder_problem, export_encoder
from rag.index.model_choice import BUNDLED_MODEL, resolve_model

register_fake_encoder()  # hash-words-N, for the fast tests (fakes/hash_encoder.py)
# Hypothesis (tests/test_fuzz.py): few enough examples for `make test`, no deadline (a shared,
# loaded machine is no place for timings); HYPOTHESIS_PROFILE=deep searches a hundred times longer.
settings.register_profile("make-test", max_examples=60, deadline=None)
settings.register_profile("deep", max_examples=6000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "make-test"))
FAKES = Path(__file__).parent / "fakes"  # on a subprocess's PYTHONPATH, its sitecustomize registers it too
# A subprocess's PYTHONPATH: the fakes, and this tree, so that it runs this tree's rag and never
# whichever checkout the running venv has installed in editable mode.
CHILD_PATH = os.pathsep.join([str(FAKES), str(FAKES.parent.parent)])


@pytest.fixture(autouse=True)
def offline_model(monkeypatch, tmp_path):
    """Every test runs like CI: no hub, the bundled all-MiniLM-L6-v2 in fp32, none of the caller's output
    settings (make's RAG_VIA_MAKE words errors for make; NO_COLOR), and a cache of model exports
    of its own (`rag index` never writes into the user's)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # Beside the test's folder, not in it: many tests read tmp_path as a folder of CVs.
    cache = tmp_path.parent / f"{tmp_path.name}-xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    _share_derived_lists(cache / "cv-rag")
    monkeypatch.setenv("EMBEDDING_MODEL", BUNDLED_MODEL)
    # The same stores on every CPU: `rag index` embeds in fp32 unless a test asks for its machine's
    # choice (tests/test_arithmetic.py), which would pick bf16 where there is AMX.
    monkeypatch.setenv("RAG_ENCODER", "fp32")
    monkeypatch.delenv("RAG_VIA_MAKE", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


# The tests' own corner of the user's cache, read when the tests start (before offline_model points
# XDG_CACHE_HOME at each test's own folder).
TEST_CACHE = user_cache_root() or Path(tempfile.gettempdir()) / "cv-rag"
# What rag.files.kept derives from the package's data (the spelling lists, the city table) is the
# same for every test, so the tests' caches share one copy of it, made once per machine: folded
# anew in each test's empty cache it cost a subprocess 3-6 s (a tenth of make test on an AVX2
# EPYC). The kept files are named by everything that shapes them; tests/test_kept.py and the
# gazetteer's cache test point the cache elsewhere and see it built.
SHARED_KEPT = TEST_CACHE / "test-kept"
_KEPT_KINDS = ("spelling", "gazetteer")


def _share_derived_lists(cache_root: Path) -> None:
    cache_root.mkdir(parents=True, exist_ok=True)
    for kind in _KEPT_KINDS:
        try:
            (SHARED_KEPT / kind).mkdir(parents=True, exist_ok=True)
        except OSError:  # a home that cannot be written: each test folds its own, as before
            continue
        (cache_root / kind).symlink_to(SHARED_KEPT / kind, target_is_directory=True)


HASH_MODEL = "hash-words-64"


@pytest.fixture
def hash_model(monkeypatch):
    """The hashing encoder instead of the real model: for fast, exact command-line and rendering tests
    (in subprocesses too: FAKES on their PYTHONPATH registers it)."""
    monkeypatch.setenv("EMBEDDING_MODEL", HASH_MODEL)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [CHILD_PATH, os.environ.get("PYTHONPATH")])))
    return HASH_MODEL


@pytest.fixture
def cv_dir(tmp_path) -> Path:
    folder = tmp_path / "cvs"
    for cv_id, text in CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", [text])
    return folder


@pytest.fixture(scope="session")
def exported_encoder() -> Path:
    """The bundled model's export, made once per machine and kept between test runs (an export
    imports torch and sentence-transformers: 10 s on a quiet machine, 50 s at load 11).

    It lives in the user's cache (USER_EXPORTS), under a hash of the code that makes and runs exports, so that a change to that code exports anew; its
    files are checked against their checksums at the start of every run and a damaged copy is
    made again. With `pytest -n 2` the workers share it: the first makes it under a lock, the
    other waits. A fresh export of this tree is tested on its own (make test-slow).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    source = resolve_model(BUNDLED_MODEL, True, print)
    folder = USER_EXPORTS / _export_code_hash() / encoder_key(source)  # named as a store names it
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(USER_EXPORTS / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if folder.exists() and encoder_problem(folder, "fp32") is not None:
            shutil.rmtree(folder)
        if not folder.exists():
            export_encoder(source, folder)
        os.utime(folder.parent)
        _prune_unused_exports(folder.parent)
    return folder


USER_EXPORTS = TEST_CACHE / "test-exports"
_EXPORT_CODE = ("export.py", "encoder.py", "model_choice.py")


def _export_code_hash() -> str:
    """What the export depends on besides its key: this tree's export code and the libraries' versions."""
    digest = hashlib.sha256()
    for name in _EXPORT_CODE:
        digest.update((Path(rag.index.export.__file__).parent / name).read_bytes())
    for package in ("torch", "transformers", "sentence-transformers", "onnxruntime", "onnx"):
        digest.update(metadata.version(package).encode())
    return digest.hexdigest()[:10]


def _prune_unused_exports(current: Path, days: int = 7) -> None:
    """Exports of other code versions not used for a week (each is 90 MB)."""
    stale = time.time() - days * 86400
    for other in current.parent.iterdir():
        if other != current and other.is_dir() and other.stat().st_mtime < stale:
            shutil.rmtree(other, ignore_errors=True)


@pytest.fixture
def store_dir(tmp_path, exported_encoder) -> Path:
    """An empty store folder that already holds the session's encoder export (hard links)."""
    return store_with_encoder(tmp_path / "store", exported_encoder)


def store_with_encoder(root: Path, exported_encoder: Path) -> Path:
    target = root / "encoders" / exported_encoder.name
    shutil.copytree(exported_encoder, target, copy_function=_link_or_copy)
    return root


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def pytest_collection_modifyitems(items):
    """The Ray module first: with `pytest -n 2` it mostly waits on its cluster, so it starts at once
    on one worker while the other takes the rest of the suite."""
    items.sort(key=lambda item: item.nodeid.split("::")[0] != "tests/test_ray_engine.py")


_WHOLLY_SLOW = re.compile(r"^pytestmark = pytest\.mark\.slow\b", re.M)


def pytest_ignore_collect(collection_path: Path, config):
    """Where the run leaves slow tests out (make test: -m "... not slow"), a module marked slow as a
    whole is not even imported: every xdist worker collects the whole suite, and those modules'
    imports (Hypothesis, Ray, a browser driver) cost each worker seconds for no test it runs."""
    if "not slow" not in (config.option.markexpr or "") or not collection_path.name.startswith("test_"):
        return None
    return True if _WHOLLY_SLOW.search(collection_path.read_text(encoding="utf-8")) else None
