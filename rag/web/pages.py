"""A CV's own file: found by the store's record of it, its pages drawn as PNG, and the boxes of the
evidence lines on each page.

A file is only ever reached from a candidate's `source` in the store (a path relative to the CV
folder), never from a path in a request, and a source that would lead out of the CV folder is
refused. The boxes are returned, not drawn: the page picture is the same for every query, so it is
rendered once per (generation, CV, page) and cached, and the page HTML lays the boxes over it.
Pages read by OCR have no text layer to find a line on: they are shown without boxes.
MuPDF is not thread-safe, so every use of it here holds one lock.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from rag.ingest.discover import CV_TYPES
from rag.ingest.extract import IMAGE_TYPES, page_lines
from rag.ingest.hidden import find_hidden
from rag.web.highlight import Highlight, Rect, find_lines

DPI = 110  # about 900 pixels across an A4 page: sharp on a laptop screen, ~100 KB a page
CACHED_PAGES = 256


@dataclass(frozen=True)
class Box:
    rect: Rect
    highlight: Highlight


@dataclass(frozen=True)
class PageView:
    """One page as the candidate page shows it: its size in points, the evidence boxes on it, and
    the evidence lines of this page that could not be placed (a scan, or a file that changed)."""

    number: int
    width: float
    height: float
    scanned: bool
    boxes: tuple[Box, ...]
    unplaced: tuple[Highlight, ...]


class CvFiles:
    """CV files read for pictures of their pages, the pictures cached."""

    def __init__(self, dpi: int = DPI, cached: int = CACHED_PAGES):
        self.dpi = dpi
        self._cached = cached
        self._pngs: OrderedDict[tuple, bytes] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def locate(folder: Path | None, source: str) -> Path | None:
        """The file a store's source names in the CV folder, if it is still there (None otherwise,
        or when the source would lead out of the folder)."""
        relative = os.path.normpath(source)
        if folder is None or os.path.isabs(relative) or relative == ".." or relative.startswith(".." + os.sep):
            return None
        path = folder / relative
        return path if path.is_file() else None

    @staticmethod
    def drawn(source: str) -> bool:
        """Whether the file has pages to draw (a PDF or a picture); a Word CV has none."""
        return CV_TYPES.get(Path(source).suffix.lower()) in ("pdf", "image")

    def views(
        self, folder: Path | None, source: str, highlights: Sequence[Highlight], ocr_pages: frozenset[int]
    ) -> list[PageView] | None:
        """Every page of the file with the boxes of the highlights on it; None when the file is
        missing or cannot be opened."""
        path = self.locate(folder, source)
        if path is None:
            return None
        with self._lock:
            try:
                doc = _open(path)
            except Exception:  # MuPDF raises several types for a damaged or replaced file
                return None
            with doc:
                return [
                    self._view(page, n, [h for h in highlights if h.page == n], n in ocr_pages or _is_image(path))
                    for n, page in enumerate(doc, start=1)
                ]

    def png(self, folder: Path | None, generation: str, cv_id: str, source: str, number: int) -> bytes | None:
        """Page `number` (1-based) as a PNG; None when there is no such page or file."""
        key = (str(folder), generation, cv_id, number, self.dpi)
        with self._lock:
            cached = self._pngs.get(key)
            if cached is not None:
                self._pngs.move_to_end(key)
                return cached
            path = self.locate(folder, source)
            if path is None:
                return None
            try:
                with _open(path) as doc:
                    if not 1 <= number <= doc.page_count:
                        return None
                    data = doc[number - 1].get_pixmap(dpi=self.dpi).tobytes("png")
            except Exception:
                return None
            self._pngs[key] = data
            while len(self._pngs) > self._cached:
                self._pngs.popitem(last=False)
            return data

    @staticmethod
    def _view(page: pymupdf.Page, number: int, wanted: list[Highlight], scanned: bool) -> PageView:
        area = page.rect
        if scanned:
            return PageView(number, area.width, area.height, True, (), tuple(wanted))
        to_view = page.rotation_matrix  # text comes unrotated; the picture is drawn as the page is shown
        lines = []
        for line in page_lines(page, find_hidden(page)):  # the lines the index read: hidden text left out
            r = pymupdf.Rect(line.box.x0, line.box.y0, line.box.x1, line.box.y1) * to_view
            lines.append((line.box.text, Rect(r.x0 - area.x0, r.y0 - area.y0, r.width, r.height)))
        boxes, unplaced = [], []
        for h in wanted:
            found = find_lines(lines, h.text)
            boxes += [Box(rect, h) for rect in found]
            if not found:
                unplaced.append(h)
        return PageView(number, area.width, area.height, False, tuple(boxes), tuple(unplaced))


def _is_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_TYPES


def _open(path: Path) -> pymupdf.Document:
    kind = IMAGE_TYPES.get(path.suffix.lower(), "pdf")
    return pymupdf.open(stream=path.read_bytes(), filetype=kind)
