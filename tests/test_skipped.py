"""Every skipped file named with its true reason where the user looks (issue #34): `rag index`'s
output, `rag ls`, the status page and the manifest, in the same words. Four files of each kind, so
that none hides in a line that counts them; an empty file is empty even when another file wants
its cv_id."""

from __future__ import annotations

import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import HASH_MODEL
from hostile_files import fifo, no_pages, write
from pdfs import write_pdf
from web_site import fetch, parse, serving

import rag.ingest.extract as extract_module
from rag.cli import main as rag
from rag.ingest.limits import MB
from rag.store.open import open_store

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

ENV = {"EMBEDDING_MODEL": HASH_MODEL, "HF_HUB_OFFLINE": "1"}
REASONS = {  # kind -> (files, the reason each must be named with)
    "zero-page": ([f"no-pages-{n}.pdf" for n in range(4)], "the PDF has no pages"),
    "empty": (["zero.docx", "zero.pdf", "zero.png", "empty/cv.pdf"], "an empty file (0 bytes)"),
    "unreadable": ([f"pipe-{n}.pdf" for n in range(4)], "a FIFO (named pipe), not a regular file"),
    "too large": (
        [f"big-{n}.pdf" for n in range(4)],
        "too large: 3 MB (the limit is 2 MB a file; --max-file-mb raises it)",
    ),
    "timed out": (
        [f"slow-{n}.pdf" for n in range(4)],
        "timed out: not read in 1 s, the time limit a file (--file-timeout raises it)",
    ),
    "duplicate": ([f"dup-{n}/cv.pdf" for n in range(4)], "duplicate cv_id 'dup-{n}', already taken by dup-{n}.pdf"),
}


def skipped_folder(root: Path) -> Path:
    for n in range(3):
        write_pdf(root / f"good-{n}.pdf", [f"Person {n}\nBackend engineer\nSkills: Python, SQL"])
    for n in range(4):
        write(root / f"no-pages-{n}.pdf", no_pages())
        fifo(root / f"pipe-{n}.pdf")
        write(root / f"big-{n}.pdf", b"%PDF-1.7\n" + b"0" * (3 * MB))
        write_pdf(root / f"slow-{n}.pdf", [f"Slow {n}\nEngineer\nSkills: Go"])
        write_pdf(root / f"dup-{n}.pdf", [f"Dup {n}\nEngineer\nSkills: Rust"])
        write_pdf(root / f"dup-{n}" / "cv.pdf", [f"Dup {n} again\nEngineer\nSkills: Rust"])
    for name in REASONS["empty"][0]:
        write(root / name, b"")  # zero.docx, zero.pdf and zero.png would all be cv_id "zero"
    return root


@pytest.fixture(scope="module")
def shown(tmp_path_factory) -> SimpleNamespace:
    """One build of the folder, and what each of the four places says about its skipped files."""
    tmp = tmp_path_factory.mktemp("skipped")
    root, store = skipped_folder(tmp / "cvs"), tmp / "store"
    reader = extract_module.extract_pdf

    def slow(path, *args, **kwargs):  # runs in the worker, forked after this patch
        if path.name.startswith("slow-"):
            time.sleep(60)
        return reader(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extract_module, "extract_pdf", slow)
        for name, value in ENV.items():
            patch.setenv(name, value)
        limits = ["--max-file-mb", "2", "--file-timeout", "1"]
        index = CliRunner().invoke(rag, ["index", "--cv-dir", str(root), "--store", str(store), *limits])
        listing = CliRunner().invoke(rag, ["ls", "--store", str(store)])
        with serving(store) as url:
            page = parse(fetch(f"{url}/status").text)
    assert index.exit_code == 0 and "Traceback" not in index.output, index.output
    assert listing.exit_code == 0, listing.output
    with open_store(store) as opened:
        manifest = {s["source"]: s["reason"] for s in opened.manifest.skipped}
        indexed = {c.source for c in opened.candidates.all()}
    rows = page.find("table", "skipped").find_all("tr")[1:]
    return SimpleNamespace(
        index=index.output,
        ls=listing.output,
        page={row.find_all("td")[0].text: row.find_all("td")[1].text for row in rows},
        manifest=manifest,
        indexed=indexed,
    )


@pytest.mark.parametrize("kind", list(REASONS))
def test_each_skipped_file_is_named_with_its_true_reason_in_all_four_places(shown, kind):
    files, reason = REASONS[kind]
    for source in files:
        why = reason.format(n=re.sub(r"\D", "", source))
        line = f"not indexed: {source}: {why}"
        assert shown.manifest[source] == why
        assert line in shown.index.splitlines() or f"warning: {line}" in shown.index.splitlines(), shown.index
        assert f"  {line}" in shown.ls.splitlines()
        assert shown.page[source] == why


def test_a_duplicate_names_the_file_that_was_indexed_in_its_place(shown):
    for n in range(4):
        assert f"dup-{n}.pdf" in shown.indexed
    assert {"good-0.pdf", "good-1.pdf", "good-2.pdf"} <= shown.indexed
    assert not any(s.startswith(("zero", "empty/")) for s in shown.indexed)


def test_the_summary_counts_every_file_left_out(shown):
    left_out = sum(len(files) for files, _ in REASONS.values())
    assert f"7 CVs indexed, 0 pages OCR'd, {left_out} files not indexed (see above)" in shown.index
    assert len(shown.manifest) == len(shown.page) == left_out
