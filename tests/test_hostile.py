"""Hostile and broken files never stop a build (issue #24): every file is read by a worker under a
time and a memory limit, a failing file is skipped with its reason, a dead worker is replaced,
and only regular files inside the CV folder are read. Each hostile file is made here, as small as
it can be; where the point is a limit, the limit is lowered rather than the file made large."""

from __future__ import annotations

import csv
import faulthandler
import io
import os
import signal
import time
from pathlib import Path
from types import SimpleNamespace

import anyio
import numpy as np
import orjson
import pymupdf
import pytest
from builds import build_store
from click.testing import CliRunner
from hostile_files import (
    compressed_text,
    drawing_bomb,
    fifo,
    half_png,
    link,
    much_text,
    nested_pages,
    no_pages,
    page_tree_cycle,
    pages_sharing_one_image,
    paragraphs_docx,
    png,
    write,
    wrong_page_count,
)
from mcp.server.mcpserver.exceptions import ToolError
from pdfs import scanned_pdf, write_pdf

import rag.ingest.extract as extract_module
from rag.cli import main as rag
from rag.ingest.discover import discover_cvs
from rag.ingest.document import Document
from rag.ingest.extract import ExtractionFailed, extract_pdf, extractor_id, read_bytes
from rag.ingest.limits import MB, FileLimits, Limits
from rag.mcp.server import build_server
from rag.pipeline.builder import BuildSettings, within_chunk_limit
from rag.pipeline.engines.isolation import OcrShares
from rag.pipeline.engines.local import LocalEngine
from rag.pipeline.engines.ray.cluster import RaySettings
from rag.pipeline.engines.ray.engine import RayEngine
from rag.render.match import match_csv
from rag.search.query import MAX_QUERY_CHARS
from rag.store.open import open_store
from rag.web.forms import FormError, SearchForm

SECRET = "SECRET-TOKEN-4711"


def good_cvs(folder: Path, count: int) -> None:
    for n in range(count):
        write_pdf(folder / f"cv_{n:02}" / "cv.pdf", [f"Person {n:02}\nBackend engineer\nSkills: Python, SQL, Go"])


def hostile_folder(root: Path) -> dict[str, str]:
    """Every hostile file of the issue under root, and the kind of skip each must get."""
    expected = {
        "broken/half.png": "corrupt",  # a half-downloaded picture
        "broken/half-png.pdf": "corrupt",  # the same bytes named .pdf
        "broken/cycle.pdf": "corrupt",  # a page tree that holds itself
        "broken/count.pdf": "corrupt",  # a page count of a billion
        "broken/nested.pdf": "corrupt",  # 2**30 pages in 3 KB
        "broken/empty.pdf": "empty",
        "bombs/drawing.pdf": "out of memory",  # 10**6 lines of text drawn from 2 KB
        "bombs/compressed.pdf": "too large",  # a content stream that unpacks a thousandfold
        "bombs/paragraphs.docx": "too large",  # unpacks to 3 MB of paragraphs
        "big/2000 pages.pdf": "too large",  # every page the same picture: every page for OCR
        "big/much text.pdf": "too large",  # more text than the chunk limit holds
        "big/60000 px.png": "too large",  # 60,000 pixels a side in 138 bytes
        "big/over the size limit.pdf": "too large",
        "fifo.pdf": "unreadable",  # reading it would block the build for ever
        "zero.pdf": "link outside",  # -> /dev/zero
        "random/cv.docx": "link outside",  # -> /dev/urandom
        "leak.pdf": "link outside",  # -> a file beside the CV folder
    }
    write(root / "broken/half.png", half_png())
    write(root / "broken/half-png.pdf", half_png())
    write(root / "broken/cycle.pdf", page_tree_cycle())
    write(root / "broken/count.pdf", wrong_page_count())
    write(root / "broken/nested.pdf", nested_pages())
    write(root / "broken/empty.pdf", b"")
    write(root / "bombs/drawing.pdf", drawing_bomb(depth=6))
    write(root / "bombs/compressed.pdf", compressed_text())
    write(root / "bombs/paragraphs.docx", paragraphs_docx(3 * MB))
    write(root / "big/2000 pages.pdf", pages_sharing_one_image(2000))
    write(root / "big/much text.pdf", much_text(pages=30))
    write(root / "big/60000 px.png", png(60000, 60000, rows=1))
    write(root / "big/over the size limit.pdf", b"%PDF-1.7\n" + b"0" * (3 * MB))
    fifo(root / "fifo.pdf")
    link(root / "zero.pdf", "/dev/zero")
    link(root / "random/cv.docx", "/dev/urandom")
    write_pdf(root.parent / "secret.pdf", [f"Not a CV: {SECRET}"])
    link(root / "leak.pdf", "../secret.pdf")
    return expected


# Lowered where the point is the limit: 2 MB files, 40 chunks of 500 characters, 128 MB a worker.
LOWERED = ["--max-file-mb", "2", "--max-chunks", "40", "--file-memory-mb", "128"]


@pytest.mark.slow
def test_a_folder_of_good_cvs_and_every_hostile_file_builds_and_names_each_with_its_reason(tmp_path, hash_model):
    root = tmp_path / "cvs"
    good_cvs(root, 20)
    expected = hostile_folder(root)
    store = tmp_path / "store"
    result = CliRunner().invoke(rag, ["index", "--cv-dir", str(root), "--store", str(store), *LOWERED])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert f"20 CVs indexed, 0 pages OCR'd, {len(expected)} files not indexed" in result.output
    with open_store(store) as opened:
        skipped = {s["source"]: s["kind"] for s in opened.manifest.skipped}
        assert skipped == expected
        assert opened.manifest.candidate_count == 20
        assert not any(SECRET in c.text for c in opened.chunks.all())
    reasons = {
        s["source"]: s["reason"] for s in orjson.loads((store / "current" / "manifest.json").read_bytes())["skipped"]
    }
    assert reasons["fifo.pdf"] == "a FIFO (named pipe), not a regular file"
    assert reasons["zero.pdf"] == "a link to /dev/zero, outside the CV folder: --follow-links follows it"
    assert reasons["big/2000 pages.pdf"].startswith("too large: 2,000 pages (the limit is 100 pages a file")
    assert "--file-memory-mb" in reasons["bombs/drawing.pdf"]
    for kind in set(expected.values()):  # each kind named in the output, one line a file or one for many
        assert kind in result.output or any(
            f": {source}: " in result.output for source, k in expected.items() if k == kind
        )


@pytest.mark.slow  # workers killed, crashed and hung: seconds
def test_a_worker_that_is_killed_crashes_or_hangs_costs_its_file_only(tmp_path, hash_model, monkeypatch):
    """The kernel's OOM killer (SIGKILL), a crash in C (SIGSEGV) and a reader that never returns:
    each file is named with its reason, its worker replaced, and the CVs after it indexed."""
    root = tmp_path / "cvs"
    for name in ("a-good", "b-killed", "c-crash", "d-hangs", "e-good"):
        write_pdf(root / f"{name}.pdf", [f"{name} engineer\nSkills: Python"])
    reader = extract_module.extract_pdf

    def hostile(path, *args, **kwargs):  # runs in the worker, forked after this patch
        if "killed" in path.name:
            os.kill(os.getpid(), signal.SIGKILL)
        if "crash" in path.name:
            faulthandler.disable()  # pytest's, inherited: it would print the crash's stack here
            os.kill(os.getpid(), signal.SIGSEGV)
        if "hangs" in path.name:
            time.sleep(600)
        return reader(path, *args, **kwargs)

    monkeypatch.setattr(extract_module, "extract_pdf", hostile)
    result = build_store(root, tmp_path / "store", BuildSettings(limits=Limits(seconds=1.5)))
    kinds = {s["source"]: (s["kind"], s["reason"]) for s in result.manifest.skipped}
    assert kinds["b-killed.pdf"][0] == "out of memory" and "(SIGKILL)" in kinds["b-killed.pdf"][1]
    assert kinds["c-crash.pdf"] == ("crashed", "crashed the reader (SIGSEGV)")
    assert kinds["d-hangs.pdf"][0] == "timed out" and "1.5 s" in kinds["d-hangs.pdf"][1]
    assert result.manifest.candidate_count == 2


def test_the_ray_engine_skips_hostile_files_as_a_local_build_does(cv_dir, monkeypatch):
    """The engine's side (files read up to the limit, OCR shares fixed per window) and the stage's
    (files read by a worker under the limits), the stage run here rather than on a cluster."""
    write(cv_dir / "cycle.pdf", page_tree_cycle())
    write(cv_dir / "pages.pdf", pages_sharing_one_image(150))
    write(cv_dir / "empty.pdf", no_pages())  # a 0-byte file is named at discovery, before any engine
    files, _ = discover_cvs(cv_dir)
    limits, extractor = Limits(), extractor_id(True)
    engine = RayEngine(RaySettings())
    monkeypatch.setattr(engine, "_connect", lambda: SimpleNamespace(workers=1))

    def run_here(stage, rows):  # one batch, as Ray Data would hand it to the stage's function
        yield stage.udf({key: np.array([row[key] for row in rows], dtype=object) for key in rows[0]}, **stage.kwargs)

    monkeypatch.setattr(engine, "_run", run_here)
    on_ray = [(d.source, d.skip_kind, d.skipped) for d in engine.extract(files, extractor, limits, 500)]
    assert on_ray == [(d.source, d.skip_kind, d.skipped) for d in LocalEngine().extract(files, extractor, limits, 500)]
    assert {source: kind for source, kind, _ in on_ray if kind} == {
        "cycle.pdf": "corrupt",
        "empty.pdf": "empty",
        "pages.pdf": "too large",
    }


def test_a_fifo_or_a_device_is_never_read(tmp_path):
    for path in (fifo(tmp_path / "cv.pdf"), Path("/dev/zero")):
        with pytest.raises(ExtractionFailed, match="not a regular file") as failed:
            read_bytes(path)
        assert failed.value.kind == "unreadable"


def test_ocr_beyond_the_limit_is_left_out_with_a_warning_never_read(tmp_path):
    """A share of 0 pages (the build's OCR budget spent): the scanned page is named, never OCR'd."""
    scan = scanned_pdf(tmp_path / "scan.pdf", [("Nadia Okafor", 22)])
    with pytest.raises(ExtractionFailed, match="page 1 need OCR beyond the OCR limit") as failed:
        extract_pdf(scan, ocr=True, limits=FileLimits(ocr_pages=0))
    assert (failed.value.kind, failed.value.ocr_left_out) == ("no text", [1])


def test_the_builds_ocr_pages_are_shared_in_file_order_whoever_finishes_first():
    shares = OcrShares(per_file=10, total=25)
    assert [shares.take(0), shares.take(1)] == [10, 10]
    assert shares.take(2) is None  # 5 left if both use all of theirs, more if not: wait for them
    shares.finish(1, used=2)  # the second file finishes first, with pages to spare
    assert shares.take(2) == 10  # at least 13 are left, whatever the first one uses
    assert shares.take(3) is None
    shares.finish(0, used=10)
    shares.finish(2, used=10)
    assert shares.take(3) == 3 and shares.take(4) is None
    shares.finish(3, used=3)
    assert shares.take(4) == 0
    reserved = OcrShares(per_file=10, total=25)  # the Ray engine's: fixed before the files leave
    assert [reserved.reserve(slot) for slot in range(4)] == [10, 10, 5, 0]


def test_a_file_cut_short_by_the_builds_ocr_budget_is_read_again_by_the_next_build(tmp_path, hash_model):
    root = tmp_path / "cvs"
    write_pdf(root / "text.pdf", ["Ada Byron\nAnalyst\nSkills: SQL, Python, statistics and reporting for finance"])
    text = pymupdf.open(write_pdf(tmp_path / "page.pdf", ["Bo Lee\nEngineer\nSkills: Go, Rust and other words"]))
    text.insert_pdf(pymupdf.open(scanned_pdf(tmp_path / "scan.pdf", [("Bo Lee, scanned", 20)])))
    text.save(root / "mixed.pdf")  # page 1 text, page 2 a scan
    settings = BuildSettings(limits=Limits(build_ocr_pages=0))
    first = build_store(root, tmp_path / "store", settings)
    assert first.extracted == 2 and "need OCR beyond the OCR limit" in str(first.manifest.warnings)
    write_pdf(root / "new.pdf", ["Cy Dee\nDesigner\nSkills: Figma and typography for print and screen"])
    second = build_store(root, tmp_path / "store", settings)
    assert second.extracted == 2  # the new file, and the one the budget cut short; not text.pdf


def test_a_text_that_makes_more_chunks_than_the_limit_is_skipped():
    settings = BuildSettings(chunk_chars=100, overlap_chars=20, limits=Limits(chunks=5))
    doc = Document("long.pdf", "long", 1, 1, "x", pages=["word " * 120])  # 600 characters: under 5 x 100 ...
    skipped = within_chunk_limit(doc, settings)  # ... but 8 overlapping chunks
    assert (skipped.skip_kind, skipped.pages) == ("too large", [])
    assert skipped.skipped == "too large: 8 chunks (the limit is 5 chunks a file; --max-chunks raises it)"
    assert within_chunk_limit(Document("short.pdf", "short", 1, 1, "x", pages=["word " * 20]), settings).skipped is None


def test_in_the_docker_runner_a_link_it_cannot_reach_says_so(tmp_path, hash_model):
    root = tmp_path / "cvs"
    good_cvs(root, 1)
    link(root / "linked-folder", "/home/someone/cvs")  # outside the mounted folder: dangles in the container
    env = {"RAG_RUNNER": "docker", "RAG_VIA_MAKE": "1"}
    result = CliRunner().invoke(rag, ["index", "--cv-dir", str(root), "--store", str(tmp_path / "store")], env=env)
    assert result.exit_code == 0, result.output
    assert "not indexed: linked-folder: a link to /home/someone/cvs, which does not exist" in result.output
    assert "make index RUNNER=local FOLLOW_LINKS=1" in result.output


def test_spreadsheet_formulas_hidden_behind_blanks_or_lookalikes_are_quoted_or_shown_inert():
    names = [" =1+1", "\uff1dcmd|' /C calc'!A0", "\ufe66SUM(1)", "Ana =1", '\u200b=HYPERLINK("http://x")', "\t@SUM(1)"]
    doc = {
        "jd": {"requirements": []},
        "candidates": [
            {
                "rank": i,
                "name": name,
                "cv_id": name,
                "source": name,
                "meets_all_must": True,
                "must_met": 0,
                "nice_met": 0,
                "score": 50.0,
                "scores": {"fused": 0.5},
                "score_parts": {"relevance": 0.5},
                "requirements": [],
            }
            for i, name in enumerate(names, 1)
        ],
    }
    rows = list(csv.reader(io.StringIO(match_csv(doc))))[1:]
    assert [row[1] for row in rows] == [
        "' =1+1",
        "'\uff1dcmd|' /C calc'!A0",
        "'\ufe66SUM(1)",
        "Ana =1",
        '\\u200b=HYPERLINK("http://x")',
        "\\t@SUM(1)",
    ]  # escaped, so text


# ---- bounded time for every input (issue #34): the cap, and long texts read in linear time ----------


def test_a_query_of_two_million_characters_gets_the_length_error_before_any_store_is_opened(tmp_path):
    nowhere = tmp_path / "no store here"  # the length is checked first: no store needed to be refused
    line = f"error: the query is longer than {MAX_QUERY_CHARS:,} characters"
    for args, given in (
        (["search", "-"], "python " * 300_000),  # 2.1 million characters on standard input
        (["search", "-"], "\0" * 10_000),
        (["search", "--query", "x" * (MAX_QUERY_CHARS + 1)], None),
        (["search", *(["Jenkins"] * 1000)], None),
    ):
        result = CliRunner().invoke(rag, [*args, "--store", str(nowhere)], input=given)
        assert result.exit_code == 2 and result.output.startswith(line), result.output[:300]
        assert len(result.output.splitlines()) == 1 and "Traceback" not in result.output


def test_the_web_page_and_mcp_refuse_a_long_query_with_the_same_line(tmp_path, hash_model):
    good_cvs(tmp_path / "cvs", 2)
    build_store(tmp_path / "cvs", tmp_path / "store", BuildSettings())
    words = f"the query is longer than {MAX_QUERY_CHARS:,} characters, the most a query may have"
    with pytest.raises(FormError) as on_the_page:
        SearchForm.checked({"q": "Jenkins " * 1000})
    assert str(on_the_page.value).startswith(words)
    server = build_server(tmp_path / "store")
    with pytest.raises(ToolError) as over_mcp:
        anyio.run(server.call_tool, "search_candidates", {"query": "Jenkins " * 1000})
    assert str(over_mcp.value).endswith(f": {on_the_page.value}")  # after the SDK's "Error executing tool ..."
    at_the_cap = anyio.run(server.call_tool, "search_candidates", {"query": ("Jenkins " * 1000)[:MAX_QUERY_CHARS]})
    assert at_the_cap.structured_content["lists"]


@pytest.mark.slow  # 50,000 characters read at every door: seconds
def test_a_job_description_of_one_line_of_fifty_thousand_characters_is_read(tmp_path, hash_model):
    good_cvs(tmp_path / "cvs", 2)
    build_store(tmp_path / "cvs", tmp_path / "store", BuildSettings())
    words = "Python, Go or Rust 5+ years Kubernetes and Terraform e.g. AWS is a plus Rest Assured "
    jd = write(tmp_path / "jd.txt", (words * (50_000 // len(words) + 1))[:50_000].encode())
    result = CliRunner().invoke(rag, ["match", "--jd", str(jd), "--store", str(tmp_path / "store")])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output[-2000:]
    assert "Python/Go/Rust" in result.output
