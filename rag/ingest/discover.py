"""Which files make up the corpus, the cv_id each CV is known by, and why every other file is not one.

Two layouts, mixable: `<dir>/<cv_id>/cv.pdf` (the folder names the CV; also cv.docx or a cv image)
and `<dir>/<name>.pdf` (the file stem names it, spaces and punctuation included). CVs are PDFs,
Word .docx files and scanned images. Nothing is dropped in silence: every other file, every
unreadable folder and every folder reached twice through links comes back as a Skipped with its
kind and reason. Linked folders are followed after the real tree, each folder read once, so a
link loop ends and a real path is preferred to a linked one. Hidden files and folders are ignored.

Only what lies inside the CV folder is read: a link that leads out of it (to ~/.ssh, to /dev/zero)
is named and left alone unless the caller follows links (`rag index --follow-links`, as `find -L`).
Only regular files are read, up to the size limit: a FIFO named cv.pdf would block a build forever.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from rag.errors import UserError
from rag.ingest.document import Skipped
from rag.ingest.extract import EMPTY_FILE, IMAGE_TYPES, special_file, too_large
from rag.ingest.limits import Limits, size_text

CV_TYPES = {".pdf": "pdf", ".docx": "docx"} | {suffix: "image" for suffix in IMAGE_TYPES}
_OTHER_REASONS = {
    ".doc": "an old Word .doc file: save it as .docx or PDF to index it",
    ".odt": "an OpenDocument file: save it as .docx or PDF to index it",
    ".rtf": "an RTF file: save it as .docx or PDF to index it",
    ".pages": "an Apple Pages file: export it as PDF to index it",
}


@dataclass(frozen=True)
class CvFile:
    cv_id: str
    source: str  # path relative to the CV folder, with "/" separators, undecodable bytes as \xNN
    path: Path
    size: int
    mtime_ns: int
    kind: str = "pdf"  # pdf, docx or image: which extractor reads it


def printable(name: str) -> str:
    """A file name as text: undecodable bytes become \\xNN, and Unicode is NFC (macOS writes NFD)."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return unicodedata.normalize("NFC", text)


def cv_id_for(relative: Path) -> str:
    if relative.stem.lower() == "cv" and relative.suffix.lower() in CV_TYPES and len(relative.parts) > 1:
        return printable(relative.parent.as_posix())
    return printable(relative.with_suffix("").as_posix())


def discover_cvs(
    cv_dir: Path, follow_links: bool = False, file_bytes: int = Limits.file_bytes
) -> tuple[list[CvFile], list[Skipped]]:
    if not cv_dir.exists():
        raise UserError(f"CV folder not found: {cv_dir}")
    if not cv_dir.is_dir():
        raise UserError(f"not a folder: {cv_dir}")
    inside = _Inside(cv_dir, follow_links)
    paths, skipped = _walk(cv_dir, inside)
    found: list[CvFile] = []
    owner: dict[str, str] = {}
    files_seen: dict[tuple[int, int], str] = {}
    for path in sorted(paths, key=Path.is_symlink):  # a real file before a link to it; stable otherwise
        relative = path.relative_to(cv_dir)
        source = printable(relative.as_posix())
        kind = CV_TYPES.get(path.suffix.lower())
        if kind is None or path.name.startswith("~$"):
            skipped.append(Skipped(source, _other_reason(path), "not a CV type"))
            continue
        try:
            st = path.stat()
        except OSError as exc:
            skipped.append(Skipped(source, f"cannot read the file ({exc.strerror})", "unreadable"))
            continue
        if not inside(path):
            skipped.append(inside.refusal(source, path))
            continue
        if not stat.S_ISREG(st.st_mode):
            skipped.append(Skipped(source, f"{special_file(st.st_mode)}, not a regular file", "unreadable"))
            continue
        if st.st_size > file_bytes:
            over = too_large(size_text(st.st_size), f"{size_text(file_bytes)} a file", "--max-file-mb")
            skipped.append(Skipped(source, str(over), over.kind))
            continue
        if st.st_size == 0:  # named as empty here, before it could take a cv_id another file needs
            skipped.append(Skipped(source, EMPTY_FILE, "empty"))
            continue
        cv_id = cv_id_for(relative)
        if cv_id in owner:
            skipped.append(Skipped(source, f"duplicate cv_id {cv_id!r}, already taken by {owner[cv_id]}", "duplicate"))
            continue
        if (st.st_dev, st.st_ino) in files_seen:
            skipped.append(Skipped(source, f"the same file as {files_seen[st.st_dev, st.st_ino]}", "duplicate"))
            continue
        if not os.access(path, os.R_OK):
            skipped.append(Skipped(source, "cannot read the file (Permission denied)", "unreadable"))
            continue
        owner[cv_id] = files_seen[st.st_dev, st.st_ino] = source
        found.append(CvFile(cv_id, source, path, st.st_size, st.st_mtime_ns, kind))
    if not found:
        others = f": found {len(skipped)} other files, none of them a CV" if skipped else ""
        raise UserError(
            f"no CV files (PDF, Word .docx or scanned images) in {cv_dir}{others} "
            f"(expected {cv_dir}/<cv_id>/cv.pdf or {cv_dir}/<name>.pdf)"
        )
    found.sort(key=lambda f: os.fsencode(f.path.relative_to(cv_dir)))
    skipped.sort(key=lambda s: s.source.encode("utf-8", "surrogateescape"))
    return found, skipped


def _other_reason(path: Path) -> str:
    if path.name.startswith("~$"):
        return "a Word lock file (Word keeps one while the document is open), not a CV"
    suffix = path.suffix.lower()
    return _OTHER_REASONS.get(
        suffix, f"not a CV type ({suffix or 'no extension'}); CVs are {', '.join(sorted(CV_TYPES))} files"
    )


class _Inside:
    """Whether a path stays inside the CV folder once its links are resolved (always, when links
    are followed), and how a path that leaves it is named."""

    def __init__(self, root: Path, follow_links: bool):
        self.root = Path(os.path.realpath(root))
        self.follow_links = follow_links

    def __call__(self, path: Path) -> bool:
        return self.follow_links or Path(os.path.realpath(path)).is_relative_to(self.root)

    def refusal(self, label: str, path: Path) -> Skipped:
        return Skipped(
            label, f"a link to {link_target(path)}, outside the CV folder: --follow-links follows it", "link outside"
        )


def link_target(path: Path) -> str:
    """Where a link points, as written in it (undecodable bytes escaped)."""
    try:
        return printable(os.readlink(path))
    except OSError:
        return "a place that cannot be read"


def _walk(root: Path, inside: _Inside) -> tuple[list[Path], list[Skipped]]:
    """Every non-hidden file under root, sorted by relative path; and the folders not read, with why.

    The real tree is read first and linked folders afterwards, breadth first, so a folder reached
    both ways is read under its real path; a folder reached again (a loop, a second link) is named.
    A linked folder outside root is read only when links are followed; a link to nothing is named.
    """
    files: list[Path] = []
    skipped: list[Skipped] = []
    read: dict[tuple[int, int], str] = {}
    links: list[Path] = []

    def visit(folder: Path) -> None:
        label = printable(folder.relative_to(root).as_posix()) + "/"
        if not inside(folder):
            skipped.append(inside.refusal(label, folder))
            return
        try:
            st = folder.stat()
            key = (st.st_dev, st.st_ino)
            if key in read:
                where = "the CV folder itself" if read[key] == "./" else read[key]
                skipped.append(Skipped(label, f"a linked folder already read as {where}; not read again", "duplicate"))
                return
            read[key] = label
            entries = sorted(os.scandir(folder), key=lambda e: os.fsencode(e.name))
        except OSError as exc:
            if folder == root:
                raise UserError(f"cannot read the CV folder {root} ({exc.strerror or exc})") from None
            skipped.append(Skipped(label, f"cannot read the folder ({exc.strerror or exc})", "unreadable"))
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if entry.is_symlink() and not path.exists():
                skipped.append(
                    Skipped(
                        printable(path.relative_to(root).as_posix()),
                        f"a link to {link_target(path)}, which does not exist",
                        "broken link",
                    )
                )
            elif is_dir and entry.is_symlink():
                links.append(path)
            elif is_dir:
                visit(path)
            else:
                files.append(path)

    visit(root)
    while links:
        visit(links.pop(0))
    files.sort(key=lambda p: os.fsencode(p.relative_to(root)))
    return files, skipped
