"""Text of a CV PDF, page by page, in reading order, or the reason it has none.

A CV that yields no text (a scanned image, an encrypted or corrupt file) must be reported, never
indexed as an empty document, so every failure here is an ExtractionFailed with a short reason.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from .errors import short_reason
from .layout import Box, reading_order
from .records import HeadLine

EXTRACTOR_NAME = "pymupdf-xycut"
EXTRACTOR_VERSION = "2"

# Ligatures expanded (no TEXT_PRESERVE_LIGATURES), text outside the page dropped, unknown glyphs
# kept visible as U+FFFD so an unreadable text layer can be detected.
_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
_UNREADABLE_SHARE = 0.3

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


class ExtractionFailed(Exception):
    """The PDF yields no usable text; str(self) is the reason, shown to the user."""


@dataclass
class Extracted:
    pages: list[str]
    warnings: list[str] = field(default_factory=list)
    head: list[HeadLine] = field(default_factory=list)  # first page, top to bottom


def extract_pdf(source: Path | bytes) -> Extracted:
    """A PDF's text, from its path or its bytes (a job description read from standard input)."""
    try:
        if isinstance(source, bytes):
            doc = pymupdf.open(stream=source, filetype="pdf")
        else:
            doc = pymupdf.open(source, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged files
        raise ExtractionFailed(f"not a readable PDF ({short_reason(exc)})") from None
    with doc:
        if doc.needs_pass and not doc.authenticate(""):
            raise ExtractionFailed("encrypted: a password is needed to open it")
        if doc.page_count == 0:
            raise ExtractionFailed("the PDF has no pages")
        pages: list[str] = []
        head: list[HeadLine] = []
        image_only: list[int] = []
        for number, page in enumerate(doc, start=1):
            try:
                lines = page_lines(page)
            except Exception as exc:
                raise ExtractionFailed(f"page {number} cannot be read ({short_reason(exc)})") from None
            text = lines_text(lines)
            pages.append(text)
            if number == 1:
                head = head_lines(lines, page.rect)
            if not text.strip() and page.get_images():
                image_only.append(number)
    _check_usable(pages, image_only)
    warnings = [f"page {n} has no text, only images (scanned?); it is not searchable" for n in image_only]
    return Extracted(pages, warnings, head)


def _check_usable(pages: list[str], image_only: list[int]) -> None:
    text = "".join(pages)
    visible = [ch for ch in text if not ch.isspace()]
    if not visible:
        if image_only:
            raise ExtractionFailed("no extractable text: the pages are images (a scanned CV? OCR is not supported)")
        raise ExtractionFailed("no extractable text")
    unreadable = sum(1 for ch in visible if ch == "\ufffd" or unicodedata.category(ch) == "Co")
    if unreadable / len(visible) > _UNREADABLE_SHARE:
        raise ExtractionFailed("the text layer is unreadable (its fonts have no Unicode mapping)")


@dataclass(frozen=True)
class _Line:
    box: Box
    size: float
    bold: bool


def page_lines(page: pymupdf.Page) -> list[_Line]:
    """The page's non-blank text lines with their boxes and font size, in content-stream order."""
    lines: list[_Line] = []
    for block in page.get_text("dict", flags=_FLAGS)["blocks"]:
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                text = "".join(span["text"] for span in line["spans"])
                size = max(s["size"] for s in spans)
                bold = all(s["flags"] & pymupdf.TEXT_FONT_BOLD or "bold" in s["font"].lower() for s in spans)
                lines.append(_Line(Box(*line["bbox"], text=text), size, bool(bold)))
    return lines


def lines_text(lines: list[_Line]) -> str:
    boxes = [line.box for line in lines]
    regions = reading_order(boxes)
    return normalize_text("\n".join("\n".join(boxes[i].text for i in region) for region in regions))


def page_text(page: pymupdf.Page) -> str:
    return lines_text(page_lines(page))


HEAD_LINES = 40  # the name sits near the top; the rest of page 1 only helps rank font sizes


def head_lines(lines: list[_Line], rect: pymupdf.Rect) -> list[HeadLine]:
    """Page 1's lines top to bottom (then left to right), as HeadLine records, at most HEAD_LINES."""
    width, height = max(rect.width, 1.0), max(rect.height, 1.0)
    ordered = sorted(lines, key=lambda l: (round(l.box.y0, 1), l.box.x0))[:HEAD_LINES]
    return [
        HeadLine(normalize_text(l.box.text), round(l.size, 2), l.bold, round((l.box.y0 - rect.y0) / height, 4),
                 round((l.box.x0 - rect.x0) / width, 4), round((l.box.x1 - rect.x0) / width, 4))
        for l in ordered
        if normalize_text(l.box.text)
    ]


_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def normalize_text(text: str) -> str:
    """NFKC (full-width letters, ligatures, no-break spaces), one space between words, no soft hyphens."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "")
    text = _SPACES.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()

