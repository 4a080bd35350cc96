"""The `rag` command through click's CliRunner, with the hashing encoder: fast and exact."""

import orjson
import pytest
from click.testing import CliRunner

from rag.cli import main as rag


@pytest.fixture
def runner():
    return CliRunner()


def run(runner, *args, input=None):
    result = runner.invoke(rag, [str(a) for a in args], input=input, catch_exceptions=False)
    return result.exit_code, result.output


def one_line_error(output):
    lines = [line for line in output.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in output


@pytest.fixture
def store(runner, cv_dir, tmp_path, hash_model):
    out = tmp_path / "store"
    code, output = run(runner, "index", "--cv-dir", cv_dir, "--store", out, "--quiet")
    assert code == 0 and "4 CVs indexed, 0 pages OCR'd, 0 files not indexed\n" in output, output
    return out


def test_help_explains_with_examples(runner):
    code, output = run(runner, "--help")
    assert code == 0 and {"index", "search", "eval"} <= set(output.split())
    for command in ("index", "search", "eval"):
        code, output = run(runner, command, "-h")
        assert code == 0 and "Examples:" in output
    assert "--cv_dir" in run(runner, "index", "--help")[1]  # the old spelling still works
    assert run(runner, "--version")[1].startswith("rag, version ")


@pytest.mark.slow
def test_the_old_folder_options_still_work_hidden_and_say_so(runner, cv_dir, tmp_path, hash_model):
    out = tmp_path / "old"
    code, output = run(runner, "index", "--pdf-dir", cv_dir, "--out-dir", out, "--quiet")
    assert code == 0 and "4 CVs indexed" in output
    assert "note: --pdf-dir is now --cv-dir" in output and "note: --index-dir and --out-dir are now --store" in output
    code, output = run(runner, "search", "Jenkins", "--index-dir", out)
    assert code == 0 and "Alice Smith" in output
    assert "--out-dir" not in run(runner, "index", "--help")[1] and "--store" in run(runner, "ls", "--help")[1]


@pytest.mark.parametrize(
    "args",
    [
        ["--chunk-chars", "100", "--overlap-chars", "100"],
        ["--chunk_chars", "0"],
        ["--overlap-chars", "-3"],
        ["--batch-size", "0"],
    ],
)
def test_invalid_build_settings_are_refused_before_any_work(runner, cv_dir, tmp_path, args):
    code, output = run(runner, "index", "--cv-dir", cv_dir, "--store", tmp_path / "s", *args)
    assert code != 0 and one_line_error(output)
    assert not (tmp_path / "s").exists()


def test_missing_and_empty_pdf_dirs_are_one_line_errors(runner, tmp_path):
    code, output = run(runner, "index", "--cv_dir", tmp_path / "nope", "--store", tmp_path / "s")
    assert code != 0 and one_line_error(output) and "not found" in output
    (tmp_path / "empty").mkdir()
    code, output = run(runner, "index", "--cv-dir", tmp_path / "empty", "--store", tmp_path / "s")
    assert code != 0 and one_line_error(output) and "no CV files" in output


def test_a_second_index_run_is_up_to_date(runner, cv_dir, store):
    code, output = run(runner, "index", "--cv-dir", cv_dir, "--store", store)
    assert code == 0 and "up to date" in output


def test_search_shows_people_with_their_evidence(runner, store):
    code, output = run(runner, "search", "Who has experience with Jenkins?", "--store", store)
    assert code == 0
    lines = output.splitlines()
    assert lines[4].split() == ["#", "FAISS", "(dense)", "BM25", "(keywords)", "RRF"]  # the side-by-side table
    for heading in ("FAISS (dense)  (", "BM25 (keywords)  (", "RRF  ("):
        assert sum(line.startswith(heading) for line in lines) == 1  # each list in full
    assert "Looking for: jenkins (1 CV)" in output
    assert "Alice Smith  alice/cv.pdf" in output and "holds: jenkins" in output
    assert "p.1   Experience: built CI pipelines with Jenkins" in output
    assert "cv_" not in output and "#0" not in output  # people, not chunk ids


def test_json_is_one_documented_record_per_candidate(runner, store):
    code, output = run(runner, "search", "-q", "Jenkins", "--store", store, "--json", "--topk", "2")
    doc = orjson.loads(output)
    assert doc["schema_version"] == 1 and doc["view"] == "candidates"
    assert set(doc["lists"]) == {"faiss", "bm25", "fused"} and len(doc["lists"]["faiss"]) == 2
    top = doc["lists"]["fused"][0]
    assert {k: top[k] for k in ("cv_id", "name", "name_source", "source", "matched_terms")} == {
        "cv_id": "alice",
        "name": "Alice Smith",
        "name_source": "cv",
        "source": "alice/cv.pdf",
        "matched_terms": ["jenkins"],
    }
    assert top["ranks"] == {"faiss": 1, "bm25": 1, "fused": 1} and set(top["scores"]) == {"faiss", "bm25", "fused"}
    assert top["evidence"][0]["page"] == 1 and "Jenkins" in top["evidence"][0]["text"]
    assert doc["concepts"] == {"jenkins": 1} and doc["fusion"]["rule"] == "rrf"


def test_the_chunk_view_ranks_chunks(runner, store):
    code, output = run(runner, "search", "Jenkins", "--store", store, "--chunks", "--json", "-m", "bm25")
    doc = orjson.loads(output)
    assert doc["view"] == "chunks" and set(doc["lists"]) == {"bm25"}
    hit = doc["lists"]["bm25"][0]
    assert hit["chunk"]["chunk_index"] == 0 and "Jenkins" in hit["chunk"]["text"] and hit["name"] == "Alice Smith"
    code, output = run(runner, "search", "Jenkins", "--store", store, "--chunks")
    assert "Alice Smith #0" in output and "chunk 0 · p.1" in output


def test_modes_and_fusion_switches(runner, store):
    code, output = run(runner, "search", "-q", "Jenkins", "--store", store, "--mode", "fused")
    assert "RRF  (" in output and "BM25 (keywords)" not in output
    assert "FAISS #1 · BM25 #1" in output  # a fused hit still says where each retriever ranked it
    code, output = run(runner, "search", "Jenkins", "--store", store, "--json")
    assert orjson.loads(output)["fusion"] == {
        "rule": "rrf",
        "weights": {"bm25": 1.0, "faiss": 1.0},
        "rrf_k": 10,
        "coverage": True,
        "described": 0.25,
        "text": "more of the query's concepts first (not for a description), then rrf: Σ w/(10 + rank), w bm25 1, faiss 1, "
        "bm25 ×0.25 for a description (×0 for a framed one no CV holds every word of); "
        "a list's far-surer top first (bm25 ≥4× the next, faiss +0.15)",
    }
    code, output = run(
        runner, "search", "Jenkins", "--store", store, "--fusion", "convex", "--weights", "bm25=1", "--no-coverage"
    )
    assert "Fused (convex)  (convex: 1·bm25 + 0·faiss" in output
    code, output = run(runner, "search", "Jenkins", "--store", store, "--weights", "bm25=1", "--no-coverage", "--json")
    assert orjson.loads(output)["fusion"]["weights"] == {"bm25": 1.0, "faiss": 0.0}


def test_the_query_can_come_from_standard_input(runner, store):
    code, output = run(runner, "search", "-", "--store", store, "--json", input="Jenkins\n")
    assert code == 0 and orjson.loads(output)["lists"]["bm25"][0]["cv_id"] == "alice"


@pytest.mark.parametrize(
    "args",
    [
        ["-q", "   "],
        ["-q", "Jenkins", "--topk", "0"],
        ["Jenkins", "--weights", "bm25=x"],
        ["Jenkins", "--mode", "reranked"],
    ],
)
def test_bad_search_requests_fail_with_a_message(runner, store, args):
    code, output = run(runner, "search", *args, "--store", store)
    assert code != 0 and "Traceback" not in output and "rror" in output


def test_searching_without_a_store_names_the_fix(runner, tmp_path):
    code, output = run(runner, "search", "-q", "Jenkins", "--store", tmp_path / "none")
    assert code != 0 and one_line_error(output) and f"rag index --store {tmp_path / 'none'}" in output
