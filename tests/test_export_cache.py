"""A model is exported once per machine: a per-user cache, checked, shared by every store."""

from __future__ import annotations

import os
import shutil

import orjson
import pytest
from builds import build_store
from pdfs import CVS, write_pdf

import rag.index.export
from rag.cli.index import default_export_cache
from rag.index.encoder import MODEL_FILES, SPEC_FILE, Encoder, variant_files
from rag.index.export import LAYOUT, encoder_problem
from rag.pipeline.builder import BuildSettings, Quiet
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow


@pytest.fixture
def counted_exports(monkeypatch, exported_encoder):
    """export_encoder replaced by a copy of the session's export (a real export takes seconds), and
    the folders it was asked to make."""
    made = []

    def export_copy(source, dest):
        made.append(dest)
        shutil.copytree(exported_encoder, dest)

    monkeypatch.setattr(rag.index.export, "export_encoder", export_copy)
    return made


def test_two_stores_share_one_export_from_the_cache(cv_dir, tmp_path, counted_exports):
    cache = tmp_path / "cache"
    settings = BuildSettings(export_cache=cache)
    first = build_store(cv_dir, tmp_path / "one", settings).manifest
    second = build_store(cv_dir, tmp_path / "two", settings).manifest
    assert counted_exports == [cache / first.encoder["key"]]  # exported once, into the cache
    cached = cache / first.encoder["key"]
    for root in (tmp_path / "one", tmp_path / "two"):
        copy = root / "encoders" / first.encoder["key"]
        assert encoder_problem(copy, "fp32") is None
        assert {p.name for p in copy.iterdir()} == {SPEC_FILE, "tokenizer.json", *variant_files("fp32")}
        for name in variant_files("fp32"):  # the same bytes as the cache's: shared, not copied
            assert os.path.samefile(copy / name, cached / name)
    # The store records which export it searches with: the checksums of the files it loads.
    spec = orjson.loads((cached / SPEC_FILE).read_bytes())
    assert first.encoder["files"] == second.encoder["files"]
    assert first.encoder["files"] == {n: spec["sha256"][n] for n in ("tokenizer.json", *variant_files("fp32"))}


def test_a_damaged_cached_export_is_made_again_and_never_copied(cv_dir, tmp_path, counted_exports):
    cache = tmp_path / "cache"
    settings = BuildSettings(export_cache=cache)
    key = build_store(cv_dir, tmp_path / "one", settings).manifest.encoder["key"]
    weights = cache / key / variant_files("fp32")[1]
    damaged = bytearray(weights.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    weights.unlink()  # a hard link to the first store's copy: never write through it
    weights.write_bytes(bytes(damaged))
    reporter = Quiet()
    build_store(cv_dir, tmp_path / "two", settings, reporter=reporter)
    assert len(counted_exports) == 2
    assert any("cached export" in w and "does not match its checksum" in w for w in reporter.warnings)
    assert encoder_problem(cache / key) is None
    assert encoder_problem(tmp_path / "two" / "encoders" / key) is None
    assert encoder_problem(tmp_path / "one" / "encoders" / key) is None  # the first store kept its own copy


def test_a_store_of_an_older_layout_takes_the_current_export_without_embedding_again(cv_dir, tmp_path, counted_exports):
    store = tmp_path / "store"
    first = build_store(cv_dir, store, BuildSettings(export_cache=tmp_path / "cache"))
    folder = store / "encoders" / first.manifest.encoder["key"]
    spec = orjson.loads((folder / SPEC_FILE).read_bytes())
    spec["layout"] = LAYOUT - 1
    (folder / SPEC_FILE).write_bytes(orjson.dumps(spec))
    write_pdf(cv_dir / "cv_new" / "cv.pdf", [next(iter(CVS.values())) + "\nAlso: Terraform."])
    second = build_store(cv_dir, store, BuildSettings(export_cache=tmp_path / "cache"))
    assert orjson.loads((folder / SPEC_FILE).read_bytes())["layout"] == LAYOUT
    assert second.embedded < second.manifest.chunk_count  # the vectors of the unchanged CVs were kept
    assert len(counted_exports) == 1


def test_a_build_without_a_usable_cache_exports_into_the_store(cv_dir, tmp_path, counted_exports):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache would go")
    reporter = Quiet()
    result = build_store(cv_dir, tmp_path / "store", BuildSettings(export_cache=blocked / "exports"), reporter=reporter)
    assert any("cannot be used" in w for w in reporter.warnings)
    folder = tmp_path / "store" / "encoders" / result.manifest.encoder["key"]
    assert encoder_problem(folder, "fp32") is None and len(counted_exports) == 1


@pytest.mark.slow
def test_the_int8_variant_is_made_in_the_cache_and_only_it_goes_into_an_int8_store(cv_dir, tmp_path, counted_exports):
    cache = tmp_path / "cache"
    build_store(cv_dir, tmp_path / "fp32", BuildSettings(export_cache=cache))  # the cache's files now hard-linked
    result = build_store(cv_dir, tmp_path / "store", BuildSettings(export_cache=cache, variant="int8"))
    key = result.manifest.encoder["key"]
    copy = tmp_path / "store" / "encoders" / key
    assert {p.name for p in copy.iterdir()} == {SPEC_FILE, "tokenizer.json", *variant_files("int8")}
    assert encoder_problem(cache / key, "int8") is None and encoder_problem(cache / key, "fp32") is None
    opened = open_store(tmp_path / "store")
    assert Encoder(opened.encoder_dir, "int8").embed_queries(["Jenkins"]).shape == (1, opened.manifest.dim)
    assert MODEL_FILES["fp32"] not in result.manifest.encoder["files"]


def test_the_cache_folder_follows_xdg_and_falls_back_to_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_export_cache() == tmp_path / "xdg" / "cv-rag" / "exports"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_export_cache() == tmp_path / "home" / ".cache" / "cv-rag" / "exports"
