"""Which PDFs make up the corpus, and the cv_id each one is known by.

Two layouts, mixable: `<dir>/<cv_id>/cv.pdf` (the folder names the CV) and `<dir>/<name>.pdf`
(the file stem names it, spaces and punctuation included). Hidden files and folders are ignored.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .errors import UserError
from .records import Skipped


@dataclass(frozen=True)
class PdfFile:
    cv_id: str
    source: str  # path relative to the pdf dir, with "/" separators
    path: Path
    size: int
    mtime_ns: int


def printable(name: str) -> str:
    """A file name as text: undecodable bytes become \\xNN, and Unicode is NFC (macOS writes NFD)."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return unicodedata.normalize("NFC", text)


def cv_id_for(relative: Path) -> str:
    if relative.name.lower() == "cv.pdf" and len(relative.parts) > 1:
        return printable(relative.parent.as_posix())
    return printable(relative.with_suffix("").as_posix())


def discover_pdfs(pdf_dir: Path) -> tuple[list[PdfFile], list[Skipped]]:
    if not pdf_dir.exists():
        raise UserError(f"PDF folder not found: {pdf_dir}")
    if not pdf_dir.is_dir():
        raise UserError(f"not a folder: {pdf_dir}")
    found: list[PdfFile] = []
    skipped: list[Skipped] = []
    owner: dict[str, str] = {}
    for path in _pdf_paths(pdf_dir):
        relative = path.relative_to(pdf_dir)
        source = printable(relative.as_posix())
        cv_id = cv_id_for(relative)
        if cv_id in owner:
            skipped.append(Skipped(source, f"duplicate cv_id {cv_id!r}, already taken by {owner[cv_id]}"))
            continue
        try:
            st = path.stat()
        except OSError as exc:
            skipped.append(Skipped(source, f"cannot read the file ({exc.strerror})"))
            continue
        owner[cv_id] = source
        found.append(PdfFile(cv_id, source, path, st.st_size, st.st_mtime_ns))
    if not found and not skipped:
        raise UserError(
            f"no PDF files in {pdf_dir} (expected {pdf_dir}/<cv_id>/cv.pdf or {pdf_dir}/<name>.pdf)"
        )
    return found, skipped


def _pdf_paths(root: Path) -> list[Path]:
    paths: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        paths.extend(Path(folder, f) for f in files if f.lower().endswith(".pdf") and not f.startswith("."))
    return sorted(paths, key=lambda p: p.relative_to(root).as_posix().encode("utf-8", "surrogateescape"))
