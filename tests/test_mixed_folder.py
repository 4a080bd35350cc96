"""The folder users really have: PDFs, a Word CV, a scan, unmapped fonts, a photo, a linked folder
(outside the CV folder: built with --follow-links), a Latin-1 file name and stray files. Every CV is indexed and searchable; every other file is named
with its reason, in the output and the manifest; nothing shows a traceback."""

import os
from pathlib import Path

import orjson
import pymupdf
import pytest
from click.testing import CliRunner
from conftest import store_with_encoder
from pdfs import CVS, scanned_pdf, unmapped_pdf, write_pdf
from word_files import write_docx

from rag.cli import index as build_index
from rag.search.retrieval import Searcher
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("mixed")
    root = base / "cvs"
    write_pdf(root / "alice" / "cv.pdf", [CVS["alice"]])
    write_pdf(root / "bob" / "cv.pdf", [CVS["bob"]])
    write_docx(
        root / "Ana Ortiz.docx",
        "Ana Ortiz",
        ["Functional programmer: Haskell and OCaml compilers"],
        [["Skills", "Haskell"]],
        text_box="Based in Valencia",
    )
    scanned_pdf(root / "scanned" / "cv.pdf", [("Nadia Okafor", 22), ("Seismic inversion with Petrel", 13)])
    unmapped_pdf(root / "unmapped.pdf", "Ivo Brandt\nFortran numerical weather models")
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 90, 120), False)
    photo.clear_with(200)
    photo.save(root / "photo.png")
    (root / "notes.txt").write_text("call Ana on Monday")
    write_pdf(base / "shared" / "carla" / "cv.pdf", [CVS["carla"]])
    (root / "linked").symlink_to(base / "shared")
    latin1 = Path(os.fsdecode(bytes(root) + b"/M\xfcller.pdf"))
    doc = pymupdf.open()
    doc.new_page().insert_text((50, 60), "Jürgen Müller, COBOL mainframe programmer")
    latin1.write_bytes(doc.tobytes())
    return root


def build(folder, store, *args):
    result = CliRunner().invoke(
        build_index.main, ["--cv-dir", str(folder), "--store", str(store), "--follow-links", *args]
    )
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def top(store, query):
    hits = Searcher(open_store(store)).search(query, "bm25", topk=1).lists["bm25"]
    return hits[0].candidate.cv_id if hits else None


EXPECTED_CVS = {"alice", "bob", "Ana Ortiz", "scanned", "unmapped", "linked/carla", "M\\xfcller"}


@pytest.fixture(scope="module")
def built(mixed, tmp_path_factory, exported_encoder):
    """The folder indexed once, with OCR (the default); the build's output alongside."""
    store = store_with_encoder(tmp_path_factory.mktemp("mixed-store") / "store", exported_encoder)
    code, output = build(mixed, store)
    assert code == 0, output
    return store, output


def test_every_cv_is_indexed_and_every_other_file_named(built):
    store_dir, output = built
    assert "7 CVs indexed, 2 pages OCR'd, 2 files not indexed (see above)" in output
    assert "OCR read 2 pages: scanned/cv.pdf (page 1); unmapped.pdf (page 1)" in output
    assert "not indexed: notes.txt: not a CV type (.txt)" in output
    assert "not indexed: photo.png: an image with little or no text (a photo?), not a CV" in output
    store = open_store(store_dir)
    m = store.manifest
    assert {(s["source"], s["kind"]) for s in m.skipped} == {("notes.txt", "not a CV type"), ("photo.png", "empty")}
    assert m.ocr_pages == [{"source": "scanned/cv.pdf", "pages": [1]}, {"source": "unmapped.pdf", "pages": [1]}]
    assert {c.cv_id for c in store.chunks.all()} == EXPECTED_CVS
    assert not any("\ufffd" in c.text or "PSUSBO" in c.text for c in store.chunks.all())  # raw codes of "Fortran"


@pytest.mark.parametrize(
    "query, cv_id",
    [
        ("Petrel", "scanned"),  # only in the scan's picture
        ("Fortran", "unmapped"),  # only behind glyphs without Unicode
        ("Haskell", "Ana Ortiz"),
        ("Valencia", "Ana Ortiz"),  # in the Word text box
        ("COBOL", "M\\xfcller"),
        ("intensive care", "linked/carla"),
    ],
)
def test_each_cv_is_found_by_its_own_words(built, query, cv_id):
    assert top(built[0], query) == cv_id


def test_ocr_off_names_the_scans_and_is_another_build(mixed, built, store_dir):
    before = open_store(built[0]).manifest.fingerprint
    code, output = build(mixed, store_dir, "--ocr", "off")
    assert code == 0
    assert "5 CVs indexed, 0 pages OCR'd, 4 files not indexed (see above)" in output
    assert "not indexed: scanned/cv.pdf: the pages are images (a scanned CV?) and OCR is off" in output
    assert "not indexed: unmapped.pdf: the text layer is unreadable" in output
    m = open_store(store_dir).manifest
    assert m.fingerprint != before and m.ocr_pages == []
    assert top(store_dir, "Fortran") is None
    manifest = orjson.loads((store_dir / "manifest.json").read_bytes())
    assert {s["source"] for s in manifest["skipped"]} == {"notes.txt", "photo.png", "scanned/cv.pdf", "unmapped.pdf"}
