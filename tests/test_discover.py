"""Finding CVs: every file that is not one is named with its reason; links, loops, odd names."""

import os
from pathlib import Path

import pytest

from rag.errors import UserError
from rag.ingest.discover import discover_cvs
from rag.ingest.document import Skipped
from rag.pipeline.notes import not_indexed_lines, page_ranges


def touch(path: Path, content: bytes = b"%PDF-1.4\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def found(folder: Path, **options):
    files, skipped = discover_cvs(folder, **options)
    return {f.source: (f.cv_id, f.kind) for f in files}, {s.source: (s.kind, s.reason) for s in skipped}


def test_cv_types_layouts_and_everything_else_with_a_reason(tmp_path):
    touch(tmp_path / "cv_001" / "cv.pdf")
    touch(tmp_path / "cv_001" / "cv.json", b"{}")
    touch(tmp_path / "Ana Ortiz.docx")
    touch(tmp_path / "scan of Li.JPG")
    touch(tmp_path / "old.doc")
    touch(tmp_path / "~$a Ortiz.docx")
    touch(tmp_path / "README")
    touch(tmp_path / ".DS_Store")
    cvs, skipped = found(tmp_path)
    assert cvs == {
        "cv_001/cv.pdf": ("cv_001", "pdf"),
        "Ana Ortiz.docx": ("Ana Ortiz", "docx"),
        "scan of Li.JPG": ("scan of Li", "image"),
    }
    assert {source: kind for source, (kind, _) in skipped.items()} == {
        "cv_001/cv.json": "not a CV type",
        "old.doc": "not a CV type",
        "~$a Ortiz.docx": "not a CV type",
        "README": "not a CV type",
    }
    assert "save it as .docx or PDF" in skipped["old.doc"][1]
    assert "lock file" in skipped["~$a Ortiz.docx"][1]
    assert "(no extension)" in skipped["README"][1]


def test_a_symlinked_folder_is_followed_and_a_loop_is_named_once(tmp_path):
    root = tmp_path / "cvs"
    touch(root / "a" / "cv.pdf")
    touch(tmp_path / "elsewhere" / "team" / "Bo Li.pdf")
    (root / "linked").symlink_to(tmp_path / "elsewhere")
    (root / "a" / "back").symlink_to(root)  # a loop
    (root / "again").symlink_to(root / "a")  # the same folder twice
    cvs, skipped = found(root, follow_links=True)
    assert set(cvs) == {"a/cv.pdf", "linked/team/Bo Li.pdf"}
    assert skipped["a/back/"][0] == "duplicate" and "the CV folder itself" in skipped["a/back/"][1]
    assert skipped["again/"][0] == "duplicate" and "already read as a/" in skipped["again/"][1]


def test_links_out_of_the_cv_folder_are_named_and_followed_only_when_asked(tmp_path):
    root = tmp_path / "cvs"
    touch(root / "a" / "cv.pdf")
    touch(root / "b" / "Bo Li.pdf")
    touch(tmp_path / "secret.pdf", b"%PDF-1.4 not yours")
    touch(tmp_path / "elsewhere" / "Ann.pdf")
    (root / "inside.pdf").symlink_to(root / "b" / "Bo Li.pdf")  # inside: a duplicate, as before
    (root / "linked-b").symlink_to(root / "b")  # a folder inside, reached twice
    (root / "leak.pdf").symlink_to(tmp_path / "secret.pdf")
    (root / "relative.pdf").symlink_to("../secret.pdf")
    (root / "elsewhere").symlink_to(tmp_path / "elsewhere")
    cvs, skipped = found(root)
    assert set(cvs) == {"a/cv.pdf", "b/Bo Li.pdf"}
    assert skipped["leak.pdf"] == (
        "link outside",
        f"a link to {tmp_path}/secret.pdf, outside the CV folder: --follow-links follows it",
    )
    assert skipped["relative.pdf"][1].startswith("a link to ../secret.pdf, outside the CV folder")
    assert skipped["elsewhere/"][0] == "link outside" and skipped["inside.pdf"][0] == "duplicate"
    assert skipped["linked-b/"][0] == "duplicate"
    cvs, skipped = found(root, follow_links=True)
    assert set(cvs) == {"a/cv.pdf", "b/Bo Li.pdf", "leak.pdf", "elsewhere/Ann.pdf"}
    assert skipped["relative.pdf"][0] == "duplicate"  # the same file as leak.pdf


def test_only_regular_files_are_read_and_none_over_the_size_limit(tmp_path):
    touch(tmp_path / "ok.pdf")
    touch(tmp_path / "big.pdf", b"%PDF-1.4\n" + b"0" * 2000)
    os.mkfifo(tmp_path / "fifo.pdf")
    (tmp_path / "zero.pdf").symlink_to("/dev/zero")
    cvs, skipped = found(tmp_path, file_bytes=1000)
    assert set(cvs) == {"ok.pdf"}
    assert skipped["fifo.pdf"] == ("unreadable", "a FIFO (named pipe), not a regular file")
    assert skipped["zero.pdf"][0] == "link outside"
    assert skipped["big.pdf"] == (
        "too large",
        "too large: 2009 bytes (the limit is 1000 bytes a file; --max-file-mb raises it)",
    )
    cvs, skipped = found(tmp_path, follow_links=True)
    assert skipped["zero.pdf"] == ("unreadable", "a device, not a regular file")


def test_the_same_file_through_a_link_is_a_duplicate_and_a_broken_link_is_named(tmp_path):
    touch(tmp_path / "real.pdf")
    (tmp_path / "alias.pdf").symlink_to(tmp_path / "real.pdf")
    (tmp_path / "gone.pdf").symlink_to(tmp_path / "nowhere.pdf")
    (tmp_path / "linked-folder").symlink_to("/nowhere/cvs")  # as a link out of the folder mounted in Docker
    cvs, skipped = found(tmp_path)
    assert set(cvs) == {"real.pdf"}  # the real file wins over a link to it
    assert skipped["alias.pdf"] == ("duplicate", "the same file as real.pdf")
    assert skipped["gone.pdf"] == ("broken link", f"a link to {tmp_path}/nowhere.pdf, which does not exist")
    assert skipped["linked-folder"] == ("broken link", "a link to /nowhere/cvs, which does not exist")


def test_an_unreadable_folder_is_named(tmp_path, monkeypatch):
    touch(tmp_path / "ok" / "cv.pdf")
    touch(tmp_path / "locked" / "cv.pdf")
    real_scandir = os.scandir

    def scandir(path):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    cvs, skipped = found(tmp_path)
    assert set(cvs) == {"ok/cv.pdf"}
    assert skipped["locked/"] == ("unreadable", "cannot read the folder (Permission denied)")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder whatever its mode")
def test_an_unreadable_folder_is_named_for_real(tmp_path):
    touch(tmp_path / "ok" / "cv.pdf")
    touch(tmp_path / "locked" / "cv.pdf")
    (tmp_path / "locked").chmod(0)
    try:
        assert found(tmp_path)[1]["locked/"][0] == "unreadable"
    finally:
        (tmp_path / "locked").chmod(0o755)


def test_a_name_that_is_not_utf8_gets_an_escaped_cv_id(tmp_path):
    touch(Path(os.fsdecode(bytes(tmp_path) + b"/M\xfcller CV.pdf")))  # Latin-1, as old zips write it
    cvs, _ = found(tmp_path)
    assert cvs == {"M\\xfcller CV.pdf": ("M\\xfcller CV", "pdf")}


def test_a_folder_without_any_cv_names_what_it_found(tmp_path):
    touch(tmp_path / "notes.txt", b"hello")
    with pytest.raises(UserError, match="found 1 other files, none of them a CV"):
        discover_cvs(tmp_path)


def test_many_files_of_one_kind_make_one_line_and_few_one_line_each():
    skipped = [Skipped(f"cv_{i:03}/cv.json", "not a CV type (.json)", "not a CV type") for i in range(30)]
    skipped += [
        Skipped("queries.jsonl", "not a CV type (.jsonl)", "not a CV type"),
        Skipped("broken.pdf", "not a readable PDF (format error)", "corrupt"),
    ]
    lines = not_indexed_lines(skipped)
    assert lines == [
        "not indexed: 31 files, not a CV type (30 .json, 1 .jsonl): cv_000/cv.json, cv_001/cv.json, "
        "cv_002/cv.json and 28 more (each with its reason in manifest.json)",
        "not indexed: broken.pdf: not a readable PDF (format error)",
    ]


def test_page_ranges():
    assert page_ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert page_ranges([4]) == "4"
