"""The command lines through click's CliRunner: help that teaches, one-line errors, JSON output."""

import orjson
import pytest
from click.testing import CliRunner

from rag import build_index, search


@pytest.fixture
def runner():
    return CliRunner()


def run(runner, command, args):
    result = runner.invoke(command.main, args, catch_exceptions=False)
    return result.exit_code, result.output


def one_line_error(output):
    lines = [line for line in output.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in output


def test_help_explains_with_examples(runner):
    for command in (build_index, search):
        code, output = run(runner, command, ["--help"])
        assert code == 0 and "Examples:" in output
    assert "--pdf_dir" in run(runner, build_index, ["--help"])[1]  # the old spelling still works


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
    code, output = run(runner, build_index, ["--pdf-dir", str(cv_dir), "--out-dir", str(tmp_path / "s"), *args])
    assert code != 0 and one_line_error(output)
    assert not (tmp_path / "s").exists()


def test_missing_and_empty_pdf_dirs_are_one_line_errors(runner, tmp_path):
    code, output = run(runner, build_index, ["--pdf_dir", str(tmp_path / "nope"), "--out_dir", str(tmp_path / "s")])
    assert code != 0 and one_line_error(output) and "not found" in output
    (tmp_path / "empty").mkdir()
    code, output = run(runner, build_index, ["--pdf-dir", str(tmp_path / "empty"), "--out-dir", str(tmp_path / "s")])
    assert code != 0 and one_line_error(output) and "no CV files" in output


def test_build_then_search_through_the_command_lines(runner, cv_dir, store_dir):
    code, output = run(runner, build_index, ["--pdf-dir", str(cv_dir), "--out-dir", str(store_dir), "-q"])
    assert code == 0 and "4 CVs indexed, 0 pages OCR'd, 0 files not indexed\n" in output
    code, output = run(runner, build_index, ["--pdf-dir", str(cv_dir), "--out-dir", str(store_dir)])
    assert code == 0 and "up to date" in output

    code, output = run(runner, search, ["--query", "Who has experience with Jenkins?", "--index_dir", str(store_dir)])
    assert code == 0
    for heading in ("FAISS (dense)", "BM25 (keywords)", "RRF (fused)"):
        assert output.count(heading) == 2  # in the side-by-side table and above its own list
    assert "matched: jenkins" in output

    code, output = run(runner, search, ["-q", "Jenkins", "--index-dir", str(store_dir), "--json", "--topk", "2"])
    doc = orjson.loads(output)
    assert set(doc) >= {"query", "faiss", "bm25", "rrf", "store"}
    assert doc["bm25"][0]["cv_id"] == "alice" and doc["rrf"][0]["ranks"]["bm25"] == 1
    assert len(doc["faiss"]) == 2

    code, output = run(runner, search, ["-q", "Jenkins", "--index-dir", str(store_dir), "--mode", "reranked"])
    assert "RRF (fused)" in output and "BM25 (keywords)" not in output
    assert "BM25 #1" in output  # a fused hit still says where each retriever ranked it


@pytest.mark.parametrize("args", [["-q", "   "], ["-q", "Jenkins", "--topk", "0"]])
def test_bad_search_requests_are_one_line_errors(runner, store_dir, args):
    code, output = run(runner, search, [*args, "--index-dir", str(store_dir)])
    assert code != 0 and one_line_error(output)


def test_searching_without_a_store_names_the_fix(runner, tmp_path):
    code, output = run(runner, search, ["-q", "Jenkins", "--index-dir", str(tmp_path / "none")])
    assert code != 0 and one_line_error(output) and "make index" in output
